#!/bin/bash
# The IMA segment's mapping belongs to its kexec image (kernel-patches 0013;
# issue 36, issue 33 item 6). A kernel that copies the measurement list at
# kexec execute maps the loaded image's IMA segment once the image is
# loaded (kimage_map_segment(): a vmap of the segment's source pages, shown
# in /proc/vmallocinfo with that caller). When the image goes, the mapping
# must go with it: 6.12.y's design keeps one global mapping that only the
# next kexec_file_load() replaces, so after an unload it maps pages the
# kernel has freed, and `kexec -e` of a legacy image would write the list
# through it (the kexec-legacy boot runs that). What is counted here is
# the mappings that exist, after each step; the write itself is not needed.
# A kernel that copies at load maps nothing (pristine 6.1: the "loaded"
# checks fail there, the "unloaded" ones pass).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

K=$IMA_STACK/kexec
# maps: the vmap areas kimage_map_segment() made (the caller's symbol needs
# CONFIG_KALLSYMS; /proc/vmallocinfo is root's)
maps() { grep -c ' kimage_map_segment+' /proc/vmallocinfo || true; }
loaded() { cat /sys/kernel/kexec_loaded; }
load() { kcall kexec_file_load "$K/bzImage" - "console=ttyS0 ima-stack-kexec-mapping=$1"; }

[ -r /proc/vmallocinfo ] || tap_bail "/proc/vmallocinfo cannot be read"
kcall kexec_file_unload >/dev/null || true
tap_is "nothing loaded, no segment mapped" "$(loaded) $(maps)" "0 0"

tap_errno "kexec_file_load of image A" OK load a
tap_is "A loaded: its IMA segment is mapped, once" "$(loaded) $(maps)" "1 1"
tap_errno "kexec_file_load unload of A" OK kcall kexec_file_unload
tap_is "A unloaded (its pages freed): no mapping of its segment remains" "$(loaded) $(maps)" "0 0"

tap_errno "kexec_file_load of image B" OK load b
tap_errno "kexec_file_load of image C, replacing B" OK load c
tap_is "C replaced B: one mapping, C's" "$(loaded) $(maps)" "1 1"
tap_errno "a kexec_file_load that fails (unsigned kernel) keeps C loaded" EACCES \
	kcall kexec_file_load "$K/bzImage.unsigned" - "console=ttyS0"
tap_is "C still loaded and mapped, once" "$(loaded) $(maps)" "1 1"
tap_errno "kexec_file_load unload of C" OK kcall kexec_file_unload
tap_is "C unloaded: no mapping remains" "$(loaded) $(maps)" "0 0"
tap_done
