#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A man in the middle of the attestation channel, for host tests.

    mitm.py SOCKET MODE STATE -- AGENT ARGS...

Listens on the unix socket SOCKET (ima-attest enroll connects to it, as it
does to QEMU's virtio-serial chardev), runs the guest agent with its
stdin/stdout as the other end, and relays lines, changing them as MODE says:

  none            relay unchanged; the activated secret is saved in
                  STATE/secret (a later run replays it)
  ekcert-other    the EK certificate of another TPM (STATE/other-ekcert.hex),
                  certified by another CA
  ekpub-other     the EK public area of another TPM (STATE/other-ekpub.hex):
                  not the certified key
  ak-software     a software RSA key's TPMT_PUBLIC with every AK attribute
                  claimed, and its correctly computed name
  ak-unrestricted the real AK's public area without the restricted bit,
                  name recomputed (only the attribute check can catch it)
  akname-wrong    the real AK public area, one byte of its name flipped
  answer-wrong    one byte of the activated secret flipped
  answer-replay   the secret saved by an earlier "none" run instead of this one

Each mode is one attacker's edit; the reason the verifier must give is in
the test (tests/host/attest-enroll.sh), from how the edit was made.
"""
import hashlib
import os
import socket
import subprocess
import sys


def software_ak():
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    n = key.public_key().public_numbers().n.to_bytes(256, "big")
    # RSA, sha256 name, fixedTPM|fixedParent|sensitiveDataOrigin|
    # userWithAuth|restricted|sign, no policy, no symmetric, RSASSA-sha256
    area = (bytes.fromhex("0001000b00050072" "0000" "0010" "0014000b"
                          "0800" "00000000" "0100") + n)
    return area


def name_of(area):
    return b"\x00\x0b" + hashlib.sha256(area).digest()


def fields(line):
    verb, *rest = line.split(" ")
    return verb, dict(w.split("=", 1) for w in rest if "=" in w)


def build(verb, f):
    return " ".join([verb] + [f"{k}={v}" for k, v in f.items()])


def to_agent(line, mode, state):
    return line


def from_agent(line, mode, state):
    verb, f = fields(line)
    if verb == "ENROLL":
        if mode == "ekcert-other":
            f["ekcert"] = open(os.path.join(state, "other-ekcert.hex")).read().strip()
        elif mode == "ekpub-other":
            f["ekpub"] = open(os.path.join(state, "other-ekpub.hex")).read().strip()
        elif mode == "ak-software":
            area = software_ak()
            f["akpub"] = (len(area).to_bytes(2, "big") + area).hex()
            f["akname"] = name_of(area).hex()
        elif mode == "ak-unrestricted":
            pub = bytearray(bytes.fromhex(f["akpub"]))
            # TPM2B size(2) type(2) nameAlg(2) objectAttributes(4): bit 16
            attrs = int.from_bytes(pub[6:10], "big") & ~(1 << 16)
            pub[6:10] = attrs.to_bytes(4, "big")
            f["akpub"] = pub.hex()
            f["akname"] = name_of(bytes(pub[2:])).hex()
        elif mode == "akname-wrong":
            name = bytearray(bytes.fromhex(f["akname"]))
            name[-1] ^= 1
            f["akname"] = name.hex()
    elif verb == "ACTIVATED":
        if mode == "none":
            with open(os.path.join(state, "secret"), "w") as o:
                o.write(f["secret"])
        elif mode == "answer-wrong":
            s = bytearray(bytes.fromhex(f["secret"]))
            s[0] ^= 1
            f["secret"] = s.hex()
        elif mode == "answer-replay":
            f["secret"] = open(os.path.join(state, "secret")).read().strip()
    return build(verb, f)


def main():
    sock_path, mode, state = sys.argv[1:4]
    assert sys.argv[4] == "--"
    agent = sys.argv[5:]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(sock_path)
    srv.listen(1)
    srv.settimeout(120)
    conn, _ = srv.accept()
    conn.settimeout(120)
    p = subprocess.Popen(agent, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    host = conn.makefile("rwb")
    for raw in host:
        line = raw.decode().rstrip("\n")
        p.stdin.write((to_agent(line, mode, state) + "\n").encode())
        p.stdin.flush()
        if line.startswith("RESULT"):
            break
        reply = p.stdout.readline().decode().rstrip("\n")
        if not reply:
            break
        host.write((from_agent(reply, mode, state) + "\n").encode())
        host.flush()
    p.stdin.close()
    p.wait(timeout=60)
    conn.close()
    srv.close()


if __name__ == "__main__":
    main()
