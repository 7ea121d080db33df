#!/bin/bash
# Starts or stops the test-ring guest. Sourced by run.sh; usable alone for debugging:
#   Tests/kernel/vm.sh start    (prints IIOD_PORT=… SHELL_PORT=… QEMU_PID=…)
#   Tests/kernel/vm.sh stop
# qemu runs with TCG: /dev/kvm exists on the CI machine but the guest hangs after SeaBIOS.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORK=$HERE/work

# A TCP port nobody listens on now (the kernel picks it; the socket closes before qemu binds).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

vm_start() {
    local kernel=$1 initrd=$2
    IIOD_PORT=$(free_port); SHELL_PORT=$(free_port)
    while [ "$SHELL_PORT" = "$IIOD_PORT" ]; do SHELL_PORT=$(free_port); done
    CONSOLE=$WORK/console.log
    : > "$CONSOLE"
    # 1 GiB: the initramfs unpacks into a tmpfs limited to half of the guest's memory, and it now
    # holds about 190 MB (the tools, the Swift runtime, ICU twice), past the 256 MB that -m 512 leaves
    # beside the 76 MB archive ("Initramfs unpacking failed: write error").
    qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -nographic -no-reboot \
        -kernel "$kernel" -initrd "$initrd" \
        -append "console=ttyS0 quiet panic=-1" \
        -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$IIOD_PORT-10.0.2.15:30431,hostfwd=tcp:127.0.0.1:$SHELL_PORT-10.0.2.15:2323" \
        -device e1000,netdev=n0 \
        < /dev/null > "$CONSOLE" 2>&1 &
    QEMU_PID=$!
    echo "$QEMU_PID" > "$WORK/qemu.pid"
    # The guest prints IMUKIT-READY once iiod and the shell listen (about 20 s under TCG).
    local waited=0
    until grep -q IMUKIT-READY "$CONSOLE"; do
        if ! kill -0 "$QEMU_PID" 2>/dev/null; then echo "vm: qemu exited early; console:" >&2; tail -30 "$CONSOLE" >&2; return 1; fi
        if [ $waited -ge 120 ]; then echo "vm: guest not ready after 120 s; console:" >&2; tail -30 "$CONSOLE" >&2; return 1; fi
        sleep 1; waited=$((waited + 1))
    done
    # iiod listening is not iiod serving: under TCG on a busy host its first context can take
    # seconds. Wait until a libiio client gets the device list.
    until iio_attr -u "ip:127.0.0.1:$IIOD_PORT" -d >/dev/null 2>&1; do
        if [ $waited -ge 120 ]; then echo "vm: iiod does not serve after 120 s; console:" >&2; tail -30 "$CONSOLE" >&2; return 1; fi
        sleep 1; waited=$((waited + 1))
    done
    echo "vm: guest ready after ${waited} s (iiod at ip:127.0.0.1:$IIOD_PORT, shell at 127.0.0.1:$SHELL_PORT)" >&2
    export IIOD_PORT SHELL_PORT QEMU_PID
}

# Never fails: it runs in run.sh's EXIT trap under `set -e`, where a failing command would
# replace the tests' exit status (qemu may well be gone already).
vm_stop() {
    local pid=${QEMU_PID:-$(cat "$WORK/qemu.pid" 2>/dev/null || true)}
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in 1 2 3 4 5; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$WORK/qemu.pid"
    return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    case ${1:-} in
        start) eval "$("$HERE/build-guest.sh")"; vm_start "$KERNEL" "$INITRD" && echo "IIOD_PORT=$IIOD_PORT SHELL_PORT=$SHELL_PORT QEMU_PID=$QEMU_PID" ;;
        stop) vm_stop ;;
        *) echo "usage: vm.sh start|stop" >&2; exit 2 ;;
    esac
fi
