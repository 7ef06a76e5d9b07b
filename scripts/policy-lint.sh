#!/usr/bin/env bash
# policy-lint.sh FILE: check an IMA policy against the rule grammar of the
# 6.1 kernel (security/integrity/ima/ima_policy.c: policy_tokens,
# ima_parse_rule, ima_validate_rule) before it is signed into an image.
# Prints one line per problem, "FILE:LINE: what is wrong", and exits 1 if
# there is any; exit 0 and no output for a policy the kernel would parse.
# The kernel stays the final judge: what this does not model (LSM labels,
# fsuuid forms, per-func flag limits beyond the ones below) it accepts.
set -euo pipefail
[ $# = 1 ] || { echo "usage: policy-lint.sh FILE" >&2; exit 2; }
[ -f "$1" ] && [ -r "$1" ] || { echo "$1: no such readable file" >&2; exit 2; }

LC_ALL=C awk -v file="$1" '
function bad(msg) { printf "%s:%d: %s\n", file, NR, msg; nbad++ }
function isnum(v) { return v ~ /^[0-9]+$/ }
BEGIN {
	split("measure dont_measure appraise dont_appraise audit hash dont_hash", a)
	for (i in a) action[a[i]] = 1
	split("FILE_CHECK PATH_CHECK MODULE_CHECK FIRMWARE_CHECK FILE_MMAP MMAP_CHECK " \
	      "BPRM_CHECK CREDS_CHECK KEXEC_KERNEL_CHECK KEXEC_INITRAMFS_CHECK " \
	      "POLICY_CHECK KEXEC_CMDLINE KEY_CHECK CRITICAL_DATA SETXATTR_CHECK", a)
	for (i in a) funcs[a[i]] = 1
	split("MAY_EXEC MAY_WRITE MAY_READ MAY_APPEND", a)
	for (i in a) masks[a[i]] = 1
	split("imasig sigv3 imasig|modsig", a)
	for (i in a) atypes[a[i]] = 1
	split("uid euid gid egid fowner fgroup", a)
	for (i in a) ids[a[i]] = 1
	split("obj_user obj_role obj_type subj_user subj_role subj_type fsname fsuuid " \
	      "template keyrings label appraise_algos", a)
	for (i in a) strs[a[i]] = 1
	split("md5 sha1 rmd160 sha256 sha384 sha512 sha224 rmd128 rmd256 rmd320 " \
	      "wp256 wp384 wp512 tgr128 tgr160 tgr192 sm3 streebog256 streebog512", a)
	for (i in a) algos[a[i]] = 1
	split("ima ima-ng ima-sig ima-buf ima-modsig ima-ngv2 ima-sigv2 evm-sig", a)
	for (i in a) templates[a[i]] = 1
}
/^[ \t]*$/ || /^#/ { next }
{
	delete seen
	n = split($0, tok, /[ \t]+/)
	first = 1
	act = ""; fn = ""
	for (i = 1; i <= n; i++) {
		t = tok[i]
		if (t == "")
			continue
		if (first) {
			first = 0
			if (!(t in action)) {
				bad("the rule must start with an action (measure, dont_measure, appraise, dont_appraise, audit, hash, dont_hash), not \"" t "\"")
				break
			}
			act = t
			continue
		}
		if (t in action) { bad("a second action \"" t "\" in one rule"); continue }
		if (t == "permit_directio") { key = t; val = "" }
		else if (match(t, /^[a-z_]+(=|<|>)/)) {
			key = substr(t, 1, RLENGTH - 1); op = substr(t, RLENGTH, 1)
			val = substr(t, RLENGTH + 1)
			if (op != "=" && !(key in ids)) { bad("\"" key op "\" compares only uid, euid, gid, egid, fowner, fgroup"); continue }
		} else if (substr(t, 1, 1) == "#") {
			bad("a comment after a rule (\"#\" starts whole-line comments only)"); break
		} else { bad("unknown token \"" t "\" (options are key=value)"); continue }
		if (key in seen) { bad("\"" key "\" given twice"); continue }
		seen[key] = 1
		if (key == "func") {
			if (!(val in funcs)) bad("unknown func=" val)
			fn = val
		} else if (key == "mask") {
			v = val; sub(/^\^/, "", v)
			if (!(v in masks)) bad("unknown mask=" val " (MAY_EXEC, MAY_WRITE, MAY_READ, MAY_APPEND, optionally with ^)")
		} else if (key == "fsmagic") {
			if (val !~ /^(0[xX])?[0-9a-fA-F]+$/) bad("fsmagic=" val " is not a hexadecimal number")
		} else if (key in ids) {
			if (!isnum(val)) bad(key op val ": a decimal id is expected")
		} else if (key == "pcr") {
			if (!isnum(val) || val + 0 > 23) bad("pcr=" val ": a PCR number 0-23 is expected")
			else if (act != "measure") bad("pcr= belongs to a measure rule")
		} else if (key == "appraise_type") {
			if (!(val in atypes)) bad("unknown appraise_type=" val " (imasig, imasig|modsig, sigv3 with digest_type=verity)")
			if (act != "appraise") bad("appraise_type= belongs to an appraise rule")
		} else if (key == "appraise_flag") {
			if (val !~ /blacklist/) bad("unknown appraise_flag=" val " (check_blacklist)")
			if (act != "appraise") bad("appraise_flag= belongs to an appraise rule")
		} else if (key == "digest_type") {
			if (val != "verity") bad("unknown digest_type=" val " (verity)")
		} else if (key == "appraise_algos") {
			m = split(val, al, ",")
			for (j = 1; j <= m; j++) if (!(al[j] in algos)) bad("unknown hash algorithm \"" al[j] "\" in appraise_algos=")
			if (act != "appraise") bad("appraise_algos= belongs to an appraise rule")
		} else if (key == "template") {
			if (!(val in templates)) bad("unknown template=" val)
			if (act != "measure") bad("template= belongs to a measure rule")
		} else if (key in strs) {
			if (val == "") bad(key "= needs a value")
		} else if (key != "permit_directio") {
			bad("unknown option \"" key "\"")
		}
	}
	if (act != "" && ("keyrings" in seen) && fn != "KEY_CHECK") bad("keyrings= needs func=KEY_CHECK")
	if (act != "" && ("label" in seen) && fn != "CRITICAL_DATA") bad("label= needs func=CRITICAL_DATA")
	if (act != "" && act != "measure" && act != "dont_measure" &&
	    (fn == "KEY_CHECK" || fn == "CRITICAL_DATA" || fn == "KEXEC_CMDLINE"))
		bad("func=" fn " takes only measure or dont_measure, not " act)
}
END { exit nbad ? 1 : 0 }
' "$1"
