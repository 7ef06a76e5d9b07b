# shellcheck shell=bash
# Common helpers for the stage scripts: logging, errors, traps, paths.
# Sourced, never run.

set -Eeuo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
LOGS=$BUILD/logs
STAGE=${STAGE:-$(basename "${0%.sh}")}
V=${V:-0}
mkdir -p "$BUILD" "$CACHE" "$LOGS"

_t0=$(date +%s)

elapsed() {
	local s=$(($(date +%s) - _t0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

log() {
	printf '[%s %s] %s\n' "$STAGE" "$(elapsed)" "$*" >&2
}

# die MESSAGE: one line naming the stage, the cause and (in MESSAGE) the fix.
die() {
	printf '[%s] error: %s\n' "$STAGE" "$*" >&2
	exit 1
}

_on_err() {
	local rc=$? cmd=$BASH_COMMAND line=${BASH_LINENO[0]}
	printf '[%s] failed (exit %d) at %s:%s: %s\n' "$STAGE" "$rc" \
		"$(basename "$0")" "$line" "$cmd" >&2
	exit "$rc"
}
trap _on_err ERR

# run CMD...: print the command when V=1, run it.
run() {
	[ "$V" = 1 ] && printf '+ %s\n' "$*" >&2
	"$@"
}

# need CMD PACKAGE: fail with the fix when a host command is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found (package $2): run \`make deps\`"
}

# kernel_ccache_env: the ccache settings of the kernel build (exported).
# BASEDIR and NOHASHDIR let the patched and pristine trees share entries.
# DEPEND: depend mode, which never runs the preprocessor (a miss is one
# compile, not two passes over the headers); it needs direct mode and a
# second cpp, set here whatever a ccache.conf or the caller's environment
# says. Depend mode cannot see .incbin inputs: scripts/kernel-cc compiles
# the files that use it without ccache, and kernel_incbin_check keeps the
# list of such files honest. tests/host/kernel-ccache.sh checks all three.
# A depend-mode object is byte for byte what gcc alone makes; preprocessor
# mode ran gcc on BASEDIR-relative paths, so __FILE__ came out as
# "../src/net/socket.c" instead of kbuild's "net/socket.c". Its entries,
# in $CACHE/ccache, are never read (kernel-build.sh removes that
# directory): a kernel is not a mix of the two.
kernel_ccache_env() {
	export CCACHE_DIR=$CACHE/ccache-depend CCACHE_MAXSIZE=4G CCACHE_NOHASHDIR=1
	export CCACHE_BASEDIR=$CACHE/kernel CCACHE_DEPEND=1 CCACHE_DIRECT=1 CCACHE_CPP2=1
	unset CCACHE_NODEPEND CCACHE_NODIRECT CCACHE_NOCPP2 CCACHE_DISABLE
}

# kernel_incbin_check SRC: print every file of the kernel tree SRC that says
# "incbin" and is not one of the files below, whose use of it was read and
# found safe for scripts/kernel-cc (which only looks at the file it is
# asked to compile). Empty output: safe. A new name means a patch or a new
# tarball added one: if that file is compiled itself and no other file
# includes it, add it here; if it is included (a header, a .S pulled in by
# #include), kernel-cc cannot see it and depend mode must go.
# Not searched: other architectures, tools/ (user-space programs),
# Documentation/ and samples/.
kernel_incbin_check() {
	local f
	# grep: 0 found, 1 none found, 2 trouble (which fails the caller)
	(cd "$1" && { grep -rlI --exclude-dir=Documentation --exclude-dir=tools \
		--exclude-dir=samples --exclude-dir=arch -i -e incbin . arch/x86 || [ $? = 1 ]; }) |
		sed 's,^\./,,' | LC_ALL=C sort -u | while read -r f; do
		case $f in
		# compiled themselves: kernel-cc sees the directive
		certs/system_certificates.S | certs/revocation_certificates.S) ;;
		kernel/configs.c | kernel/kheaders.c | lib/bootconfig-data.S) ;;
		usr/initramfs_data.S | net/bpfilter/bpfilter_umh_blob.S) ;;
		arch/x86/purgatory/kexec-purgatory.S | arch/x86/realmode/rmpiggy.S) ;;
		arch/x86/um/vdso/vdso.S) ;; # ARCH=um only
		# write a source that is then compiled (piggy.S, the built-in
		# firmware's .S files, the device-tree blobs' .S): kernel-cc greps
		# the generated file when it compiles it
		arch/x86/boot/compressed/mkpiggy.c | scripts/Makefile.lib) ;;
		# 6.12 moved the device-tree blobs' .S wrapper there
		scripts/Makefile.dtbs) ;;
		drivers/base/firmware_loader/builtin/Makefile) ;;
		# the device-tree compiler's /incbin/ syntax, a host program's
		scripts/dtc/dtc-lexer.l | scripts/dtc/dtc-parser.y) ;;
		*) printf '%s\n' "$f" ;;
		esac
	done
}

# content_hash FILE|DIR...: sha256 over names and contents, stable order.
content_hash() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			(cd "$p" && find . -type f ! -name '*~' -print0 | LC_ALL=C sort -z |
				xargs -0 -r sha256sum)
		elif [ -e "$p" ]; then
			printf '%s ' "$(basename "$p")"
			sha256sum <"$p"
		else
			printf 'missing %s\n' "$p"
		fi
	done | sha256sum | cut -c1-16
}

# console_errors FILE: the kernel's own oops, BUG, warning and panic reports
# in a guest console log. Only printk-formatted lines count ("[  12.345678]
# BUG: ..."): test output never reaches the console, and a line that merely
# contains "BUG:" is not a kernel report.
console_errors() {
	grep -aE '^\[ *[0-9]+\.[0-9]+\] (Kernel panic - not syncing|BUG: |kernel BUG at |Oops: |general protection fault|WARNING: CPU: |Unable to handle kernel )' "$1"
}

# --- kernel trees and variants ---------------------------------------------
# A kernel tree is a Debian kernel source, linux-source-VER (package
# linux-source-VER, /usr/src/linux-source-VER.tar.xz). 6.1 is the first:
# its series and cover letter are kernel-patches/series and
# kernel-patches/0000-cover-letter.patch; every other tree VER has its own
# in kernel-patches/VER/. A variant is one kernel built from a tree: BASE
# (patched: the tree's series; pristine: no patch; series-check: a prefix
# of the series) for 6.1, BASE-VER for the others (patched-6.12). The 6.1
# variants keep their names, so caches made before 6.12 stay valid.
# KTREE names the tree(s) a target works on (scripts/check.sh: one or more,
# default every tree; the stage scripts: one, default 6.1).

# kernel_trees: every tree the project has a series for, oldest first
kernel_trees() {
	local s
	echo 6.1
	for s in "$TOP"/kernel-patches/*/series; do
		[ ! -f "$s" ] || basename "$(dirname "$s")"
	done | sort -V
}

# tree_check TREE: die unless TREE is one of kernel_trees
tree_check() {
	case " $(kernel_trees | paste -sd' ') " in
	*" $1 "*) return 0 ;;
	esac
	die "kernel tree '$1': the trees are $(kernel_trees | paste -sd' ') (a tree VER needs kernel-patches/VER/series)"
}

# tree_patches TREE: the directory of TREE's series, cover letter and
# evidence file
tree_patches() {
	if [ "$1" = 6.1 ]; then echo "$TOP/kernel-patches"; else echo "$TOP/kernel-patches/$1"; fi
}

# tree_tarball TREE: the Debian source tarball of TREE
tree_tarball() {
	echo "/usr/src/linux-source-$1.tar.xz"
}

# variant_of BASE TREE: the variant name of kernel BASE on TREE
variant_of() {
	if [ "$2" = 6.1 ]; then echo "$1"; else echo "$1-$2"; fi
}

# kernel_tree [VARIANT]: the tree of VARIANT (default: KVARIANT, patched)
kernel_tree() {
	local v=${1:-${KVARIANT:-patched}}
	if [[ $v =~ -([0-9]+\.[0-9]+)$ ]]; then echo "${BASH_REMATCH[1]}"; else echo 6.1; fi
}

# variant_base [VARIANT]: patched, pristine or series-check
variant_base() {
	local v=${1:-${KVARIANT:-patched}}
	echo "${v%-"$(kernel_tree "$v")"}"
}

# stage_variant: the kernel a stage script works on: KVARIANT, else the
# patched kernel of KTREE (one tree, default 6.1). Dies on a variant or
# tree the project does not have.
stage_variant() {
	local v t
	if [ -n "${KVARIANT:-}" ]; then
		v=$KVARIANT
	else
		t=${KTREE:-6.1}
		[[ $t != *[[:space:]]* ]] || die "KTREE='$t': this target works on one kernel; name one tree"
		v=$(variant_of patched "$t")
	fi
	case $(variant_base "$v") in
	patched | pristine | series-check) ;;
	*) die "KVARIANT=$v: use patched, pristine or series-check, with -VER for a tree other than 6.1 (patched-6.12)" ;;
	esac
	tree_check "$(kernel_tree "$v")"
	[ "$(variant_of "$(variant_base "$v")" "$(kernel_tree "$v")")" = "$v" ] ||
		die "KVARIANT=$v: the 6.1 variants have no suffix (patched, pristine)"
	echo "$v"
}

# tap_count TAPFILE: "PASS FAIL SKIP TODO WHY" of one TAP stream. A result
# is a line "ok" or "not ok", numbered or not; its directive is what follows
# the first "#" not escaped by "\" (tests/lib/tap.sh escapes names). "ok #
# SKIP" is a skip, "not ok # TODO" (or "ok # TODO") a known limitation,
# "not ok # SKIP" a failure. WHY (empty when none) names what breaks the
# stream as a whole: no plan, two plans, a plan between results, a count
# other than the plan's, a number out of sequence, a bail-out.
tap_count() {
	[ -f "$1" ] || { echo "0 0 0 0 no TAP file"; return; }
	awk '
	function why(w) { if (bad == "") bad = w }
	/^Bail out!/ { why("bailed out"); next }
	/^1\.\.[0-9]+[ \t]*(#.*)?$/ {
		if (plans++) { why("two plans"); next }
		planned = substr($0, 4) + 0; planat = n
		next
	}
	/^(not )?ok([ \t]|$)/ {
		n++
		notok = /^not /
		rest = $0
		sub(/^(not )?ok/, "", rest)
		if (match(rest, /^[ \t]+[0-9]+/)) {
			if (substr(rest, 1, RLENGTH) + 0 != n)
				why("result " n " is numbered" substr(rest, 1, RLENGTH))
			rest = substr(rest, RLENGTH + 1)
		}
		dir = ""
		for (i = 1; i <= length(rest); i++) {
			c = substr(rest, i, 1)
			if (c == "\\") { i++; continue }
			if (c == "#") { dir = substr(rest, i + 1); break }
		}
		sub(/^[ \t]+/, "", dir)
		dir = toupper(substr(dir, 1, 4))
		if (dir == "TODO") t++
		else if (notok) f++
		else if (dir == "SKIP") s++
		else p++
	}
	END {
		if (!plans) why("no plan")
		else if (planat != 0 && planat != n) why("the plan is between results")
		else if (planned != n) why("planned " planned ", reported " n)
		printf "%d %d %d %d %s\n", p, f, s, t, bad
	}' "$1"
}

# tally NAME TAPFILE RC: count one suite's TAP into $pass, $fail, $skip and
# print its summary line; a stream tap_count finds broken, or a non-zero
# exit with no failing line, is a failure of its own; exit 77 only counts as
# a skip when the TAP shows the skips
tally() {
	local name=$1 tap=$2 rc=$3 p f s t why
	read -r p f s t why < <(tap_count "$tap")
	# exit 77 (automake's "skipped") is fine when the TAP shows the skips
	[ "$rc" = 77 ] && [ "$s" -gt 0 ] && rc=0
	# a suite whose only "failures" are TODOs exits 1 by TAP convention
	[ "$rc" = 1 ] && [ "$f" = 0 ] && [ "$t" -gt 0 ] && rc=0
	if [ -n "$why" ] || { [ "$rc" != 0 ] && [ "$f" = 0 ]; }; then
		echo "not ok - $name: suite did not finish (exit $rc${why:+, $why})"
		f=$((f + 1))
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s)) todo=$((${todo:-0} + t))
	printf '# %-34s %3d passed, %d failed, %d skipped, %d todo\n' "$name" "$p" "$f" "$s" "$t"
}

# splice FILE BEGIN END TEXT_FILE: replace what lies between FILE's marker
# lines BEGIN and END (each a whole line) with TEXT_FILE's content (the
# generated parts of README.md, the cover letter, docs/measurements.md)
splice() {
	local file=$1 begin=$2 end=$3 text=$4
	if ! grep -qxF -- "$begin" "$file" || ! grep -qxF -- "$end" "$file"; then
		die "$file lacks the marker lines '$begin' and '$end'"
	fi
	awk -v b="$begin" -v e="$end" -v t="$text" '
		$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$file" >"$file.new"
	mv "$file.new" "$file"
}

# stamp_ok NAME HASH: true when stage NAME already ran with HASH.
stamp_ok() {
	[ -f "$2" ] && [ "$(cat "$2")" = "$1" ]
}
