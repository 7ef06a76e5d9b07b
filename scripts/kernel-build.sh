#!/usr/bin/env bash
# Stage kernel-build: configure and build the kernel out of tree.
# Usage:   kernel-build.sh [--check-config]   (--check-config: configure in a
#          scratch directory, validate the fragments, build nothing)
#          IMA_STACK_KERNEL_LOCK=FILE: build under flock FILE (one kernel
#          build at a time on a shared machine)
# Inputs:  the tree from kernel-source.sh (its stamp), kernel-patches/config/
#          *.config (KCONFIG_FRAGMENTS overrides) and, for a tree other than
#          6.1, its deltas kernel-patches/VER/config/*.config (merged after
#          them), the CA and module key from keys.sh, KVARIANT or KTREE
#          (lib.sh, stage_variant), scripts/kernel-cc (the compiler wrapper).
# Outputs: $CACHE/kernel/<variant>/obj (objects), .../out/{bzImage,config,
#          modules/} and a stamp; nothing is rebuilt when the inputs hash to
#          the stamp.
. "$(dirname "$0")/lib.sh"
need gcc build-essential
need ccache ccache
need flex flex
need bison bison

check_only=0
[ "${1:-}" = --check-config ] && check_only=1
variant=$(stage_variant)
ktree=$(kernel_tree "$variant")
kdir=$CACHE/kernel/$variant
src=$kdir/src
obj=$kdir/obj
out=$kdir/out
keys=$KEYS_PRIVATE
frags=${KCONFIG_FRAGMENTS:-$TOP/kernel-patches/config}
# the tree's own deltas to the shared fragments, each with its reason
tfrags=
[ "$ktree" = 6.1 ] || [ -n "${KCONFIG_FRAGMENTS:-}" ] || tfrags=$(tree_patches "$ktree")/config
[ -f "$kdir/src.stamp" ] || die "no $variant kernel tree: run \`make kernel-source\` first"
[ -f "$keys/ca.pem" ] && [ -f "$keys/module.pem" ] || die "no keys: run \`make keys\` first"

if [ "$check_only" = 1 ]; then
	# --check-config: configure in a scratch directory, validate, stop
	obj=$(mktemp -d)
	trap 'rm -rf "$obj"' EXIT
	LOGS=$obj
fi
# the compiler setup: kernel-cc and the ccache settings (lib.sh)
ccsetup=$( (sha256sum <"$TOP/scripts/kernel-cc"; declare -f kernel_ccache_env) | sha256sum | cut -c1-16)
key=$( (cat "$kdir/src.stamp"; content_hash "$frags" ${tfrags:+"$tfrags"}; sha256sum <"$keys/ca.pem"
	sha256sum <"$keys/module.pem"; sha256sum <"$0"; echo "$ccsetup") | sha256sum | cut -c1-16)
if [ "$check_only" = 0 ] && stamp_ok "$key" "$out/stamp" && [ -f "$out/bzImage" ]; then
	log "kernel up to date ($variant, key $key)"
	exit 0
fi
[ "$check_only" = 1 ] || rm -f "$out/stamp"
mkdir -p "$obj" "$out"
# IMA_STACK_KERNEL_LOCK=FILE: one kernel build at a time on the machine;
# held (flock FILE) from here to the end of the build
if [ "$check_only" = 0 ] && [ -n "${IMA_STACK_KERNEL_LOCK:-}" ]; then
	need flock util-linux
	exec 8>"$IMA_STACK_KERNEL_LOCK"
	if ! flock -n 8; then
		log "waiting for the kernel lock $IMA_STACK_KERNEL_LOCK (another kernel build)"
		flock 8
	fi
fi

# The tree's Makefile refuses O= builds when the source tree was configured in
# place; it never is here. The compiler: ccache in depend mode through
# scripts/kernel-cc, copied to a fixed path in the cache (kbuild records the
# command line of every object; a path inside the clone would rebuild
# everything from another clone).
kernel_ccache_env
if [ -d "$CACHE/ccache" ]; then
	log "removing $CACHE/ccache: preprocessor-mode entries, superseded by $CCACHE_DIR (lib.sh, kernel_ccache_env)"
	rm -rf "$CACHE/ccache"
fi
kcc=$CACHE/bin/kernel-cc
if ! cmp -s "$TOP/scripts/kernel-cc" "$kcc"; then
	mkdir -p "$CACHE/bin"
	install -m 0755 "$TOP/scripts/kernel-cc" "$kcc.tmp" && mv "$kcc.tmp" "$kcc"
fi
# Objects another compiler setup made are not kept: kbuild would reuse them,
# the command line being the same. The obj tree is marked with its setup.
if [ "$check_only" = 0 ] && [ "$(cat "$obj/.ima-stack-cc" 2>/dev/null)" != "$ccsetup" ]; then
	if [ -n "$(ls -A "$obj")" ]; then
		log "$obj: objects of another compiler setup (kernel-cc, kernel_ccache_env): removing them"
	fi
	rm -rf "$obj" && mkdir -p "$obj"
	echo "$ccsetup" >"$obj/.ima-stack-cc"
fi
export KBUILD_BUILD_USER=ima-stack KBUILD_BUILD_HOST=build
export KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00:00 UTC'
mk=(make -C "$src" O="$obj" CC="$kcc gcc" HOSTCC="$kcc gcc" -j"$(nproc)")

# 1. config: tinyconfig + fragments + key paths, olddefconfig, then validate.
#    The options a patch adds are in patches/NAME.config, merged when the
#    tree has NNNN-NAME.patch applied (kernel-source.sh's src.patches): the
#    patched kernel and every prefix series-check builds, never pristine.
fraglist=("$frags"/*.config)
if [ -n "$tfrags" ]; then
	for f in "$tfrags"/*.config; do
		[ ! -f "$f" ] || fraglist+=("$f")
	done
fi
[ -f "$kdir/src.patches" ] || die "no $kdir/src.patches: run \`make kernel-source\` again"
while read -r p; do
	f=$frags/patches/$(sed -e 's/^[0-9]*-//' -e 's/\.patch$//' <<<"$p").config
	[ ! -f "$f" ] || fraglist+=("$f")
done <"$kdir/src.patches"
log "configuring $ktree: tinyconfig + $(for f in "${fraglist[@]}"; do echo "${f#"$TOP"/kernel-patches/}"; done | paste -sd' ')"
gen=$obj/ima-stack-keys.config
cat >"$gen" <<EOC
CONFIG_SYSTEM_TRUSTED_KEYS="$keys/ca.pem"
CONFIG_MODULE_SIG_KEY="$keys/module.pem"
EOC
run "${mk[@]}" tinyconfig >"$LOGS/kernel-$variant-config.log" 2>&1 ||
	die "make tinyconfig failed: see $LOGS/kernel-$variant-config.log"
(cd "$obj" && run "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config \
	"${fraglist[@]}" "$gen") >>"$LOGS/kernel-$variant-config.log" 2>&1 ||
	die "merging config fragments failed: see $LOGS/kernel-$variant-config.log"
run "${mk[@]}" olddefconfig >>"$LOGS/kernel-$variant-config.log" 2>&1 ||
	die "make olddefconfig failed: see $LOGS/kernel-$variant-config.log"

# what was asked for, per symbol: the last fragment that names it wins (as
# in merge_config.sh), so a tree's delta may turn a shared option off
declare -A want=()
order=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) sym=${line%%=*} ;;
	"# CONFIG_"*" is not set") sym=${line#\# } sym=${sym%% *} ;;
	*) continue ;;
	esac
	[ -n "${want[$sym]+x}" ] || order+=("$sym")
	want[$sym]=$line
done < <(cat "${fraglist[@]}" "$gen")
dropped=()
for sym in "${order[@]}"; do
	line=${want[$sym]}
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" "$obj/.config" || dropped+=("$line (have: $(grep -E "^(# )?${sym}[= ]" "$obj/.config" || echo unset))")
		;;
	*)
		! grep -q "^$sym=" "$obj/.config" || dropped+=("$line (have: $(grep "^$sym=" "$obj/.config"))")
		;;
	esac
done
if [ ${#dropped[@]} -gt 0 ]; then
	printf '  dropped: %s\n' "${dropped[@]}" >&2
	die "${#dropped[@]} requested kconfig option(s) did not survive olddefconfig on the $ktree tree (listed above): fix their dependencies in kernel-patches/config/${tfrags:+ or ${tfrags#"$TOP"/}}"
fi
log "config ok: $(grep -c '=' "$obj/.config") options set, all requested ones present"
[ "$check_only" = 0 ] || exit 0

# 2. build, with a progress line every 30 s; first, every .incbin in the
#    tree must be one kernel-cc can see (lib.sh, kernel_incbin_check)
unseen=$(kernel_incbin_check "$src")
[ -z "$unseen" ] || die "$(printf '%s\n' "$unseen" | wc -l) file(s) of the $variant tree use .incbin and are not in kernel_incbin_check's list (scripts/lib.sh): $(printf '%s\n' "$unseen" | paste -sd' '); read them and add them there, or turn ccache's depend mode off"
log "building bzImage and modules: ${mk[*]} bzImage modules (log: $LOGS/kernel-$variant-build.log)"
ccache -z >/dev/null 2>&1 || true
("${mk[@]}" bzImage modules >"$LOGS/kernel-$variant-build.log" 2>&1) &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null && sleep 1; done
	kill -0 "$pid" 2>/dev/null &&
		log "  ... $(grep -c '^  CC' "$LOGS/kernel-$variant-build.log" || true) objects compiled"
done
if ! wait "$pid"; then
	grep -E 'error|Error' "$LOGS/kernel-$variant-build.log" | head -n 20 >&2 || true
	die "kernel build failed: see $LOGS/kernel-$variant-build.log"
fi
hits=$(ccache -s 2>/dev/null | awk '/Hits:/ {print $2; exit}')
log "built $(make -s -C "$src" O="$obj" kernelrelease 2>/dev/null) (ccache hits: ${hits:-?})"

# 3. install into out/: bzImage, config, modules tree (signed by the build)
rm -rf "$out/modules.tmp"
run "${mk[@]}" INSTALL_MOD_PATH="$out/modules.tmp" INSTALL_MOD_STRIP=1 \
	modules_install >"$LOGS/kernel-$variant-modinst.log" 2>&1 ||
	die "modules_install failed: see $LOGS/kernel-$variant-modinst.log"
rm -rf "$out/modules" && mv "$out/modules.tmp" "$out/modules"
find "$out/modules" \( -name build -o -name source \) -type l -delete
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
cp "$obj/.config" "$out/config"
make -s -C "$src" O="$obj" kernelrelease >"$out/release"
echo "$key" >"$out/stamp"
log "kernel ready: $out/bzImage ($(stat -c %s "$out/bzImage") bytes)"
