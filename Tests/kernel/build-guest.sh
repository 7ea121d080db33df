#!/bin/bash
# Builds everything the real-kernel test ring boots, cached under Tests/kernel/work/:
#   work/kernel/        Debian's linux-image package, extracted (vmlinuz + modules)
#   work/trigger/       imukit_tick.ko, the ring's own IIO trigger (needs linux-headers-KVER)
#   work/initramfs.cpio.gz
# Facts behind every step: docs/testing-kernel.md. Downloads come from Debian's apt only.
# Usage: build-guest.sh            (prints KEY=VALUE lines: KVER, KERNEL, INITRD, TRIGGER)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=$HERE/work
mkdir -p "$WORK"
log() { echo "build-guest: $*" >&2; }

# 1. The exact kernel package linux-image-amd64 points at (a glob would fetch every version).
PKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$PKG" ] || { log "apt-cache depends linux-image-amd64 names no kernel; run apt-get update"; exit 1; }
KVER=${PKG#linux-image-}
if [ ! -f "$WORK/kernel/boot/vmlinuz-$KVER" ]; then
    log "downloading $PKG"
    rm -rf "$WORK/kernel" "$WORK"/linux-image-*.deb
    (cd "$WORK" && apt-get download "$PKG" >&2)
    dpkg-deb -x "$WORK"/"$PKG"_*.deb "$WORK/kernel"
fi
MODSRC=$WORK/kernel/lib/modules/$KVER

# 2. The trigger module, built against the matching headers (installed through apt if missing).
HDR=/usr/src/linux-headers-$KVER
TRIGGER_KO=""
if [ ! -d "$HDR" ]; then
    log "installing linux-headers-$KVER for the trigger module"
    DEBIAN_FRONTEND=noninteractive apt-get install -y "linux-headers-$KVER" >&2 || log "no headers: buffered tests will be skipped"
fi
if [ -d "$HDR" ]; then
    mkdir -p "$WORK/trigger"
    if [ ! -f "$WORK/trigger/imukit_tick.ko" ] || [ "$HERE/trigger/imukit_tick.c" -nt "$WORK/trigger/imukit_tick.ko" ]; then
        cp "$HERE/trigger/imukit_tick.c" "$HERE/trigger/Kbuild" "$WORK/trigger/"
        make -s -C "$HDR" M="$WORK/trigger" modules >&2 2>"$WORK/trigger/build.log" || log "trigger module build failed, see $WORK/trigger/build.log"
    fi
    [ -f "$WORK/trigger/imukit_tick.ko" ] && TRIGGER_KO=$WORK/trigger/imukit_tick.ko
fi

# 3. The initramfs tree.
ROOT=$WORK/root
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,lib64,proc,sys,dev,tmp,etc,opt/imukit}
cp /bin/busybox "$ROOT/bin/busybox"
for applet in $(/bin/busybox --list); do
    [ -e "$ROOT/bin/$applet" ] || ln -s busybox "$ROOT/bin/$applet"
done

# Executables with their shared libraries, as ldd lists them (Swift's runtime included).
copy_with_libs() {
    local exe=$1 dest=$2
    cp "$exe" "$ROOT$dest"
    ldd "$exe" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}' | while read -r lib; do
        [ -e "$ROOT$lib" ] || { mkdir -p "$ROOT$(dirname "$lib")"; cp -L "$lib" "$ROOT$lib"; }
    done
}
for tool in i2cset i2cget i2cdump i2cdetect i2ctransfer; do copy_with_libs "/usr/sbin/$tool" "/usr/sbin/$tool"; done
for tool in iio_info iio_readdev iio_attr iio_reg; do copy_with_libs "/usr/bin/$tool" "/usr/bin/$tool"; done
copy_with_libs /usr/sbin/iiod /usr/sbin/iiod
# A private D-Bus in the guest for imu-stepd on local: (test_sharing.py); skipped there when absent.
# dbus-test-tool (dbus-tests) owns iio-sensor-proxy's name there, standing in for it.
for tool in dbus-daemon busctl dbus-test-tool; do [ -x "/usr/bin/$tool" ] && copy_with_libs "/usr/bin/$tool" "/usr/bin/$tool"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/lib64/"
# Our tools load libsystemd, SQLite and libgps with dlopen on first use (Sources/CSystemd, CSQLite,
# CGPS), so ldd does not list them: imu-stepd needs the first two in the guest.
for lib in libsystemd.so.0 libsqlite3.so.0 libgps.so.28; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !found {print $NF; found = 1}')
    [ -n "$path" ] && { mkdir -p "$ROOT$(dirname "$path")"; copy_with_libs "$path" "$path"; }
done
shopt -s nullglob
ours=("${IMU_BIN:-$REPO/.build/release}"/imu-*)
for exe in "${ours[@]}"; do
    case $exe in *.build|*.o|*.swiftmodule|*.swiftdoc|*.product|*.resources) continue ;; esac
    # The tools, and of the benchmarks only the IIO one (the guest runs it on local:).
    case $(basename "$exe") in imu-bench-iio) ;; imu-bench-*) continue ;; esac
    [ -x "$exe" ] && [ -f "$exe" ] && copy_with_libs "$exe" "/usr/bin/$(basename "$exe")"
done
log "our tools in the guest: $(ls "$ROOT/usr/bin" | grep '^imu-' | tr '\n' ' ')"

# Kernel modules with their dependencies (modinfo -F depends), then depmod.
MODS="i2c-stub i2c-dev e1000 bmp280-i2c inv-mpu6050-i2c bmi160_i2c st_lsm6dsx_i2c st_accel_i2c"
declare -A done_mods=()
add_module() {
    local name=$1 file
    [ -n "${done_mods[$name]:-}" ] && return 0
    done_mods[$name]=1
    file=$(find "$MODSRC/kernel" -name "$name.ko*" -o -name "${name//-/_}.ko*" | head -1)
    [ -n "$file" ] || { log "module $name not in $PKG"; return 1; }
    mkdir -p "$ROOT/lib/modules/$KVER/$(dirname "${file#$MODSRC/}")"
    cp "$file" "$ROOT/lib/modules/$KVER/${file#$MODSRC/}"
    local dep
    for dep in $(modinfo -F depends "$file" | tr ',' ' '); do add_module "$dep"; done
}
for m in $MODS; do add_module "$m"; done
cp "$MODSRC"/modules.{order,builtin,builtin.modinfo} "$ROOT/lib/modules/$KVER/" 2>/dev/null || true
if [ -n "$TRIGGER_KO" ]; then
    mkdir -p "$ROOT/lib/modules/$KVER/extra"
    cp "$TRIGGER_KO" "$ROOT/lib/modules/$KVER/extra/"
fi
depmod -b "$ROOT" "$KVER"

# An unprivileged user for the permission test (not in group iio, like a fresh account).
printf 'root:x:0:0:root:/:/bin/sh\nwalker:x:1000:1000:walker:/tmp:/bin/sh\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\niio:x:997:\nwalker:x:1000:\n' > "$ROOT/etc/group"
cp "$HERE/guest-init.sh" "$ROOT/init"
chmod 0755 "$ROOT/init"
# The walk on the guest's own clock (test_sharing.py).
cp "$HERE/guest-walk.sh" "$ROOT/usr/bin/imukit-walk"
chmod 0755 "$ROOT/usr/bin/imukit-walk"
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1) > "$WORK/initramfs.cpio.gz"
log "initramfs $(du -h "$WORK/initramfs.cpio.gz" | cut -f1)"
echo "KVER=$KVER"
echo "KERNEL=$WORK/kernel/boot/vmlinuz-$KVER"
echo "INITRD=$WORK/initramfs.cpio.gz"
echo "TRIGGER=${TRIGGER_KO:+yes}"
