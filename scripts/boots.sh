# shellcheck shell=bash
# shellcheck disable=SC2034 # the B_* variables are for the scripts that source this
# The guest boots, read in one place. Each boot of `make check` is one file,
# tests/boots/NAME.boot (IMA_STACK_BOOTS names another directory, for
# tests); scripts/check.sh runs them in the order of their names, and
# scripts/sign.sh composes the policies they declare. Sourced after lib.sh
# (its die), never run.
#
# A boot file holds "KEY = VALUE" lines; blank lines and lines whose first
# character that is not a blank is "#" are ignored. A key given twice, a
# key not listed here or a value that does not fit stops every script that
# reads the file, naming FILE:LINE.
#
#   suites = GLOB[,GLOB...]   the guest suites (tests/guest/GLOB.sh) the
#                             boot runs, in order; every glob must name a
#                             suite (scripts/boot-ran.sh checks the guest
#                             ran exactly those). Required, except with
#                             `driver`.
#   cmdline = WORDS           appended to the guest kernel's command line
#                             (ima_stack.policy=, .tests= and .nonce= are
#                             the runner's: use `policy` and `nonce`)
#   policy = FILE...          the policy the guest's init loads by path
#                             instead of /etc/ima/ima-policy: files of
#                             policies/. One file that is not a *.rules
#                             fragment is loaded as it is (/etc/ima/FILE);
#                             otherwise the sign stage joins them, in
#                             order, into /etc/ima/NAME-policy
#   policy-drop = RULE[; RULE...]
#                             that joined policy without the rule line
#                             that starts with the words RULE, for each
#                             RULE (";" separates them: no rule has one;
#                             each must match exactly one line); needs
#                             `policy`
#   nonce = yes|no            a fresh nonce: the guest quotes with it
#                             (90-attest), boot.sh enrolls the TPM, and
#                             scripts/attest.sh checks the quote after the
#                             boot (default no)
#   audit = yes|no            scripts/audit.sh on the boot's list (default
#                             yes; a boot whose list must fail it says no
#                             and brings a host check that says how)
#   host-checks = SCRIPT...   scripts (paths from the top of the tree) run
#                             after the boot as `SCRIPT RESULTS_DIR NONCE`
#                             (NONCE empty without `nonce = yes`), each
#                             printing TAP; reported as BASENAME/NAME
#   trees = VER...            the kernel trees (Debian linux-source-VER) the
#                             boot applies to (default: every tree); on
#                             another tree the boot is reported as skipped
#   driver = SUITE SCRIPT     a boot that SCRIPT makes itself, given the
#                             run's name for it (RUN-NAME); its TAP counts
#                             as suite SUITE. No suites, cmdline, policy,
#                             nonce or host checks then.

BOOTS_DIR=${IMA_STACK_BOOTS:-$TOP/tests/boots}

# boot_names: the name of every boot file, in the order check.sh runs them
boot_names() {
	local f
	for f in "$BOOTS_DIR"/*.boot; do
		[ -f "$f" ] && basename "$f" .boot
	done | LC_ALL=C sort
}

# _boot_bad FILE:LINE WHAT: the one error every reader of a boot file gives
_boot_bad() {
	die "$1: $2"
}

# boot_read NAME: the boot file of NAME into B_NAME, B_SUITES, B_CMDLINE,
# B_POLICY, B_POLICY_DROP, B_NONCE, B_AUDIT, B_CHECKS, B_TREES, B_DRIVER
# (defaults where the file is silent). Dies naming the file and line of
# anything it cannot take.
boot_read() {
	local name=$1 f=$BOOTS_DIR/$1.boot line key val n=0 seen=" " p
	case $name in
	"" | *[!a-z0-9-]* | -*) die "boot name '$name': use lower-case letters, digits and '-'" ;;
	esac
	[ -f "$f" ] || die "no boot '$name' ($f); the boots are: $(boot_names | paste -sd' ')"
	B_NAME=$name B_SUITES='' B_CMDLINE='' B_POLICY='' B_POLICY_DROP='' B_NONCE=no
	B_AUDIT=yes B_CHECKS='' B_TREES='' B_DRIVER=''
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#.*)?$ ]] && continue
		[[ $line =~ ^[[:space:]]*([a-z-]+)[[:space:]]*=[[:space:]]*(.*)$ ]] ||
			_boot_bad "$f:$n" "not a 'KEY = VALUE' line: $line"
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		val=${val%"${val##*[![:space:]]}"}
		case $seen in *" $key "*) _boot_bad "$f:$n" "'$key' given twice" ;; esac
		seen+="$key "
		[ -n "$val" ] || _boot_bad "$f:$n" "'$key' has no value"
		case $key in
		suites)
			[[ $val != *[[:space:]]* ]] || _boot_bad "$f:$n" "suites: comma-separated globs, no blanks: $val"
			B_SUITES=$val ;;
		cmdline)
			case " $val " in
			*" ima_stack.policy="* | *" ima_stack.tests="* | *" ima_stack.nonce="*)
				_boot_bad "$f:$n" "cmdline: ima_stack.policy, .tests and .nonce come from the keys policy, suites and nonce" ;;
			esac
			B_CMDLINE=$val ;;
		policy)
			for p in $val; do
				[ -f "$TOP/policies/$p" ] || _boot_bad "$f:$n" "policy: no file policies/$p"
			done
			B_POLICY=$val ;;
		policy-drop) B_POLICY_DROP=$val ;;
		nonce | audit)
			case $val in yes | no) ;; *) _boot_bad "$f:$n" "$key: yes or no, not '$val'" ;; esac
			if [ "$key" = nonce ]; then B_NONCE=$val; else B_AUDIT=$val; fi ;;
		host-checks)
			for p in $val; do
				[ -f "$TOP/$p" ] || _boot_bad "$f:$n" "host-checks: no file $p (paths from the top of the tree)"
			done
			B_CHECKS=$val ;;
		trees)
			[[ $val =~ ^[0-9]+\.[0-9]+([[:space:]]+[0-9]+\.[0-9]+)*$ ]] ||
				_boot_bad "$f:$n" "trees: kernel versions such as 6.1 6.12, not '$val'"
			B_TREES=$val ;;
		driver)
			read -r key p <<<"$val"
			[[ $key == */* ]] && [ -n "$p" ] && [[ $p != *[[:space:]]* ]] ||
				_boot_bad "$f:$n" "driver: a suite name (like attest/poll) and one script, not '$val'"
			[ -f "$TOP/$p" ] || _boot_bad "$f:$n" "driver: no file $p (paths from the top of the tree)"
			B_DRIVER=$val ;;
		*) _boot_bad "$f:$n" "unknown key '$key' (keys: suites cmdline policy policy-drop nonce audit host-checks trees driver)" ;;
		esac
	done <"$f"
	if [ -n "$B_DRIVER" ]; then
		[ -z "$B_SUITES$B_CMDLINE$B_POLICY$B_CHECKS" ] && [ "$B_NONCE" = no ] ||
			_boot_bad "$f" "a driver boot has no suites, cmdline, policy, nonce or host-checks: its script makes the boot"
	else
		[ -n "$B_SUITES" ] || _boot_bad "$f" "no 'suites = GLOB[,GLOB...]' line"
	fi
	[ -z "$B_POLICY_DROP" ] || [ -n "$B_POLICY" ] || _boot_bad "$f" "policy-drop needs a 'policy' line"
	return 0
}

# boot_policy_path: the path in the guest of the policy boot_read's boot
# loads (empty: init's default)
boot_policy_path() {
	[ -n "$B_POLICY" ] || return 0
	case $B_POLICY in
	*" "* | *.rules) echo "/etc/ima/$B_NAME-policy" ;;
	*) if [ -n "$B_POLICY_DROP" ]; then echo "/etc/ima/$B_NAME-policy"; else echo "/etc/ima/$B_POLICY"; fi ;;
	esac
}

# boot_kcmdline: what boot_read's boot appends to the kernel command line:
# its cmdline, then its policy's path
boot_kcmdline() {
	local pol
	pol=$(boot_policy_path)
	echo "$B_CMDLINE${pol:+${B_CMDLINE:+ }ima_stack.policy=$pol}"
}

# boot_policy_compose ROOT: for boot_read's boot, write the joined policy
# into the guest tree ROOT (nothing when its policy is one file as it is)
boot_policy_compose() {
	local pol p out n r drops
	pol=$(boot_policy_path)
	[ -n "$pol" ] && [ "$pol" != "/etc/ima/$B_POLICY" ] || return 0
	out=$1$pol
	for p in $B_POLICY; do cat "$TOP/policies/$p"; done >"$out.all"
	if [ -n "$B_POLICY_DROP" ]; then
		IFS=';' read -ra drops <<<"$B_POLICY_DROP"
		for r in "${drops[@]}"; do
			r=${r#"${r%%[![:space:]]*}"} r=${r%"${r##*[![:space:]]}"}
			n=$(awk -v r="$r" '$0 == r || index($0, r " ") == 1' "$out.all" | wc -l)
			[ "$n" = 1 ] || die "boot $B_NAME: policy-drop '$r' matches $n rules of its policy ($B_POLICY), not one: fix $BOOTS_DIR/$B_NAME.boot"
			awk -v r="$r" '!($0 == r || index($0, r " ") == 1)' "$out.all" >"$out"
			mv "$out" "$out.all"
		done
		mv "$out.all" "$out"
	else
		mv "$out.all" "$out"
	fi
}

# boot_applies TREE: true when boot_read's boot applies to kernel tree TREE
boot_applies() {
	[ -z "$B_TREES" ] && return 0
	case " $B_TREES " in *" $1 "*) return 0 ;; esac
	return 1
}
