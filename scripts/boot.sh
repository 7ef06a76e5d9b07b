#!/usr/bin/env bash
# Stage boot: the guest under QEMU (TCG) with a fresh swtpm.
# Usage:   boot.sh check|shell [RUN_NAME]
# Inputs:  the kernel out/ (kernel-build.sh), build/<variant>/rootfs.img
#          (image.sh); KVARIANT, KCMDLINE_EXTRA (appended to the kernel
#          command line), IMA_STACK_TESTS (glob of guest tests, default all),
#          IMA_STACK_NONCE, BOOT_TIMEOUT (seconds, default 900),
#          IMA_STACK_ATTEST (1: enroll the guest's TPM over the attestation
#          channel; default 1 when IMA_STACK_NONCE is set, else 0),
#          IMA_STACK_RESTART (1: a guest reboot restarts the machine, the
#          same TPM and disks, instead of ending QEMU; make attest's
#          reboot round),
#          IMA_STACK_BOOT_ID (the name of this boot in the verifier's
#          verdict, "boot: ID"; default a random one, kept in
#          run/<run>/boot-id).
# Outputs: build/<variant>/results/<run>/ (the guest's TAP, measurement list,
#          PCRs), build/logs/console-<variant>-<run>.log; with
#          IMA_STACK_ATTEST=1 also results/<run>/verifier/ (the host
#          verifier's enrollment verdict and the AK it trusts, written by the
#          host only: the guest's tar stream cannot put files there).
# The root image is attached with snapshot=on: every boot starts from the same
# bytes. Results come back on a second virtio disk, never on the console.
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 qemu-system-x86
need swtpm swtpm
need swtpm_setup swtpm-tools

mode=${1:-check}
run_name=${2:-$mode}
variant=$(stage_variant)
kdir=$CACHE/kernel/$variant
vdir=$(variant_dir "$variant")
img=$vdir/rootfs$IMAGE_TAG.img
timeout_s=${BOOT_TIMEOUT:-900}
[ -f "$kdir/out/bzImage" ] || die "no $variant kernel: run \`make kernel\` first"
[ -f "$img" ] || die "no $variant image: run \`make image\` first"

rdir=$(results_dir "$vdir" "$run_name")
work=$vdir/run/$run_name
console=$(console_log "$variant" "$run_name")
rm -rf "$rdir" "$work"
mkdir -p "$rdir" "$work/tpm"

attest=${IMA_STACK_ATTEST:-$([ -n "${IMA_STACK_NONCE:-}" ] && echo 1 || echo 0)}
boot_id=${IMA_STACK_BOOT_ID:-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')}
echo "$boot_id" >"$work/boot-id"
tpmca=$CACHE/tpm-ca
[ -s "$tpmca/swtpm_setup.conf" ] || die "no TPM manufacturer CA in $tpmca: run \`make keys\`"

# 1. a fresh TPM: both PCR banks, state in a new directory, a unix socket;
#    its EK certificate (NV 0x01c00002) issued by the manufacturer CA
tpmlog=$work/swtpm.log
run swtpm_setup --tpm2 --tpmstate "$work/tpm" --pcr-banks sha1,sha256 \
	--config "$tpmca/swtpm_setup.conf" --create-ek-cert --create-platform-cert \
	--overwrite >"$work/swtpm_setup.log" 2>&1 ||
	die "swtpm_setup failed: see $work/swtpm_setup.log"
sock=$work/swtpm.sock
run swtpm socket --tpm2 --tpmstate dir="$work/tpm" --ctrl type=unixio,path="$sock" \
	--log file="$tpmlog",level=1 --terminate &
tpm_pid=$!
qemu_pid=
verifier_pid=
cleanup() {
	if [ -n "$qemu_pid" ]; then kill "$qemu_pid" 2>/dev/null || true; fi
	if [ -n "$verifier_pid" ]; then kill "$verifier_pid" 2>/dev/null || true; fi
	kill "$tpm_pid" 2>/dev/null || true
	wait 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do
	[ -S "$sock" ] && break
	kill -0 "$tpm_pid" 2>/dev/null || die "swtpm exited at start: see $tpmlog"
	sleep 0.1
done
[ -S "$sock" ] || die "swtpm did not create $sock within 10 s: see $tpmlog"

# 2. the results disk: zeros, so the guest's tar stream ends cleanly
truncate -s 0 "$work/results.img"
truncate -s 256M "$work/results.img"

cmdline="console=ttyS0 root=/dev/vda rw rootfstype=ext4 init=/opt/ima-stack/init"
# the built-in policy, unless the boot's extra options name their own (the
# kernel ORs every ima_policy= it is given: secure_boot could not be undone)
builtin=" ima_policy=tcb|secure_boot"
case " ${KCMDLINE_EXTRA:-} " in *" ima_policy="*) builtin= ;; esac
cmdline+=" panic=-1 oops=panic$builtin ima_appraise=enforce"
cmdline+=" ima_stack.mode=$mode ima_stack.tests=${IMA_STACK_TESTS:-*}"
[ -n "${IMA_STACK_NONCE:-}" ] && cmdline+=" ima_stack.nonce=$IMA_STACK_NONCE"
[ "$attest" = 1 ] && cmdline+=" ima_stack.attest=1"
[ -n "${KCMDLINE_EXTRA:-}" ] && cmdline+=" $KCMDLINE_EXTRA"

# shellcheck disable=SC2054 # the commas are QEMU option syntax
qemu=(qemu-system-x86_64 -accel tcg -machine q35 -cpu max -smp 2 -m 1536
	-nographic -monitor none
	-kernel "$kdir/out/bzImage" -append "$cmdline"
	-drive file="$img",if=virtio,format=raw,snapshot=on
	-drive file="$work/results.img",if=virtio,format=raw
	-chardev socket,id=chrtpm,path="$sock"
	-tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0
	-device virtio-rng-pci
	-device virtio-serial-pci,id=vser0
	-chardev socket,id=chrattest,path="$work/attest.sock",server=on,wait=off
	-device virtserialport,bus=vser0.0,chardev=chrattest,name=org.ima-stack.attest)
# a reboot (or a panic: panic=-1) ends the run, unless a round reboots on
# purpose (the crash detector still reads the whole console afterwards)
[ "${IMA_STACK_RESTART:-0}" = 1 ] || qemu+=(-no-reboot)
if [ "$attest" = 1 ]; then
	make -s -C "$TOP/tools/ima-attest" >&2 || die "cannot build tools/ima-attest"
fi

start=$(date +%s)
if [ "$mode" = shell ]; then
	log "+ ${qemu[*]} -serial mon:stdio"
	"${qemu[@]}" -serial mon:stdio
	exit 0
fi
log "booting $variant kernel ($mode), timeout ${timeout_s}s; console: $console"
log "+ ${qemu[*]} -serial file:$console"
"${qemu[@]}" -serial file:"$console" >"$work/qemu.log" 2>&1 &
qemu_pid=$!
# the host verifier on the attestation channel (QEMU's end of the guest's
# virtio-serial port): enrollment while the guest runs
if [ "$attest" = 1 ]; then
	"$TOP/tools/ima-attest/build/ima-attest" enroll --channel "$work/attest.sock" \
		--ca "$BUILD/keys/tpm-ca.pem" --ca-chain "$BUILD/keys/tpm-ca-chain.pem" \
		--out "$work/verifier" --timeout "$timeout_s" --boot "$boot_id" \
		>"$work/verifier.log" 2>&1 &
	verifier_pid=$!
fi
timed_out=0
while kill -0 "$qemu_pid" 2>/dev/null; do
	if [ $(($(date +%s) - start)) -ge "$timeout_s" ]; then
		kill "$qemu_pid" 2>/dev/null || true
		timed_out=1
		break
	fi
	sleep 1
done
wait "$qemu_pid" && qrc=0 || qrc=$?
qemu_pid=
secs=$(($(date +%s) - start))

vrc=0
if [ -n "$verifier_pid" ]; then
	# the guest is gone: a verifier still waiting for it has nothing to wait for
	for _ in $(seq 50); do kill -0 "$verifier_pid" 2>/dev/null || break; sleep 0.1; done
	kill "$verifier_pid" 2>/dev/null || true
	wait "$verifier_pid" || vrc=$?
	verifier_pid=
fi

# Whatever the guest sent, even before a crash, is kept for the report.
tar -xf "$work/results.img" -C "$rdir" 2>/dev/null || true
# the verifier's records replace anything of that name the guest sent
rm -rf "$rdir/verifier"
if [ "$attest" = 1 ]; then
	mkdir -p "$work/verifier"
	cp "$work/verifier.log" "$work/verifier/log"
	echo "$vrc" >"$work/verifier/exit"
	cp -r "$work/verifier" "$rdir/verifier"
	log "host verifier: $(head -n 1 "$work/verifier.log" 2>/dev/null) (exit $vrc)"
fi
running=$(cat "$rdir/running" 2>/dev/null || echo "boot or init")
if console_errors "$console" >"$work/kernel-errors"; then
	head -n 3 "$work/kernel-errors" >"$rdir/kernel-error"
	head -n 5 "$work/kernel-errors" >&2
	tail -n 25 "$console" >&2
	die "the guest kernel oopsed or panicked during $running (console tail above; full log $console)"
fi
if [ "$timed_out" = 1 ]; then
	echo "timeout during $running" >"$rdir/kernel-error"
	tail -n 30 "$console" >&2
	die "QEMU timed out after ${timeout_s}s during $running (console tail above; full log $console): look for a hang in the guest or raise BOOT_TIMEOUT"
fi
[ "$qrc" = 0 ] || die "qemu exited with status $qrc after ${secs}s: see $work/qemu.log and $console"
[ -f "$rdir/complete" ] ||
	die "the guest's results are incomplete (last test: $running); console tail: $(tail -n 5 "$console" | tr '\n' '|')"
echo "$secs" >"$rdir/boot-seconds"
# the fixtures' manifests of the image that booted, from the host's signed
# tree (never the guest's word): the host audit's expectations
rm -rf "$rdir/fixtures"
cp -r "$vdir/signed$IMAGE_TAG/opt/ima-stack/fixtures" "$rdir/fixtures"
# the kernel has no /proc/config.gz: keep its config beside the results
cp "$kdir/out/config" "$rdir/kernel-config"
log "guest done in ${secs}s; results in $rdir"
