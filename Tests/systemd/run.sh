#!/usr/bin/env bash
# make test-systemd (docs/testing-systemd.md): the Debian package's step service under a real
# systemd as PID 1, in qemu (TCG) with Debian's kernel and an emulated BMI160 on the real driver.
# Builds the machine (build-image.sh), boots it, and test_systemd.py reports each check.
#   Tests/systemd/run.sh PACKAGE.deb
# Skips (exit 0) with a message when qemu or debootstrap is not installed, or no Debian mirror
# answers. Needs root (debootstrap, chroot, mkfs of a root-owned tree).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
deb=${1:?usage: Tests/systemd/run.sh PACKAGE.deb}
for tool in qemu-system-x86_64:qemu-system-x86 debootstrap:debootstrap mkfs.ext4:e2fsprogs busybox:busybox-static cpio:cpio; do
    command -v "${tool%%:*}" >/dev/null || { echo "test-systemd: SKIPPED: ${tool%%:*} is not installed (sudo apt-get install ${tool#*:})"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "test-systemd: needs root for debootstrap and chroot: sudo make test-systemd" >&2; exit 1; }
started=$(date +%s)
vars=$("$HERE/build-image.sh" "$deb") || { s=$?; [ $s = 77 ] && { echo "test-systemd: SKIPPED (see above)"; exit 0; }; exit $s; }
eval "$vars"
echo "test-systemd: machine built in $(( $(date +%s) - started )) s; booting it (qemu, TCG)"
status=0
KERNEL=$KERNEL INITRD=$INITRD IMAGE=$IMAGE python3 "$HERE/test_systemd.py" || status=$?
echo "test-systemd: $(( $(date +%s) - started )) s in all"
exit $status
