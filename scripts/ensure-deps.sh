#!/usr/bin/env bash
# Installs the Debian packages IMUKit needs, when it can: as root directly, otherwise through
# sudo. Without either it prints the exact apt-get line and stops (exit 1).
# Usage: scripts/ensure-deps.sh [build|test|kernel|deb|systemd]   (test and kernel include the ones before them;
# deb is build plus packaging; systemd is deb plus the guest of make test-systemd)
set -euo pipefail
level=${1:-build}
# build: libiio (IIO C library), libi2c (SMBus helpers), pkg-config (finds libiio for SwiftPM).
pkgs=(libiio-dev libi2c-dev pkg-config)
# build: SQLite for the step history (IMUHistory, through the CSQLite target).
pkgs+=(libsqlite3-dev)
# build: MQTT publishing (libmosquitto; libssl-dev for the TLS context in CMosquitto/shim.h).
# test: Debian's broker, read back with mosquitto_sub, and openssl for the TLS test's certificates.
pkgs+=(libmosquitto-dev libssl-dev)
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(mosquitto mosquitto-clients openssl); fi
# build: libgps (gpsd client library) for ground speed (IMULocation, issue 15).
pkgs+=(libgps-dev)
# build: libsystemd (sd-bus, sd_notify, journal) for the step service imu-stepd (CSystemd target).
pkgs+=(libsystemd-dev)
# test: a private dbus-daemon, busctl and systemd-analyze (systemd), gdbus (libglib2.0-bin) for the service tests.
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(dbus systemd libglib2.0-bin); fi
# test: dbus-test-tool (dbus-tests) stands in for iio-sensor-proxy on the bus (SharingTests, kernel ring test_sharing.py).
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(dbus-tests); fi
# test: a French locale proves number parsing ignores LC_NUMERIC; tmux drives the live view test.
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(locales tmux python3); fi
# test: the plot tests render in headless Chromium (DejaVu fonts) and check the SVG with xmllint (libxml2-utils).
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(chromium libxml2-utils fonts-dejavu-core); fi
# test: Debian's gpsd fed by gpsfake (gpsd-clients) for the GPS speed test (IMULocationTests).
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(gpsd gpsd-clients); fi
# test: zsh and man-db check the shell completions and the man pages (packaging/, completions/).
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(zsh man-db); fi
# test: the zone files (tzdata) for the local-time tests in named zones (LocalTimeTests, SinceParsingTests).
if [ "$level" = test ] || [ "$level" = kernel ]; then pkgs+=(tzdata); fi
# kernel: the real-kernel test ring (docs/testing.md): qemu, busybox, iiod and i2c-tools for the guest.
if [ "$level" = kernel ]; then
  pkgs+=(qemu-system-x86 busybox-static cpio kmod iiod libiio-utils i2c-tools linux-headers-amd64 gcc make)
fi
# deb: `make deb` and `make test-deb` (packaging/): dpkg-shlibdeps, lintian, the man page
# generator, debootstrap for the clean Debian 12 root.
if [ "$level" = deb ]; then pkgs+=(dpkg-dev lintian python3 debootstrap); fi
# systemd: `make test-systemd` (Tests/systemd): the deb level, plus qemu, busybox, cpio and kmod for the
# guest, e2fsprogs (mkfs.ext4 -d) for its disk, headers for the kernel ring's trigger module.
if [ "$level" = systemd ]; then
  pkgs+=(dpkg-dev lintian python3 debootstrap qemu-system-x86 busybox-static cpio kmod e2fsprogs linux-headers-amd64 gcc make)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# swift.org's Linux toolchains are 64-bit only (x86_64, aarch64): a 32-bit system cannot build IMUKit.
if [ "$(getconf LONG_BIT 2>/dev/null || echo 64)" = 32 ]; then
  echo "error: this is a 32-bit system ($(uname -m)); Swift's Linux toolchains are 64-bit only. Install a 64-bit (aarch64) OS: Raspberry Pi OS (64-bit) or Mobian (docs/getting-started-raspberry-pi.md)." >&2
  exit 1
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "error: the Swift 6 toolchain is not on PATH. Install it from swift.org (Debian 12 and Raspberry Pi OS ship none), then run this again." >&2
  exit 1
fi

if [ ${#missing[@]} -gt 0 ]; then
  cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
  if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo); else
    echo "Missing Debian packages: ${missing[*]}" >&2
    echo "Install them with:  sudo ${cmd[*]}" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" "${cmd[@]}"
fi

# The locale test needs fr_FR.UTF-8 generated.
if [ "$level" != build ] && ! locale -a 2>/dev/null | grep -qi '^fr_FR.utf8$'; then
  if [ "$(id -u)" = 0 ]; then
    sed -i 's/^# *fr_FR.UTF-8 UTF-8/fr_FR.UTF-8 UTF-8/' /etc/locale.gen 2>/dev/null || true
    grep -q '^fr_FR.UTF-8 UTF-8' /etc/locale.gen 2>/dev/null || echo 'fr_FR.UTF-8 UTF-8' >> /etc/locale.gen
    locale-gen >/dev/null
  else
    echo "note: fr_FR.UTF-8 is not generated; the locale test will be skipped." >&2
  fi
fi
