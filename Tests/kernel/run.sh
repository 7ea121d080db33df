#!/bin/bash
# The real-kernel test ring: builds the guest, boots Debian's kernel under qemu (TCG), runs
# test_ring.py against it, and always stops qemu. `make test-kernel` runs this.
# Skips (exit 0) only when qemu is not installed. Binaries come from IMU_BIN; unset, .build/release
# is brought up to date first (`swift build -c release`, a no-op when it is current), so the ring
# never tests a stale build of other sources without a word.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
if ! command -v qemu-system-x86_64 >/dev/null; then
    echo "test-kernel: SKIPPED: qemu-system-x86_64 is not installed (sudo apt-get install qemu-system-x86)"
    exit 0
fi
if [ -z "${IMU_BIN:-}" ]; then
    # Comparing times cannot tell: a source saved unchanged is newer than a binary swift build
    # rightly does not relink. Building is exact, and costs seconds when nothing changed.
    echo "test-kernel: IMU_BIN is not set: bringing .build/release up to date (swift build -c release)"
    if ! (cd "$REPO" && "${SWIFT:-swift}" build -c release); then
        echo "test-kernel: swift build -c release failed; fix the build, or set IMU_BIN to a directory of built tools" >&2
        exit 1
    fi
    export IMU_BIN=$REPO/.build/release
else
    # Given by the caller, the binaries are used as they are; say so when sources are newer.
    newer=$(find "$REPO/Sources" -type f -newer "$(ls -t "$IMU_BIN"/imu-* 2>/dev/null | tail -1)" -print -quit 2>/dev/null || true)
    if [ -n "$newer" ]; then
        echo "test-kernel: note: ${newer#"$REPO"/} is newer than the oldest tool in $IMU_BIN: rebuild first if you changed the code" >&2
    fi
fi
if [ ! -x "$IMU_BIN/imu-bench-iio" ]; then
    echo "test-kernel: $IMU_BIN/imu-bench-iio is missing; build first: swift build -c release" >&2
    exit 1
fi
started=$(date +%s)
eval "$("$HERE/build-guest.sh")"
# shellcheck source=vm.sh
source "$HERE/vm.sh"
# The exit status is the tests' alone: vm_stop never fails, and `exit $status` below sets it.
trap vm_stop EXIT
trap 'exit 130' INT TERM
vm_start "$KERNEL" "$INITRD"
status=0
python3 "$HERE/test_ring.py" || status=$?
python3 "$HERE/test_capture.py" || status=$?
python3 "$HERE/test_sharing.py" || status=$?
python3 "$HERE/test_record_gps.py" || status=$?
echo "test-kernel: $(( $(date +%s) - started )) s in all"
exit $status
