#!/bin/bash
# The real-kernel test ring: builds the guest, boots Debian's kernel under qemu (TCG), runs
# test_ring.py against it, and always stops qemu. `make test-kernel` runs this.
# Skips (exit 0) only when qemu is not installed. Binaries come from IMU_BIN (default .build/release).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
if ! command -v qemu-system-x86_64 >/dev/null; then
    echo "test-kernel: SKIPPED: qemu-system-x86_64 is not installed (sudo apt-get install qemu-system-x86)"
    exit 0
fi
export IMU_BIN=${IMU_BIN:-$REPO/.build/release}
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
