#!/usr/bin/env bash
# Stage deps: install every Debian package the project needs.
# Input: scripts/packages.txt, plus package names given as arguments.
# Idempotent; quick when all are present.
. "$(dirname "$0")/lib.sh"

list=$TOP/scripts/packages.txt
mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list")
# extra packages a single target needs, given as arguments
pkgs+=("$@")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	log "all ${#pkgs[@]} packages present"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "missing packages (${missing[*]}) and not root: run \`sudo make deps\`"
log "installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
run apt-get -o DPkg::Lock::Timeout=900 update -qq >"$LOGS/apt-update.log" 2>&1 ||
	die "apt-get update failed: see $LOGS/apt-update.log"
run apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" \
	>"$LOGS/apt-install.log" 2>&1 ||
	die "apt-get install failed: see $LOGS/apt-install.log (tail: $(tail -n 2 "$LOGS/apt-install.log" | tr '\n' ' '))"
log "installed ${#missing[@]} packages"
