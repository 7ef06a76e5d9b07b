#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench: a polling round with 100 new entries after a 100k-entry list
# has been verified, against a full verification of the list (ours, and
# ima-audit's full audit of the same list with the same key and PCRs).
# Figures, not a test. Lists from ../ima-audit/gen/imagen.py (ima-sig,
# RSA-2048 signatures, a key made now in the build directory).
set -eu
B=$1
N=${BENCH_ENTRIES:-100000}
NEW=${BENCH_NEW:-100}
ROUNDS=${BENCH_ROUNDS:-5}
gen=../ima-audit/gen/imagen.py
d=$B/bench
mkdir -p "$d"
if [ ! -s "$d/full-$N.ima" ]; then
	python3 $gen --out "$d/plus-$N.ima" --count $((N + NEW)) --template ima-sig \
		--sign rsa --keydir "$d/keys" --seed bench --pcr-out "$d/plus-$N.pcrs"
	# the list as verified before the round: boot_aggregate and N entries
	python3 bench/prefix.py "$d/plus-$N.ima" "$d/plus-$N.pcrs" $((N + 1)) \
		"$d/full-$N.ima" "$d/full-$N.pcrs"
fi
cert=$d/keys/cert.der
echo "# $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1 /proc/loadavg), $N entries + $NEW"
"$B/bench_poll" "$d/full-$N.ima" "$d/full-$N.pcrs" "$d/plus-$N.ima" "$d/plus-$N.pcrs" "$cert" "$ROUNDS"
t0=$(date +%s%N)
../ima-audit/build/ima-audit --pcrs "$d/full-$N.pcrs" --key "$cert" "$d/full-$N.ima" >/dev/null
t1=$(date +%s%N)
echo "ima-audit full audit of the $N-entry list (same key and PCRs, its default threads): $(( (t1 - t0) / 1000000 )) ms"
