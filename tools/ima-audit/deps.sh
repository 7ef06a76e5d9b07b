#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Check what a make target needs; name what is missing and the fix.
set -u
what=$1
shift
missing=""

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || missing="$missing $1($2)"
}

need_header() {
	printf '#include <%s>\n' "$2" | $1 -E -x c - >/dev/null 2>&1 ||
		missing="$missing $2($3)"
}

case $what in
build)
	need_cmd "$1" gcc
	need_cmd xxd xxd
	need_header "$1" openssl/evp.h libssl-dev
	;;
check)
	need_cmd "$1" clang
	need_cmd "$2" python3
	need_header "$1" cmocka.h libcmocka-dev
	need_header "$1" openssl/evp.h libssl-dev
	if command -v "$1" >/dev/null 2>&1; then
		tmp=$(mktemp -d)
		printf 'int LLVMFuzzerTestOneInput(const char *d, long n)%s\n' \
			'{ return 0; }' >"$tmp/f.c"
		"$1" -fsanitize=fuzzer,address,undefined "$tmp/f.c" \
			-o "$tmp/f" >/dev/null 2>&1 ||
			missing="$missing libFuzzer(libclang-rt-dev)"
		rm -rf "$tmp"
	fi
	;;
bench)
	need_cmd "$1" python3
	need_cmd evmctl ima-evm-utils
	[ -x /usr/bin/time ] || missing="$missing /usr/bin/time(time)"
	"$1" -c 'import cryptography' 2>/dev/null ||
		missing="$missing cryptography(python3-cryptography)"
	;;
bench-memory)
	need_cmd "$1" python3
	[ -x /usr/bin/time ] || missing="$missing /usr/bin/time(time)"
	;;
esac

if [ -n "$missing" ]; then
	echo "ima-audit: missing:$missing" >&2
	echo "ima-audit: run \`make deps\` at the repository top" >&2
	exit 1
fi
exit 0
