#!/usr/bin/env bash
# make test-deb: installs imukit_*.deb into a clean Debian 12 root and checks it works there
# without any Swift toolchain, then that remove and purge leave nothing behind but configuration
# and user data (Debian policy 6.8 and 10.7).
#   packaging/test-deb.sh .build/deb/imukit_VERSION_ARCH.deb
# The root comes from debootstrap (minbase, bookworm) once, and is cached as a tarball in
# .build/debootstrap (packaging/bookworm-root.sh) with the .debs apt fetched, so a rerun takes
# seconds plus the install.
# Needs root (chroot); DEBIAN_MIRROR picks the mirror (default http://deb.debian.org/debian).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "${1:?usage: packaging/test-deb.sh PACKAGE.deb}")
cache=$PWD/.build/debootstrap
root=$PWD/.build/test-deb/root
start=$(date +%s)
step() { echo "== test-deb [$(( $(date +%s) - start )) s] $*"; }
fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || { echo "test-deb: needs root for debootstrap and chroot: sudo make test-deb" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "test-deb: debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
cleanup() {
  mountpoint -q "$root/proc" && umount "$root/proc" || true
}
trap cleanup EXIT

# 1. The clean root: debootstrap once (a few minutes), then the cached tarball (seconds).
step "bookworm root (packaging/bookworm-root.sh)"
tarball=$(packaging/bookworm-root.sh) || { s=$?; [ $s = 77 ] && { echo "test-deb: skipped (see above)"; exit 0; }; fail "packaging/bookworm-root.sh"; }
step "fresh root from $tarball"
cleanup
rm -rf "$root"; mkdir -p "$root"
tar -C "$root" -xf "$tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
cp "$cache"/archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true

# 2. The package's dependencies first, so that the package's own footprint can be measured.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/ //g' | grep -v '^$' | tr '\n' ' ')
step "dependencies: $depends"
export DEBIAN_FRONTEND=noninteractive
if ! in_root apt-get install -y -q --no-install-recommends $depends > "$root/../apt.log" 2>&1; then
  in_root apt-get update -q > /dev/null    # the cached lists are stale: refresh once and retry
  in_root apt-get install -y -q --no-install-recommends $depends > "$root/../apt.log" 2>&1 \
    || { tail -20 "$root/../apt.log"; fail "apt-get install $depends"; }
fi
cp -n "$root"/var/cache/apt/archives/*.deb "$cache/archives/" 2>/dev/null || true

# Every file and directory of the root, minus what is not the package's business: kernel file
# systems, dpkg's and apt's own databases and caches, logs, and adduser's backups of passwd & co.
snapshot() {
  (cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./sys -o -path ./run -o -path ./tmp \
      -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log \) -prune \
      -o -print | { grep -v -E '^\./etc/(passwd|group|shadow|gshadow|subuid|subgid)-$' || true; } | sort)
}
snapshot > "$root/../before"

# 3. Install. No Swift anywhere in the root.
cp "$deb" "$root/tmp/imukit.deb"
step "dpkg -i $(basename "$deb")"
in_root dpkg -i /tmp/imukit.deb > "$root/../install.log" 2>&1 || { cat "$root/../install.log"; fail "dpkg -i"; }
grep -q 'usermod -aG i2c,iio' "$root/../install.log" || fail "postinst did not print the usermod line"
for g in i2c iio; do in_root getent group "$g" > /dev/null || fail "postinst did not create group $g"; done
if [ -n "$(dpkg-deb -c "$deb" | grep -E '\./lib/systemd/system/.*\.service$')" ]; then
  in_root getent passwd imu-stepd > /dev/null || fail "postinst did not create the service user imu-stepd"
  for u in $(dpkg-deb -c "$deb" | sed -n 's#.*\./lib/systemd/system/\(.*\.service\)$#\1#p'); do
    [ -z "$(find "$root/etc/systemd/system" -name "$u" 2>/dev/null)" ] || fail "$u was enabled; it must install disabled"
  done
fi
in_root sh -c 'command -v swift swiftc' && fail "a Swift toolchain is present in the test root"
[ -z "$(find "$root" -xdev -name 'libswift*' -print -quit)" ] || fail "a Swift runtime library is present in the test root"

step "imu-steps --simulate walk --speed max"
in_root imu-steps --version
in_root imu-steps --simulate walk --speed max > "$root/../run.log" 2>&1 || { cat "$root/../run.log"; fail "imu-steps exited $?"; }
cat "$root/../run.log"
grep -Eq '[1-9][0-9]* steps' "$root/../run.log" || fail "imu-steps printed no step count"
for t in $(dpkg-deb -c "$deb" | sed -n 's#.*\./usr/s\?bin/\(.*\)$#\1#p'); do
  [ -z "$t" ] && continue
  in_root "$t" --help > /dev/null || fail "$t --help"
  in_root "$t" --version | grep -Eq "^$t [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{7}|unknown\)$" || fail "$t --version"
  [ -f "$root/usr/share/man/man1/$t.1.gz" ] || [ -f "$root/usr/share/man/man8/$t.8.gz" ] || fail "no man page for $t"
  [ -f "$root/usr/share/bash-completion/completions/$t" ] || fail "no bash completion for $t"
done
# User data: a walker profile in the home directory, which purge must leave alone.
in_root imu-steps --simulate still:1 --speed max --height 1.8 --remember > /dev/null 2>&1 || fail "imu-steps --remember"
[ -f "$root/root/.config/imukit/profile.json" ] || fail "--remember wrote no profile"

# 4. Remove: only configuration (conffiles) and user data may stay.
conffiles=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles 2>/dev/null || true)
allowed() { local keep; keep=" $(printf '%s ' $1)"
  { grep -v -E '^\./root/\.config(/imukit(/profile\.json)?)?$' || true; } | while read -r f; do
  case "$keep" in *" ${f#.} "*) ;; *) echo "$f" ;; esac; done; }
step "dpkg --remove imukit"
in_root dpkg --remove imukit > /dev/null || fail "dpkg --remove"
left=$(comm -13 "$root/../before" <(snapshot) | allowed "$conffiles $(for c in $conffiles; do d=$c; while d=${d%/*}; [ -n "$d" ]; do echo "$d"; done; done)")
[ -z "$left" ] || fail "after remove, left behind besides configuration and user data:
$left"
[ -z "$conffiles" ] || for c in $conffiles; do [ -e "$root$c" ] || fail "remove deleted configuration $c"; done

step "dpkg --purge imukit"
in_root dpkg --purge imukit > /dev/null || fail "dpkg --purge"
left=$(comm -13 "$root/../before" <(snapshot) | allowed "")
[ -z "$left" ] || fail "after purge, left behind besides user data:
$left"
missing=$(comm -23 "$root/../before" <(snapshot))
[ -z "$missing" ] || fail "purge deleted files that were there before the package:
$missing"
[ -f "$root/root/.config/imukit/profile.json" ] || fail "purge deleted user data"

cleanup
rm -rf "$root"
step "passed"
