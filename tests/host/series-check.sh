#!/usr/bin/env bash
# Host test of scripts/series-check.sh's verdicts, with the kernel stages
# replaced by stubs (no kernel is built): a warning in one prefix's build
# log fails that prefix, a build that wrote no log fails, and objects and a
# stamp left by an earlier run are not taken for this run's build.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"

top=$tmp/top cache=$tmp/cache
mkdir -p "$top/scripts" "$top/tests/lib" "$top/kernel-patches" "$cache/kernel/pristine-tree/scripts"
cp "$TOP"/scripts/{lib.sh,paths.sh,series-check.sh} "$top/scripts/"
cp "$TOP/tests/lib/tap.sh" "$top/tests/lib/"
for p in 0001-a.patch 0002-b.patch 0003-c.patch; do
	echo "$p" >>"$top/kernel-patches/series"
	echo "stub $p" >"$top/kernel-patches/$p"
done
echo 'print "total: 0 errors, 0 warnings, 1 lines checked\n";' >"$cache/kernel/pristine-tree/scripts/checkpatch.pl"
# kernel-source: the series it was given; kernel-build: like the real one,
# "up to date" when out/stamp is there, else a build log (a warning when
# the series has STUB_WARN_AT patches, no log at STUB_NOLOG_AT) and a stamp
cat >"$top/scripts/kernel-source.sh" <<'EOF'
#!/usr/bin/env bash
. "$(dirname "$0")/lib.sh"
mkdir -p "$CACHE/kernel/series-check/src" && cp "$KSERIES" "$CACHE/kernel/series-check/src/series"
EOF
cat >"$top/scripts/kernel-build.sh" <<'EOF'
#!/usr/bin/env bash
. "$(dirname "$0")/lib.sh"
sc=$CACHE/kernel/series-check n=$(wc -l <"$CACHE/kernel/series-check/src/series")
[ ! -f "$sc/out/stamp" ] || { echo "up to date $n" >>"$CACHE/calls"; exit 0; }
echo "build $n $([ -f "$sc/obj/old.o" ] && echo old-objects || echo no-objects)" >>"$CACHE/calls"
mkdir -p "$sc/obj" "$sc/out" && touch "$sc/obj/old.o" "$sc/out/stamp"
[ "$n" = "${STUB_NOLOG_AT:-0}" ] && exit 0
{ echo "  CC      kernel/x$n.o"; [ "$n" != "${STUB_WARN_AT:-0}" ] ||
	echo "security/integrity/ima/ima_x.c:7:6: warning: unused variable 'r' [-Wunused-variable]"; } \
	>"$LOGS/kernel-series-check-build.log"
EOF
chmod +x "$top"/scripts/*.sh

# run [VAR=VALUE...]: series-check in the stub tree; sets $out and $rc
run() {
	rm -f "$cache/calls"
	rc=0
	out=$(env "$@" IMA_STACK_CACHE="$cache" BUILD="$tmp/build" bash "$top/scripts/series-check.sh" 2>"$tmp/err") || rc=$?
}

# an earlier run's objects, stamp and a clean log are left behind
mkdir -p "$cache/kernel/series-check/obj" "$cache/kernel/series-check/out" "$tmp/build/logs"
touch "$cache/kernel/series-check/obj/old.o" "$cache/kernel/series-check/out/stamp"
echo "  CC      stale.o" >"$tmp/build/logs/kernel-series-check-build.log"
run
tap_is "clean logs: exit 0" "$rc" 0
tap_is "clean logs: 3 checkpatch, 3 builds, 3 warning checks, all ok" \
	"$(grep -c '^ok ' <<<"$out"),$(grep -c '^not ok ' <<<"$out" || true)" "9,0"
tap_is "every prefix is built, the first from no objects (the earlier run's stamp and objects not taken)" \
	"$(cat "$cache/calls")" "$(printf 'build 1 no-objects\nbuild 2 old-objects\nbuild 3 old-objects')"
tap_is "each prefix's log is kept" "$(cat "$tmp/build/logs/series-check-prefix-2.log")" "  CC      kernel/x2.o"

run STUB_WARN_AT=2
tap_is "a warning in prefix 2's log: exit non-zero" "$([ "$rc" != 0 ] && echo nonzero)" nonzero
tap_like "... prefix 2's warning check fails, naming the warning" "$out" \
	"^not ok [0-9]+ - patches 1-2 build without a compiler or modpost warning"$'\n'"# .*warning: unused variable"
tap_is "... and only it" "$(grep '^not ok' <<<"$out" | sed 's/^not ok [0-9]* - //')" \
	"patches 1-2 build without a compiler or modpost warning"

run STUB_NOLOG_AT=3
tap_is "a build that wrote no log: exit non-zero" "$([ "$rc" != 0 ] && echo nonzero)" nonzero
tap_like "... its warning check fails, saying so" "$out" \
	"^not ok [0-9]+ - patches 1-3 build without a compiler or modpost warning"$'\n'"# the build wrote no log"
tap_done
