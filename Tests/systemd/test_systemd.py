#!/usr/bin/env python3
"""The step service under a real systemd (docs/testing-systemd.md): boots the machine that
build-image.sh made (Debian 12, systemd as PID 1, Debian's kernel under qemu), where
guest/check.sh installs the package and checks the service as a user would, one result line per
check on the guest's second serial port. Each check is a test here. Run through run.sh, which
sets KERNEL, INITRD and IMAGE; the last line is 'N passed, N failed, N skipped'.
"""
import os
import re
import subprocess
import sys
import time
import unittest

WORK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "test-systemd")
# Boot (about 40 s under TCG), the checks (about 3 min, most of it the watchdog's 30 s, the walk
# and the restarts), and the power-off; on a host loaded by other jobs, TCG runs a few times slower.
DEADLINE_S = 600

# What check.sh reports, in its order. A check missing from the results failed too: the guest
# stopped before it (the console log says why).
CHECKS = [
    "boot", "sensor-fixture", "install", "install-disabled", "udev-rules", "enable-now", "active-running",
    "ready-status", "service-user", "sandbox", "state-directory", "journal", "sensor", "clock-storage",
    "journal-sensor", "bus-root-read", "bus-user-read", "bus-user-denied", "bus-group-control", "bus-root-reset",
    "walk-counted", "today-tool", "second-daemon", "second-daemon-files", "watchdog", "watchdog-keeps-today",
    "stop", "today-not-running", "start-keeps-today", "remove",
]


class Guest:
    """One boot of the test machine; its results once check.sh said DONE or qemu stopped."""

    def __init__(self):
        self.console = os.path.join(WORK, "console.log")
        self.results_path = os.path.join(WORK, "results.log")
        for path in (self.console, self.results_path):
            open(path, "w").close()
        args = ["qemu-system-x86_64", "-accel", "tcg", "-m", "1024", "-smp", "2",
                "-display", "none", "-monitor", "none", "-no-reboot", "-nic", "none",
                "-kernel", os.environ["KERNEL"], "-initrd", os.environ["INITRD"],
                # cache=unsafe: the guest's flushes (dpkg syncs every file it unpacks) stay in the host's
                # page cache; the disk is thrown away after the run.
                "-drive", f"file={os.environ['IMAGE']},format=raw,if=virtio,cache=unsafe",
                "-append", "console=ttyS0 panic=-1 systemd.firstboot=off systemd.show_status=1",
                "-serial", f"file:{self.console}", "-serial", f"file:{self.results_path}"]
        started = time.monotonic()
        qemu = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            while qemu.poll() is None and not self.done() and time.monotonic() - started < DEADLINE_S:
                time.sleep(1)
            self.timed_out = qemu.poll() is None and not self.done()
            # The guest powers off after DONE; give it a little time, then stop qemu regardless
            # (SIGKILL: the test runner's children may have SIGTERM blocked).
            end = time.monotonic() + 30
            while qemu.poll() is None and time.monotonic() < end:
                time.sleep(1)
        finally:
            if qemu.poll() is None:
                qemu.kill()
            self.qemu_output = qemu.communicate()[0].decode(errors="replace")
        self.seconds = time.monotonic() - started
        self.checks, self.notes, self.log = {}, [], []
        with open(self.results_path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = re.match(r"CHECK (PASS|FAIL) (\S+) \| (.*)", line)
                if m:
                    self.checks[m.group(2)] = (m.group(1), m.group(3))
                elif line.startswith("NOTE "):
                    self.notes.append(line[5:])
                elif line.startswith("LOG "):
                    self.log.append(line[4:])

    def done(self):
        with open(self.results_path, errors="replace") as f:
            return "DONE" in f.read()

    def console_tail(self, lines=40):
        with open(self.console, errors="replace") as f:
            return "".join(f.readlines()[-lines:])


class SystemdService(unittest.TestCase):
    guest = None

    @classmethod
    def setUpClass(cls):
        cls.guest = Guest()
        g = cls.guest
        print(f"[guest ran {g.seconds:.0f} s; {'TIMED OUT, ' if g.timed_out else ''}"
              f"{sum(1 for s, _ in g.checks.values() if s == 'PASS')} of {len(CHECKS)} checks passed]", flush=True)
        for n in g.notes:
            print(f"  note: {n}", flush=True)

    def verdict(self, name):
        g = self.guest
        if name not in g.checks:
            self.fail(f"{name}: no result; the guest stopped before it ({'timed out after ' + str(DEADLINE_S) + ' s' if g.timed_out else 'qemu exited'}). "
                      f"qemu: {g.qemu_output[-500:]}\nconsole:\n{g.console_tail()}")
        status, detail = g.checks[name]
        print(f"[{detail[:300]}] ", end="", flush=True)
        self.assertEqual(status, "PASS", f"{name}: {detail}\njournalctl -u imu-stepd (last lines):\n" + "\n".join(g.log))


def _make(name):
    return lambda self: self.verdict(name)


for i, check in enumerate(CHECKS):
    setattr(SystemdService, f"test_{i + 1:02d}_{check.replace('-', '_')}", _make(check))


if __name__ == "__main__":
    for key in ("KERNEL", "INITRD", "IMAGE"):
        if not os.environ.get(key):
            sys.exit(f"test_systemd.py: run it through Tests/systemd/run.sh ({key} unset)")
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(SystemdService)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors)
    skipped = len(result.skipped)
    print(f"{result.testsRun - failed - skipped} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed else 0)
