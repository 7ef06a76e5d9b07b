# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Sourced by the tools' run-check.sh (which define ok, not_ok and
# todo_line):
#
#   relay FILE LABEL
#
# FILE holds a runner's "ok - NAME" / "not ok - NAME" lines and "#"
# comments (tests/run-cases.py, run-forms.py, ../ima-attest's
# run-public.py): each becomes one of ours, numbered by ok/not_ok; a
# "not ok ... # TODO" (a known limitation) by todo_line. A runner
# that printed no result line fails, as LABEL, with the end of FILE.
relay() {
	seen=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) seen=$((seen + 1)); ok "${line#ok - }" ;;
		"not ok - "*"# TODO "*) seen=$((seen + 1)); todo_line "${line#not ok - }" ;;
		"not ok - "*) seen=$((seen + 1)); not_ok "${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
	[ $seen -gt 0 ] || not_ok "$2: no case ran" "$(tail -n 3 "$1")"
}
