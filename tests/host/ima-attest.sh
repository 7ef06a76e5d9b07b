#!/usr/bin/env bash
# Host test: tools/ima-attest's own suite (cmocka unit tests and the command
# under ASan/UBSan, the real SeaBIOS log against tpm2_eventlog's replay, a
# libFuzzer pass per parser). No kernel, no TPM.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
exec make -s -C "$TOP/tools/ima-attest" check
