# shellcheck shell=bash
# TAP 13 helpers for host and guest test scripts. Sourced, never run.
#
#   tap_ok NAME / tap_fail NAME [DIAG...]   one result
#   tap_is NAME GOT WANT                    ok when the strings are equal
#   tap_like NAME GOT REGEX                 ok when GOT matches REGEX (grep -E)
#   tap_cmd NAME CMD...                     ok when CMD exits 0
#   tap_errno NAME WANT CMD...              CMD is a kcall invocation; ok when
#                                           it prints WANT (OK or an errno name)
#   tap_skip NAME REASON                    not run, with the reason
#   tap_todo NAME REASON [DIAG...]          a known limitation: "not ok ... #
#                                           TODO REASON", never a pass, not a
#                                           failure of the suite
#   tap_bail REASON                         setup broken: stop the script
#   tap_done                                prints the plan; exits 0 (pass),
#                                           1 (a failure) or 77 (all skipped)
#   run_rc CMD...                           runs CMD; $rc its exit status,
#                                           $out its stdout and stderr
# A skip is reported as "ok N - NAME # SKIP REASON" (TAP) and counted apart
# from passes by every runner of this project. Exit codes follow automake:
# 0 pass, 1 fail, 77 skipped, 99 setup broken (tap_bail).

_tap_n=0
_tap_fail=0
_tap_skip=0
echo "TAP version 13"

_tap_diag() {
	local l
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/# /'
	done
}

# _tap_esc TEXT: TEXT as one line of a result, in $_tap_e. Names and
# reasons come from outside (paths, a tool's output): "\" and "#" are
# escaped, so that only the directive this file writes is one, and a
# newline is folded, so that no text can write a result line of its own.
_tap_esc() {
	_tap_e=${1//\\/\\\\}
	_tap_e=${_tap_e//[#]/\\#}
	_tap_e=${_tap_e//$'\n'/ }
}

tap_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_esc "$1"
	echo "ok $_tap_n - $_tap_e"
}

tap_fail() {
	_tap_n=$((_tap_n + 1))
	_tap_fail=$((_tap_fail + 1))
	_tap_esc "$1"
	echo "not ok $_tap_n - $_tap_e"
	shift
	[ $# -eq 0 ] || _tap_diag "$@"
}

tap_is() {
	if [ "$2" == "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "got:  $2" "want: $3"
	fi
}

tap_like() {
	if grep -qE -- "$3" <<<"$2"; then
		tap_ok "$1"
	else
		tap_fail "$1" "got:  $2" "want: /$3/"
	fi
}

tap_cmd() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$name"
	else
		tap_fail "$name" "command failed: $*" "$out"
	fi
}

tap_errno() {
	local name=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1 | tail -n 1) || true
	if [ "$got" == "$want" ]; then
		tap_ok "$name ($want)"
	else
		tap_fail "$name" "command: $*" "got:  $got" "want: $want"
	fi
}

tap_skip() {
	_tap_n=$((_tap_n + 1))
	_tap_skip=$((_tap_skip + 1))
	_tap_esc "$1"
	local name=$_tap_e
	_tap_esc "$2"
	echo "ok $_tap_n - $name # SKIP $_tap_e"
}

tap_todo() {
	_tap_n=$((_tap_n + 1))
	_tap_esc "$1"
	local name=$_tap_e
	_tap_esc "$2"
	echo "not ok $_tap_n - $name # TODO $_tap_e"
	shift 2
	[ $# -eq 0 ] || _tap_diag "$@"
}

tap_bail() {
	echo "Bail out! $*"
	exit 99
}

# shellcheck disable=SC2034 # rc and out are the caller's
run_rc() {
	rc=0
	out=$("$@" 2>&1) || rc=$?
}

tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ] || exit 1
	[ "$_tap_n" -gt 0 ] && [ "$_tap_skip" -eq "$_tap_n" ] && exit 77
	exit 0
}
