#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Firmware logs and IMA lists from public test suites, with what each
source ships as their expected values.

    mkpublic.py ATTEST_OUT AUDIT_OUT KEY=GITDIR...

KEY is one of the repositories below (tpm2-tools, go-attestation,
tpm2-tss, keylime, ima-evm-utils); GITDIR a clone of it holding the
commit named here (files are read with `git show COMMIT:PATH`, so the
checkout does not matter). Writes:

  ATTEST_OUT/NAME.log, NAME.expect   firmware logs for `ima-attest
                                     eventlog` (tests/run-public.py)
  AUDIT_OUT/NAME.*, NAME.args/.expect  IMA lists as tests/run-cases.py
                                     cases
  */SOURCES                          repository, path, commit, licence,
                                     what was shipped, per file
  */LICENSES/KEY                     each source's licence text

Every expected value comes from the source: a value its test suite
asserts or its expected-output file holds, the outcome its test expects
(parses, is refused), or the values a machine's TPM gave beside the log.
Where our verdict differs from the source's on purpose (a log the PC
Client spec forbids, which the source accepts), the .expect says so in
its first line. A value that only our tools compute is never written.
PCR values given to ima-audit for ima-evm-utils' lists are replayed here
from the firmware log shipped with them, by the small replay below (not
ima-attest's), and checked against the sha1 PCRs the source shipped.
"""
import base64
import hashlib
import json
import os
import re
import struct
import subprocess
import sys

REPOS = {
    "tpm2-tools": ("tpm2-software/tpm2-tools",
                   "bc25f7149372002d4d595195b2d09a1a6d18bca1",
                   "BSD-3-Clause", "docs/LICENSE"),
    "go-attestation": ("google/go-attestation",
                       "01dcb11195918a758686759782b6aeb7e5e659bf",
                       "Apache-2.0", "LICENSE"),
    "go-attestation-2019": ("google/go-attestation",
                            "9bda32d902ba9c10adae43685bfb05c139e1f4c8",
                            "Apache-2.0", "LICENSE"),
    "tpm2-tss": ("tpm2-software/tpm2-tss",
                 "506c5e6db0c8514f321dc16a0da2580483f3df04",
                 "BSD-2-Clause", "LICENSE"),
    "keylime": ("keylime/keylime",
                "9b1f6e6a917f86c792bac680ea7d36312d5914a5",
                "Apache-2.0", "LICENSE"),
    "ima-evm-utils": ("linux-integrity/ima-evm-utils",
                      "dc5969360a0439d225a0df386aeb2f4ab9f0661a",
                      "GPL-2.0-only", "COPYING"),
}

attest_out, audit_out = sys.argv[1], sys.argv[2]
gitdirs = dict(a.split("=", 1) for a in sys.argv[3:])
sources = {attest_out: [], audit_out: []}


def show(key, path):
    repo_key = "go-attestation" if key == "go-attestation-2019" else key
    commit = REPOS[key][1]
    return subprocess.run(["git", "-C", gitdirs[repo_key], "show",
                           "%s:%s" % (commit, path)], check=True,
                          capture_output=True).stdout


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def record(d, name, key, path, shipped):
    repo, commit, lic, _ = REPOS[key]
    sources[d].append((name, repo, path, commit[:12], lic, shipped))


# --- firmware logs -----------------------------------------------------

def yaml_pcrs(text):
    """tpm2_eventlog's "pcrs:" section: {bank: {pcr: hex}}"""
    out, bank, on = {}, None, False
    for line in text.splitlines():
        if line.startswith("pcrs:"):
            on = True
            continue
        if not on:
            continue
        m = re.match(r"^  (\w+):\s*$", line)
        if m:
            bank = m.group(1)
            continue
        m = re.match(r"^    (\d+)\s*: 0x([0-9a-fA-F]+)", line)
        if m and bank:
            out.setdefault(bank, {})[int(m.group(1))] = m.group(2).lower()
    return out


def firmware(name, key, path, data, outcome, shipped_what, pcrs=None,
             note=None, fmt=None):
    write(attest_out, name + ".log", data)
    lines = ["# %s" % (note or shipped_what)]
    lines.append("parse " + outcome)
    if fmt:
        lines.append("format " + fmt)
    for bank in sorted(pcrs or {}):
        for p in sorted(pcrs[bank]):
            lines.append("pcr %s:%d %s" % (bank, p, pcrs[bank][p]))
    write(attest_out, name + ".expect", "\n".join(lines) + "\n")
    record(attest_out, name + ".log", key, path, shipped_what)


FW_REFUSED = {
    # the Spec ID lists 4 banks, the events carry 2 digests: the PC
    # Client spec requires one per bank (tpm2_eventlog accepts it)
    "event-uefiaction": "refused has no sha384, sha512 digest",
    "event-uefivar": "refused has no sha384, sha512 digest",
    # vendorInfoSize 4 with the Spec ID event 37 bytes long: the vendor
    # info runs 4 bytes past the event (tpm2_eventlog reads on)
    "specid-vendordata": "refused vendor info (4 bytes) does not end the event",
}

if "tpm2-tools" in gitdirs:
    for f in ("event-arch-linux", "event-bootorder",
              "event-gce-ubuntu-2104-log", "event-moklisttrusted",
              "event-postcode", "event-sd-boot-fedora37",
              "event-uefi-sha1-log", "event-uefiaction",
              "event-uefiservices", "event-uefivar", "event",
              "specid-vendordata"):
        base = "test/integration/fixtures/"
        try:
            y = show("tpm2-tools", base + f + ".bin.yaml").decode()
            ypath = base + f + ".bin.yaml"
        except subprocess.CalledProcessError:
            ypath = base + "event-pretty/" + f + ".bin.yaml"
            y = show("tpm2-tools", ypath).decode()
        pcrs = yaml_pcrs(y)
        refused = FW_REFUSED.get(f)
        firmware("tpm2-tools-" + f, "tpm2-tools", base + f + ".bin",
                 show("tpm2-tools", base + f + ".bin"),
                 refused or "ok",
                 "tpm2_eventlog's expected output %s (%d PCR values)" %
                 (ypath, sum(len(v) for v in pcrs.values())),
                 pcrs=None if refused else pcrs,
                 note=("the source expects tpm2_eventlog to accept it; "
                       "refused here on purpose: " + refused[8:])
                 if refused else None,
                 fmt="sha1" if f == "event-uefi-sha1-log" else None)


def replay_sha1(log):
    """PCRs 0-23 of a SHA1-format (TCG 1.2) log, replayed here"""
    pcr, off = [b"\0" * 20 for _ in range(24)], 0
    while off < len(log):
        idx, typ = struct.unpack_from("<II", log, off)
        d = log[off + 8:off + 28]
        size = struct.unpack_from("<I", log, off + 28)[0]
        off += 32 + size
        if typ != 3:
            pcr[idx] = hashlib.sha1(pcr[idx] + d).digest()
    return pcr


def go_pcrs(items, only=None):
    """go-attestation PCR lists: DigestAlg 3 is crypto.SHA1, 5 SHA256"""
    out = {}
    for p in items:
        bank = {3: "sha1", 5: "sha256"}[p["DigestAlg"]]
        if only is None or p["Index"] in only:
            out.setdefault(bank, {})[p["Index"]] = \
                base64.b64decode(p["Digest"]).hex()
    return out


if "go-attestation" in gitdirs:
    td = "attest/testdata/"
    # attest/secureboot_test.go TestSecureBootOptionRom: sha1 PCRs 0-7
    rom = ["AVGK7ch6DvUF0nJh74NYCefaAIY=", "vr/0wIpmd0c6tgTO3vuC+FDN6IM=",
           "NmoxoMB1No8OEIVzM+ou1uigD9M=", "sqg7Dr8vg3Qpmlsr38MeqVWtcjY=",
           "OfOIw5WekEaUcm9MAVttzq4GgKE=", "cjoFIM9/KXhUh0K9FUFwayRGRZ4=",
           "sqg7Dr8vg3Qpmlsr38MeqVWtcjY=", "IN59+6a838ytrX4+sJnJHU2Xxa0="]
    src = show("go-attestation", "attest/secureboot_test.go").decode()
    assert all(b in src for b in rom), "secureboot_test.go changed"
    firmware("go-attestation-option_rom_eventlog", "go-attestation",
             td + "option_rom_eventlog",
             show("go-attestation", td + "option_rom_eventlog"), "ok",
             "sha1 PCRs 0-7 in attest/secureboot_test.go "
             "(TestSecureBootOptionRom)",
             pcrs={"sha1": {i: base64.b64decode(b).hex()
                            for i, b in enumerate(rom)}}, fmt="sha1")
    # attest/eventlog_test.go TestEBSVerifyWorkaround: sha1 PCR 5
    evt = show("go-attestation", "attest/eventlog_test.go").decode()
    body = evt[evt.index("func TestEBSVerifyWorkaround"):]
    ebs = bytes(int(x, 16) for x in re.findall(
        r"0x([0-9a-f]{2})", re.search(r"Digest: \[\]byte\{([^}]*)\}",
                                      body).group(1))).hex()
    assert len(ebs) == 40 and "crypto.SHA1" in body[:600]
    # the firmware did not log the two ExitBootServices() events it
    # extended into PCR 5; go-attestation's Verify appends them. The log
    # replays to the TPM's value only with them: its own PCR 5 is
    # expected here, checked to be the TPM's less those two events
    log = show("go-attestation", td + "ebs_event_missing_eventlog")
    pcr5 = replay_sha1(log)[5]
    tpm = pcr5
    for ev in (b"Exit Boot Services Invocation",
               b"Exit Boot Services Returned with Success"):
        tpm = hashlib.sha1(tpm + hashlib.sha1(ev).digest()).digest()
    assert tpm.hex() == ebs
    firmware("go-attestation-ebs_event_missing_eventlog", "go-attestation",
             td + "ebs_event_missing_eventlog", log, "ok",
             "the TPM's sha1 PCR 5 in attest/eventlog_test.go "
             "(TestEBSVerifyWorkaround)", pcrs={"sha1": {5: pcr5.hex()}},
             fmt="sha1",
             note="the TPM's sha1 PCR 5 is %s (attest/eventlog_test.go, "
             "TestEBSVerifyWorkaround): the log lacks the two "
             "ExitBootServices events that take its own %s there, which "
             "go-attestation appends; a verifier must not" %
             (ebs, pcr5.hex()))
    for f in ("crypto_agile_eventlog", "sb_cert_eventlog",
              "short_no_action_eventlog",
              "ubuntu_2104_shielded_vm_no_secure_boot_eventlog",
              "coreos_36_shielded_vm_no_secure_boot_eventlog"):
        firmware("go-attestation-" + f, "go-attestation", td + f,
                 show("go-attestation", td + f), "ok",
                 "its test expects ParseEventLog to accept it",
                 fmt="sha1" if f == "short_no_action_eventlog" else None)
    dump = json.loads(show("go-attestation",
                           td + "windows_gcp_shielded_vm.json"))
    # the TPM's PCRs beside the log; PCRs 0-9 are the firmware's
    firmware("go-attestation-windows_gcp_shielded_vm", "go-attestation",
             td + "windows_gcp_shielded_vm.json (Log.Raw)",
             base64.b64decode(dump["Log"]["Raw"]), "ok",
             "the TPM's sha1 PCRs 0-9 beside it (Log.PCRs); "
             "TestEventLog verifies the log against them",
             pcrs=go_pcrs(dump["Log"]["PCRs"], range(10)))

if "go-attestation" in gitdirs:
    # dropped with TPM 1.2 support in 2023: taken from the commit before
    dump = json.loads(show("go-attestation-2019",
                           "attest/testdata/linux_tpm12.json"))
    firmware("go-attestation-linux_tpm12", "go-attestation-2019",
             "attest/testdata/linux_tpm12.json (Log.Raw)",
             base64.b64decode(dump["Log"]["Raw"]), "ok",
             "a TPM 1.2 machine's sha1 PCRs 0-9 beside it (Log.PCRs)",
             pcrs=go_pcrs(dump["Log"]["PCRs"], range(10)), fmt="sha1")

if "tpm2-tss" in gitdirs:
    ed = "test/data/fapi/eventlog/"
    unit = show("tpm2-tss", "test/unit/fapi-eventlog.c").decode()
    pcr0 = bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", re.search(
        r"expected_pcr0 = \{.*?\.buffer = \{([^}]*)\}", unit, re.S)
        .group(1))).hex()
    assert len(pcr0) == 40
    firmware("tpm2-tss-binary_measurements_hcrtm", "tpm2-tss",
             ed + "binary_measurements_hcrtm.b64",
             base64.b64decode(show("tpm2-tss", ed +
                                   "binary_measurements_hcrtm.b64")),
             "ok", "sha1 PCR 0 of the machine with an H-CRTM, in "
             "test/unit/fapi-eventlog.c (check_eventlog_pcr0)",
             pcrs={"sha1": {0: pcr0}})
    for f in ("binary_measurements_nuc", "binary_measurements_pc_client"):
        firmware("tpm2-tss-" + f, "tpm2-tss", ed + f + ".b64",
                 base64.b64decode(show("tpm2-tss", ed + f + ".b64")), "ok",
                 "test/unit/fapi-eventlog.c reads it with every digest "
                 "checked", fmt="sha1" if f.endswith("nuc") else None)

if "keylime" in gitdirs:
    mb = "test/data/create-mb-policy/"
    for f, outcome in (("binary_bios_measurements", "ok"),
                       ("binary_bios_measurements-secureboot", "ok"),
                       ("binary_bios_measurements-bogus",
                        "refused beyond the end of the log"),
                       ("binary_bios_measurements-empty",
                        "refused empty log")):
        firmware("keylime-" + f, "keylime", mb + f, show("keylime", mb + f),
                 outcome, "test/test_create_mb_policy.py expects it %s" %
                 ("valid" if outcome == "ok" else "invalid"))
    firmware("keylime-mb_log", "keylime", "test/data/mb_log.b64",
             base64.b64decode(b"".join(show(
                 "keylime", "test/data/mb_log.b64").split())), "ok",
             "test/test_mba_parsing.py expects it to parse")


# --- a crypto-agile replay of our own, for ima-evm-utils' pairs ---------

ALGS = {4: ("sha1", 20), 11: ("sha256", 32), 12: ("sha384", 48),
        13: ("sha512", 64)}


def replay(log):
    """{bank: [PCR 0..23]} of a crypto-agile log with known banks only"""
    size = struct.unpack_from("<I", log, 28)[0]
    spec = log[32:32 + size]
    n = struct.unpack_from("<I", spec, 24)[0]
    banks = [struct.unpack_from("<HH", spec, 28 + 4 * i) for i in range(n)]
    pcr = {ALGS[a][0]: [b"\0" * s for _ in range(24)] for a, s in banks}
    off = 32 + size
    while off < len(log):
        idx, typ, cnt = struct.unpack_from("<III", log, off)
        off += 12
        digs = {}
        for _ in range(cnt):
            a = struct.unpack_from("<H", log, off)[0]
            name, s = ALGS[a]
            digs[name] = log[off + 2:off + 2 + s]
            off += 2 + s
        esize = struct.unpack_from("<I", log, off)[0]
        event = log[off + 4:off + 4 + esize]
        off += 4 + esize
        if typ == 3:
            if event[:16] == b"StartupLocality\0" and idx == 0:
                for name in pcr:
                    pcr[name][0] = pcr[name][0][:-1] + event[16:17]
            continue
        for name, d in digs.items():
            pcr[name][idx] = hashlib.new(name, pcr[name][idx] + d).digest()
    return pcr


def case(name, key, path, files, args, exit_, shipped, fails=(), has=(),
         lacks=(), reason=None):
    for fname, data in files:
        write(audit_out, fname, data)
    write(audit_out, name + ".args", " ".join(args) + "\n")
    lines = ["# %s" % (reason or shipped), "exit %d" % exit_]
    lines += ["fail %s %s" % f for f in fails]
    lines += ["stdout-has %s" % h for h in has]
    lines += ["stdout-lacks %s" % h for h in lacks]
    write(audit_out, name + ".expect", "\n".join(lines) + "\n")
    record(audit_out, files[0][0], key, path, shipped)


if "ima-evm-utils" in gitdirs:
    t = "tests/"
    # a TPM initialized by walking the sample log, read with tsspcrread:
    # its sha1 PCRs 0-9 check the replay above before it is used
    shipped = {}
    for line in show("ima-evm-utils",
                     t + "sample-tpm-2.0-pcrs-8-9").decode().splitlines():
        m = re.match(r"^(\d+): ([0-9a-f]{40})$", line)
        if m and int(m.group(1)) < 10:
            shipped[int(m.group(1))] = m.group(2)
    for stem, ascii_, what in (
            ("sample-binary_bios_measurements-pcrs-8-9",
             "sample-ascii_runtime_measurements-pcrs-8-9",
             "boot_aggregate over PCRs 0-9"),
            ("test_binary_bios_measurements",
             "test_ascii_runtime_measurements",
             "boot_aggregate over PCRs 0-7 (before Linux 5.8)")):
        log = show("ima-evm-utils", t + stem)
        vals = replay(log)
        if stem.startswith("sample"):
            assert all(vals["sha1"][i].hex() == v
                       for i, v in shipped.items()), "replay != shipped"
            firmware("ima-evm-utils-" + stem, "ima-evm-utils", t + stem,
                     log, "ok", "sha1 PCRs 0-9 of a TPM that walked it, "
                     "tests/sample-tpm-2.0-pcrs-8-9",
                     pcrs={"sha1": shipped})
        else:
            firmware("ima-evm-utils-" + stem, "ima-evm-utils", t + stem,
                     log, "ok", "shipped with its IMA list (commit "
                     "c5732b6, 'tests: verify boot_aggregate')")
        lst = show("ima-evm-utils", t + ascii_)
        agg = bytes.fromhex(lst.split()[3].split(b":")[1].decode())
        pre = hashlib.sha256(b"".join(vals["sha256"][:8])).digest() == agg
        cur = hashlib.sha256(b"".join(vals["sha256"][:10])).digest() == agg
        assert pre != cur, "the pair fits neither or both definitions"
        pcrs = "".join("sha256:%d %s\n" % (i, vals["sha256"][i].hex())
                       for i in range(10))
        name = "ima-evm-utils-" + ascii_
        note = "the list shipped with %s: its %s" % (stem, what)
        case(name, "ima-evm-utils", t + ascii_,
             [(name, lst), (name + ".pcrs", pcrs)],
             ["--pcrs", name + ".pcrs", "--ignore-pcr", "10", name], 0,
             note, has=["template hash:  %d checked, 0 failed" %
                        len(lst.splitlines())] +
             (["the definition before Linux 5.8"] if pre else []),
             lacks=[] if pre else ["the definition before Linux 5.8"])

if "tpm2-tss" in gitdirs:
    ed = "test/data/fapi/eventlog/"
    unit = show("tpm2-tss", "test/unit/fapi-ima-eventlog.c").decode()
    for f, n, tail in (("sml-ima-ng-sha1", 6, 1), ("sml-ima-sha1", 12, 1),
                       ("sml-ima-sig-sha256", 9, 6)):
        data = base64.b64decode(show("tpm2-tss", ed + f + ".b64"))
        assert re.search(r'/%s\.bin", \w+, %d\)' % (re.escape(f), n), unit)
        name = "tpm2-tss-" + f
        case(name, "tpm2-tss", ed + f + ".b64", [(name + ".bin", data)],
             ["--ignore-pcr", "10", name + ".bin"], 3,
             "%d events, each template digest checked, in "
             "test/unit/fapi-ima-eventlog.c" % n,
             has=["entries:        %d" % n,
                  "template hash:  %d checked, 0 failed" % n,
                  "truncated record header (%d of 28 bytes)" % tail],
             reason="%d events whose template digests verify (what "
             "fapi-ima-eventlog.c checks), then %d byte(s) of no record: "
             "refused as truncated here, ignored by the source" % (n, tail))
    for f, n, checked in (("sml-ima-sha1-invalidated", 1, 0),
                          ("sml-ima-sig-sha256-invalidated", 2, 1)):
        data = base64.b64decode(show("tpm2-tss", ed + f + ".b64"))
        name = "tpm2-tss-" + f
        case(name, "tpm2-tss", ed + f + ".b64", [(name + ".bin", data)],
             ["--ignore-pcr", "10", name + ".bin"], 0,
             "test/unit/fapi-check-ima-log.c reads it with every digest "
             "checked (a violation's all-zero digest is not)",
             has=["entries:        %d" % n,
                  "template hash:  %d checked, 0 failed" % checked])
    f = "sml-ima-ng-sha1-invalidated"
    data = base64.b64decode(show("tpm2-tss", ed + f + ".b64"))
    case("tpm2-tss-" + f, "tpm2-tss", ed + f + ".b64",
         [("tpm2-tss-" + f + ".bin", data)],
         ["--ignore-pcr", "10", "tpm2-tss-" + f + ".bin"], 3,
         "its test is commented out ('TODO check invalidated file')",
         has=["truncated record: template data needs 49 bytes, 48 left"],
         reason="the record's data length says 49 bytes, 48 follow: "
         "refused (the source's own check of it is commented out)")

if "keylime" in gitdirs:
    py = show("keylime", "test/test_ima_verification.py").decode()

    def pystr(var):
        """the string literal assigned to var in the test file"""
        m = re.search(r"^%s(?:: str)? = \(?\n?((?:\s*\"[^\"]*\"\n?)+)\)?"
                      % var, py, re.M)
        return "".join(re.findall(r"\"([^\"]*)\"", m.group(1))) \
            .encode().decode("unicode_escape").encode()

    path = "test/test_ima_verification.py"
    meas, sigs = pystr("MEASUREMENTS"), pystr("SIGNATURES")
    bad, keyring = pystr("BAD_SIGNATURES"), pystr("KEYRINGS") + b"\n"
    # the keys as the test's keyring holds them (IMA_KEYRING_STRING: DER
    # SubjectPublicKeyInfo, key ids 0xf3452d23 and 0x531f4025); its
    # secp256k1.pem is a private key
    ring = json.loads(re.search(r"^IMA_KEYRING_STRING: str = '(.*)'$", py,
                                re.M).group(1))
    assert ring["keyids"] == [0xf3452d23, 0x531f4025]
    rsa, ec = (base64.b64decode(k) for k in ring["pubkeys"])
    policy = re.search(r"RUNTIME_POLICY_TEST: RuntimePolicyType = "
                       r"\{(.*?)\n\}", py, re.S).group(1)
    digests = re.findall(r"\"(/[^\"]+)\": \[\s*\"([0-9a-f]+)\"", policy)
    manifest = "".join("%s  %s\n" % (d, p) for p, d in digests)
    wrong = re.search(r"RUNTIME_POLICY_WRONG: RuntimePolicyType = "
                      r"\{(.*?)\n\}", py, re.S).group(1)
    wmanifest = "".join("%s  %s\n" % (d, p) for p, d in re.findall(
        r"\"(/[^\"]+)\": \[\"([0-9a-f]+)\"", wrong))
    good = sigs.splitlines()[1].split()
    assert bad.split()[1] == good[1] and bad.split()[5] != good[5]
    kl = "keylime-"
    case(kl + "measurements", "keylime", path + " (MEASUREMENTS)",
         [(kl + "measurements.txt", meas),
          (kl + "policy.sha256sum", manifest)],
         ["--ignore-pcr", "10", "--manifest", kl + "policy.sha256sum",
          kl + "measurements.txt"], 0,
         "test_measurment_verification: passes with RUNTIME_POLICY_TEST "
         "(its digests, as sha256sum lines)",
         has=["template hash:  3 checked, 0 failed"])
    case(kl + "measurements-wrong", "keylime", path + " (MEASUREMENTS)",
         [(kl + "measurements.txt", meas),
          (kl + "policy-wrong.sha256sum", wmanifest)],
         ["--ignore-pcr", "10", "--manifest", kl + "policy-wrong.sha256sum",
          kl + "measurements.txt"], 1,
         "test_measurment_verification: fails with RUNTIME_POLICY_WRONG",
         fails=[("1", "manifest-path"), ("2", "manifest-path")])
    case(kl + "signatures", "keylime", path + " (SIGNATURES)",
         [(kl + "signatures.txt", sigs), (kl + "rsa2048.der", rsa),
          (kl + "secp256k1.der", ec)],
         ["--ignore-pcr", "10", "--key", kl + "rsa2048.der", "--key",
          kl + "secp256k1.der", "--require-signatures",
          kl + "signatures.txt"], 0,
         "test_signature_verification: both verify with the RSA and the "
         "secp256k1 key of its keyring",
         has=["signatures:     2 verified, 0 failed"])
    case(kl + "signatures-rsa-only", "keylime", path + " (SIGNATURES)",
         [(kl + "signatures.txt", sigs), (kl + "rsa2048.der", rsa)],
         ["--ignore-pcr", "10", "--key", kl + "rsa2048.der",
          kl + "signatures.txt"], 1,
         "test_signature_verification: with the RSA key alone the "
         "second entry fails", fails=[("1", "unknown-key")])
    case(kl + "bad-signature", "keylime", path + " (BAD_SIGNATURES)",
         [(kl + "bad-signature.txt", bad + b"\n" if not bad.endswith(b"\n")
           else bad), (kl + "secp256k1.der", ec)],
         ["--ignore-pcr", "10", "--key", kl + "secp256k1.der",
          kl + "bad-signature.txt"], 1,
         "test_ima_verification: a signature with a bad size must not pass",
         fails=[("0", "signature-malformed"), ("0", "template-hash")],
         reason="SIGNATURES' /usr/bin/zmore line with a signature size "
         "byte changed and its template digest kept: the signature is "
         "malformed, and the template digest is not its data's")
    case(kl + "keyring", "keylime", path + " (KEYRINGS)",
         [(kl + "keyring.txt", keyring)],
         ["--ignore-pcr", "10", kl + "keyring.txt"], 0,
         "test_ima_buf_verification: the .ima key's digest is the "
         "policy's keyrings entry a7d52aaa...",
         has=["template hash:  1 checked, 0 failed"])

for d, rows in sources.items():
    if not rows:
        continue
    lines = ["# Public inputs: file, repository, path, commit, licence, "
             "what the source ships as expected",
             "# (written by tools/ima-audit/gen/mkpublic.py; licences in "
             "LICENSES/)"]
    for r in sorted(rows):
        lines.append("%s\t%s\t%s\t%s\t%s\t%s" % r)
    write(d, "SOURCES", "\n".join(lines) + "\n")
    used = sorted({k for k, (repo, c, lic, f) in REPOS.items()
                   if any(row[1] == repo and row[3] == c[:12]
                          for row in rows)})
    for k in used:
        key = "go-attestation" if k == "go-attestation-2019" else k
        write(os.path.join(d, "LICENSES"), key,
              show(k, REPOS[k][3]))
