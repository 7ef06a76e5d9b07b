# shellcheck shell=bash
# The opening of a host check of one boot's results (tests/host/boot/*.sh),
# after `set -euo pipefail` and TOP: host.sh and the project's paths
# (scripts/paths.sh), then
# boot_results USAGE DIR: sets
#   res      DIR, absolute (bails out with the check's USAGE without it)
#   console  the serial console log of the boot whose results DIR holds
# shellcheck source=tests/host/lib/host.sh
. "$TOP/tests/host/lib/host.sh"
# shellcheck source=scripts/paths.sh
. "$TOP/scripts/paths.sh"
# shellcheck disable=SC2034 # res and console are the caller's
boot_results() {
	[ -n "${2:-}" ] || tap_bail "usage: $1"
	[ -d "$2" ] || tap_bail "no results directory $2"
	res=$(cd "$2" && pwd)
	# DIR is build/VARIANT/results/NAME (paths.sh: variant_dir, results_dir)
	console=$(console_log "$(basename "$(dirname "$(dirname "$res")")")" "$(basename "$res")")
}

# first_kernel CONSOLE: the first kernel's lines of a kexec boot's console,
# up to its "kexec_core: Starting new kernel" or, when that line is lost
# (printed by a CPU the jump stopped first), up to the next kernel's banner
first_kernel() {
	awk '/Linux version / && seen++ {exit} {print} /kexec_core: Starting new kernel/ {exit}' "$1"
}
# tap_jumped CONSOLE: one TAP line, the first kernel reached the jump: its
# "Starting new kernel" line, or the next kernel's banner after its own
tap_jumped() {
	local n
	n=$(grep -c -e 'kexec_core: Starting new kernel' -e 'Linux version ' "$1" || true)
	tap_cmd "the first kernel reached the jump (its \"Starting new kernel\", or the next kernel's banner: $n lines)" \
		test "$n" -ge 2
}
