#!/usr/bin/env bash
# Builds the machine `make test-systemd` boots (docs/testing-systemd.md), in .build/test-systemd:
#   root.img       ext4 root file system: Debian 12 with systemd, dbus and udev, the package's
#                  dependencies, the test's kernel modules, /root/imukit.deb (installed by the
#                  checks, on the running system) and the test units (Tests/systemd/guest)
#   initrd.cpio.gz busybox and the modules to mount root.img from virtio-blk, then switch_root
#                  to systemd
# The kernel and its modules are the kernel ring's (Tests/kernel/build-guest.sh: Debian's
# linux-image package, and the ring's IIO trigger module when headers are there).
# The Debian root with systemd is cached as a tarball in .build/debootstrap, keyed by its
# package list, so a rerun takes about a minute. Needs root.
#   Tests/systemd/build-image.sh PACKAGE.deb     (prints KEY=VALUE lines: KERNEL, INITRD, IMAGE, TRIGGER)
# Exit 77: skipped (no Debian mirror reachable); the reason is on stderr.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
deb=$(realpath "${1:?usage: build-image.sh PACKAGE.deb}")
work=$REPO/.build/test-systemd
mkdir -p "$work"
log() { echo "build-image: $*" >&2; }

# 1. Kernel and modules (and the trigger module), as the kernel ring has them; first the
# debootstrap root, whose fetch tells whether a Debian mirror answers at all (else: skip).
base=$(cd "$REPO" && packaging/bookworm-root.sh) || exit $?
eval "$("$REPO/Tests/kernel/build-guest.sh")"
modsrc=$REPO/Tests/kernel/work/kernel/lib/modules/$KVER

# 2. Debian 12 with systemd as init, and the package's dependencies (from its control file).
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/ //g' | grep -v '^$' | sort -u | tr '\n' ' ')
# systemd-sysv: systemd as /sbin/init; dbus: the system bus; udev: device permissions (the
# package's rules); kmod and i2c-tools: the emulated chips (guest/chips.sh).
packages="systemd systemd-sysv dbus udev kmod i2c-tools $depends"
key=$(echo "$packages" | md5sum | cut -c1-12)
systemd_tar=$REPO/.build/debootstrap/bookworm-systemd-$key.tar
root=$work/root
cleanup() { mountpoint -q "$root/proc" && umount "$root/proc" || true; }
trap cleanup EXIT
if [ ! -f "$systemd_tar" ]; then
    log "installing into the bookworm root: $packages"
    rm -rf "$root"; mkdir -p "$root"
    tar -C "$root" -xf "$base"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    mount -t proc proc "$root/proc"
    in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
    cp "$REPO"/.build/debootstrap/archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
    # shellcheck disable=SC2086
    if ! in_root apt-get install -y -q --no-install-recommends $packages > "$work/apt.log" 2>&1; then
        in_root apt-get update -q > /dev/null    # the cached lists are stale: refresh once and retry
        in_root apt-get install -y -q --no-install-recommends $packages > "$work/apt.log" 2>&1 \
            || { tail -20 "$work/apt.log" >&2; log "apt-get install failed (log: $work/apt.log)"; exit 1; }
    fi
    cp -n "$root"/var/cache/apt/archives/*.deb "$REPO/.build/debootstrap/archives/" 2>/dev/null || true
    in_root apt-get clean
    cleanup
    tar -C "$root" -cf "$systemd_tar.part" . && mv "$systemd_tar.part" "$systemd_tar"
fi
log "root from $systemd_tar"
rm -rf "$root"; mkdir -p "$root"
tar -C "$root" -xf "$systemd_tar"

# 3. The machine: its root on /dev/vda, a name, a machine id (so that this is no first boot,
# where systemd-firstboot would ask questions on the console), no timers of apt.
echo "/dev/vda / ext4 rw,noatime 0 0" > "$root/etc/fstab"
echo imukit-test > "$root/etc/hostname"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$root/etc/machine-id"; echo >> "$root/etc/machine-id"
for unit in apt-daily.timer apt-daily-upgrade.timer; do ln -sf /dev/null "$root/etc/systemd/system/$unit"; done
rm -f "$root/etc/resolv.conf"

# The kernel modules the checks load (with their dependencies), and the ring's trigger.
add_module() {
    local name=$1 file dep
    file=$(find "$modsrc/kernel" \( -name "$name.ko*" -o -name "${name//-/_}.ko*" \) | head -1)
    [ -n "$file" ] || { log "module $name is not in linux-image-$KVER"; exit 1; }
    [ -e "$2/lib/modules/$KVER/${file#"$modsrc"/}" ] && return 0
    install -D -m 0644 "$file" "$2/lib/modules/$KVER/${file#"$modsrc"/}"
    for dep in $(modinfo -F depends "$file" | tr ',' ' '); do add_module "$dep" "$2"; done
}
for m in i2c-stub i2c-dev bmi160_i2c; do add_module "$m" "$root"; done
[ -n "${TRIGGER:-}" ] && install -D -m 0644 "$REPO/Tests/kernel/work/trigger/imukit_tick.ko" "$root/lib/modules/$KVER/extra/imukit_tick.ko"
cp "$modsrc"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$KVER/"
depmod -b "$root" "$KVER"

# The package, the fixture and the checks.
cp "$deb" "$root/root/imukit.deb"
install -D -m 0755 "$HERE/guest/chips.sh" "$root/usr/local/lib/imukit-test/chips.sh"
install -D -m 0755 "$HERE/guest/check.sh" "$root/usr/local/lib/imukit-test/check.sh"
install -D -m 0755 "$HERE/guest/walk.pl" "$root/usr/local/lib/imukit-test/walk.pl"
for unit in imukit-test-chips.service imukit-test-check.service; do
    install -D -m 0644 "$HERE/guest/$unit" "$root/etc/systemd/system/$unit"
    ln -sf "/etc/systemd/system/$unit" "$root/etc/systemd/system/multi-user.target.wants/$unit"
done

# 4. The disk: ext4 made from the tree (mkfs.ext4 -d), sparse, with room for the package.
image=$work/root.img
rm -f "$image"
size=$(( $(du -sm "$root" | cut -f1) + 512 ))
mkfs.ext4 -q -F -L imukit-root -d "$root" "$image" "${size}M" >&2

# 5. The initramfs: busybox, virtio-blk and ext4, an /init that mounts the disk and hands over.
initrd=$work/initrd
rm -rf "$initrd"; mkdir -p "$initrd"/{bin,dev,proc,sys,newroot}
cp /bin/busybox "$initrd/bin/busybox"
for applet in sh mount umount modprobe switch_root sleep poweroff echo; do ln -s busybox "$initrd/bin/$applet"; done
for m in virtio_pci virtio_blk ext4 crc32c_generic; do add_module "$m" "$initrd"; done
cp "$modsrc"/modules.{order,builtin,builtin.modinfo} "$initrd/lib/modules/$KVER/"
depmod -b "$initrd" "$KVER"
cat > "$initrd/init" <<'EOF'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
for m in virtio_pci virtio_blk crc32c_generic ext4; do modprobe $m; done
n=0; while [ ! -b /dev/vda ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initrd: cannot mount /dev/vda"; poweroff -f; }
umount /proc /sys /dev
exec switch_root /newroot /sbin/init
EOF
chmod 0755 "$initrd/init"
(cd "$initrd" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.cpio.gz"
rm -rf "$root" "$initrd"
echo "KERNEL=$KERNEL"
echo "INITRD=$work/initrd.cpio.gz"
echo "IMAGE=$image"
echo "TRIGGER=${TRIGGER:-}"
