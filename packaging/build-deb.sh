#!/usr/bin/env bash
# Builds imukit_VERSION_ARCH.deb with dpkg-deb from tools already built with
# --static-swift-stdlib (`make deb` does both). docs/install.md explains the layout.
#   packaging/build-deb.sh BIN_DIR "TOOL TOOL ..."
# Packaged: every tool in TOOLS (a tool whose man page source is section 8 is a daemon and goes to
# /usr/sbin), man pages, completions, udev rules, README and docs; from data/, when present:
# systemd units (installed disabled), D-Bus policies and interfaces, and IMUKit config files.
# Depends are computed by dpkg-shlibdeps. Output: .build/deb/imukit_VERSION_ARCH.deb; then lintian.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: packaging/build-deb.sh BIN_DIR \"TOOLS\"}
read -r -a tools <<< "${2:?usage: packaging/build-deb.sh BIN_DIR \"TOOLS\"}"
out=$(realpath -m "${DEB_OUT:-.build/deb}")
version=$(packaging/version.sh)
commit=$(packaging/version.sh --commit)
# Cross builds (docs/install.md, arm64): DEB_ARCH=arm64 STRIP=aarch64-linux-gnu-strip, and
# MAN_BIN=.build/release, a host build whose --help the man pages are made from.
arch=${DEB_ARCH:-$(dpkg --print-architecture)}
export DEB_HOST_ARCH=$arch
strip=${STRIP:-strip}
man_bin=${MAN_BIN:-$bin}
maintainer=${DEB_MAINTAINER:-"$(git config user.name 2>/dev/null || true) <$(git config user.email 2>/dev/null || true)>"}
[ "$maintainer" = " <>" ] && maintainer="IMUKit maintainers <imukit@users.noreply.github.com>"
# The daemon's account and control group, as imu-stepd and its D-Bus policy name them.
service_user=imu-stepd control_group=imukit

for t in "${tools[@]}"; do
  [ -x "$bin/$t" ] || { echo "build-deb: $bin/$t is not built; run: make deb" >&2; exit 1; }
  if readelf -d "$bin/$t" | grep NEEDED | grep -q 'libswift'; then
    echo "build-deb: $bin/$t links the Swift runtime dynamically; build with --static-swift-stdlib (make deb)" >&2; exit 1
  fi
done

stage=$out/root
rm -rf "$stage" "$out"/imukit_*.deb
mkdir -p "$stage/DEBIAN"

# Tools (section 8 = daemon = /usr/sbin), stripped as Debian policy asks.
binaries=()
for t in "${tools[@]}"; do
  dir=usr/bin
  [ -e "docs/man/$t.8.in" ] && dir=usr/sbin
  install -D -m 0755 "$bin/$t" "$stage/$dir/$t"
  "$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/$dir/$t"
  binaries+=("$stage/$dir/$t")
done

# Man pages (from docs/man and each tool's --help) and completions: the same make targets as
# `make install`, into the package's tree.
${MAKE:-make} --no-print-directory -s install-man install-completions DESTDIR="$stage" PREFIX=/usr \
  MAN_BIN="$man_bin" ZSH_COMPLETIONS=/usr/share/zsh/vendor-completions TOOLS="${tools[*]}" >/dev/null
find "$stage/usr/share/man" -type f -exec gzip -9n {} +

# udev rules where packages put them (/etc/udev/rules.d stays the administrator's).
install -D -m 0644 udev/60-imukit.rules "$stage/lib/udev/rules.d/60-imukit.rules"

# Optional files from data/: units, D-Bus policy and interfaces, config files.
units=()
for f in data/*.service; do
  [ -e "$f" ] || continue
  install -D -m 0644 "$f" "$stage/lib/systemd/system/$(basename "$f")"
  for t in "${tools[@]}"; do   # ExecStart= names the packaged path, whatever PREFIX the file assumed
    path=/usr/bin/$t; [ -e "$stage/usr/sbin/$t" ] && path=/usr/sbin/$t
    sed -i -E "s#^(Exec[A-Za-z]*=[-@:+!]*)[^ ]*/$t( |\$)#\1$path\2#" "$stage/lib/systemd/system/$(basename "$f")"
  done
  units+=("$(basename "$f")")
done
for f in data/*.conf data/*.xml; do
  [ -e "$f" ] || continue
  if grep -q '<busconfig' "$f"; then install -D -m 0644 "$f" "$stage/usr/share/dbus-1/system.d/$(basename "$f")"
  elif grep -q '<node' "$f"; then install -D -m 0644 "$f" "$stage/usr/share/dbus-1/interfaces/$(basename "$f")"
  # sysusers.d(5), where packages put it (not a file of /etc/imukit): systemd-sysusers reads it at boot.
  elif [[ $f == *.sysusers.conf ]]; then install -D -m 0644 "$f" "$stage/usr/lib/sysusers.d/$(basename "$f" .sysusers.conf).conf"
  elif [ "${f##*.}" = conf ]; then install -D -m 0644 "$f" "$stage/etc/imukit/$(basename "$f")"
  fi
done
for u in "${units[@]}"; do
  exe=$(sed -n -E 's#^ExecStart=[-@:+!]*([^ ]+).*#\1#p' "$stage/lib/systemd/system/$u" | head -n 1)
  [ -z "$exe" ] || [ -x "$stage$exe" ] || {
    echo "build-deb: data/$u starts $exe, which the package does not contain; add it to TOOLS in the Makefile" >&2; exit 1; }
done
[ ${#units[@]} -gt 0 ] || service_user=""

# Documentation: README (its links point into docs/), the guides, copyright, changelog.
doc=$stage/usr/share/doc/imukit
install -D -m 0644 README.md "$doc/README.md"
for f in docs/*.md; do install -D -m 0644 "$f" "$doc/$f"; done
install -m 0644 packaging/debian/copyright "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'imukit (%s) unstable; urgency=medium\n\n  * Built from git %s; the project history is in its git log.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"

# Maintainer scripts, conffiles.
for s in postinst prerm postrm; do
  sed -e "s/@SERVICE_USER@/$service_user/g" -e "s/@CONTROL_GROUP@/$control_group/g" -e "s/@UNITS@/${units[*]:-}/g" \
    "packaging/debian/$s.in" > "$stage/DEBIAN/$s"
  chmod 0755 "$stage/DEBIAN/$s"
done
if [ -d "$stage/etc" ]; then (cd "$stage" && find etc -type f | sed 's#^#/#' | sort) > "$stage/DEBIAN/conffiles"; fi

# Depends: dpkg-shlibdeps reads the binaries' NEEDED entries (it wants a debian/control to exist).
work=$out/shlibdeps
mkdir -p "$work/debian"
printf 'Source: imukit\n\nPackage: imukit\nArchitecture: any\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O "${binaries[@]}" | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Packed relocations (make deb links with -z pack-relative-relocs; docs/memory.md) need glibc 2.36's
# GLIBC_ABI_DT_RELR, a version without symbols that dpkg-shlibdeps does not map to libc6.
if readelf -d "${binaries[0]}" | grep -q '(RELR)'; then shlibs=$(sed -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/' <<<"$shlibs"); fi
# libiio is loaded with dlopen on the first IIO source (Sources/CLibIIO), so no binary names it as NEEDED.
# libsystemd, SQLite and libgps likewise on first use (Sources/CSystemd, CSQLite, CGPS).
depends="$shlibs, libiio0, libsystemd0, libsqlite3-0, libgps28, adduser"

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@MAINTAINER@/$maintainer/" \
    -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" packaging/debian/control.in > "$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"

deb=$out/imukit_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
echo "  Depends: $depends"
