#!/usr/bin/env bash
# A clean Debian 12 (bookworm, minbase) root as a tarball, made by debootstrap once and cached in
# .build/debootstrap (with apt's lists, so apt-get install works in it). Used by make test-deb and
# make test-systemd. Prints the tarball's path. Exit 77: skipped, no Debian mirror reachable
# (a missing component, not a package defect); the reason is on stderr.
# Needs root; DEBIAN_MIRROR picks the mirror (default http://deb.debian.org/debian).
set -euo pipefail
cd "$(dirname "$0")/.."
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=$PWD/.build/debootstrap
tarball=$cache/bookworm-minbase-$(dpkg --print-architecture).tar
mkdir -p "$cache/archives"
if [ ! -f "$tarball" ]; then
  echo "debootstrap bookworm (minbase) from $mirror, cached in $tarball" >&2
  rm -rf "$cache/new"
  debootstrap --variant=minbase bookworm "$cache/new" "$mirror" > "$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2
         if grep -qiE "Failed getting release file|Couldn't download|Temporary failure resolving|Could not resolve" "$cache/debootstrap.log"; then
           echo "skipped: debootstrap could not fetch bookworm from $mirror (no network to a Debian mirror)" >&2; exit 77
         fi
         echo "debootstrap failed (log: $cache/debootstrap.log)" >&2; exit 1; }
  cp /etc/resolv.conf "$cache/new/etc/resolv.conf"
  chroot "$cache/new" apt-get update -q > /dev/null
  chroot "$cache/new" apt-get clean
  tar -C "$cache/new" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
  rm -rf "$cache/new"
fi
echo "$tarball"
