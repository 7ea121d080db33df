# IMUKit build entry points. Each target installs missing Debian packages itself when run as
# root or with sudo; otherwise it prints the apt-get line and stops.
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= release

.PHONY: all build run test test-unit test-kernel bench bench-accuracy install install-udev install-service uninstall clean deps fuzz test-sanitize

all: build

deps:
	@scripts/ensure-deps.sh build

build: deps
	$(SWIFT) build -c $(CONFIG) $(STATIC_STDLIB) --scratch-path $(TOOLS_BUILD)

## The main job: live steps and floors on the first sensor found, else the built-in simulated walk.
run: build
	$(TOOLS_BIN)/imu-steps

## Every test: unit, replay, tools, and (where qemu is present) the real-kernel ring.
test:
	@scripts/ensure-deps.sh kernel
	$(SWIFT) build -c $(CONFIG)
	$(SWIFT) test --parallel
	Tests/Fuzz/run.sh $(FUZZ_TEST_SECONDS)
	Tests/kernel/run.sh
	$(MAKE) test-asan

## The real-kernel test ring (Tests/kernel, docs/testing-kernel.md): boots Debian's kernel under
## qemu with real IIO drivers on i2c-stub chips. Skips with a message when qemu is absent.
test-kernel:
	@scripts/ensure-deps.sh kernel
	$(SWIFT) build -c release
	Tests/kernel/run.sh

## Benchmarks print figures (throughput, accuracy, bus budgets); they never fail on a number.
BENCHES := $(sort $(notdir $(wildcard Sources/Benchmarks/imu-bench-*)))
## Each bench's "figure:" lines (a figure beside its anchor from the same run) are repeated at the end.
bench: deps
	$(SWIFT) build -c release
	@# imu-bench-replay also measures the imu-steps that make build ships (Swift runtime linked in).
	$(SWIFT) build -c release $(STATIC_STDLIB) --scratch-path $(STATIC_BUILD) --product imu-steps
	@for b in $(BENCHES); do echo "== $$b"; .build/release/$$b > .build/$$b.log 2>&1; s=$$?; cat .build/$$b.log; echo; [ $$s = 0 ] || exit 1; done
	@echo "== summary: every figure beside its anchor, measured in this run"
	@for b in $(BENCHES); do if grep -q '^figure:' .build/$$b.log; then grep -h '^figure:' .build/$$b.log | sed "s/^figure: /  [$$b] /"; \
	  else echo "  [$$b] prints no figure: lines yet (its figures are in its output above)"; fi; done

## Step-count accuracy alone: Oxford recordings (../shared/data/oxford-steps or IMU_OXFORD_DIR, skipped
## with a message when absent), the repo fixtures, the simulator's scenarios, core speed and memory.
bench-accuracy: deps
	$(SWIFT) build -c release --product imu-bench-accuracy
	.build/release/imu-bench-accuracy

## The user's tools (benchmarks are not installed).
TOOLS := imu-info imu-steps imu-record imu-calibrate imu-plot imu-stepd
install: build install-udev install-service
	install -d $(DESTDIR)$(PREFIX)/bin
	for t in $(TOOLS); do install -m 0755 $(TOOLS_BIN)/$$t $(DESTDIR)$(PREFIX)/bin/; done

## Sensor access for a group, not the world (udev/60-imukit.rules); needs root.
install-udev:
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" != 0 ]; then echo "install-udev needs root: sudo make install-udev"; exit 1; fi
	install -D -m 0644 udev/60-imukit.rules $(DESTDIR)/etc/udev/rules.d/60-imukit.rules
	@if [ -z "$(DESTDIR)" ]; then groupadd -f i2c && groupadd -f iio; \
	  udevadm control --reload && udevadm trigger --settle || echo "udev is not running here: the rules apply from the next boot"; fi
	@echo "Sensor access is for members of groups i2c and iio. Add yourself, then log out and in again:"
	@echo "  sudo usermod -aG i2c,iio $${SUDO_USER:-$$(id -un)}"

clean:
	rm -rf .build

## Fuzzing (docs/testing-fuzz.md): the recording reader, calibration files and walker profiles
## under libFuzzer. `make test` runs each target FUZZ_TEST_SECONDS; `make fuzz` FUZZ_SECONDS.
## Every crash is kept in Tests/Fuzz/regressions/TARGET as a regression test.
FUZZ_TEST_SECONDS ?= 20
FUZZ_SECONDS ?= 600
fuzz:
	Tests/Fuzz/run.sh $(FUZZ_SECONDS)

## The unit tests (not the tool and kernel tests, which run processes) under AddressSanitizer
## and ThreadSanitizer, each in its own build directory (docs/testing-fuzz.md). The address half
## is the last step of `make test`, so CI runs it; the thread half is not (an open report there).
## A test that crashes there is reported by the sanitizer (its stack, with file:line) and ends the
## run: the Swift runtime's crash backtracer is off, because under a sanitizer it trips the
## sanitizer, and its orphaned swift-backtrace kept the test's output open, so `swift test` hung
## (docs/testing-crashes.md). SIGILL/SIGTRAP are how a Swift trap (fatalError, try!) ends.
SANITIZE_SKIP ?= ToolsTests
SANITIZE_CRASH_ENV := SWIFT_BACKTRACE=enable=no
SANITIZE_SIGNALS := handle_sigill=1:handle_sigtrap=1
.PHONY: test-asan test-tsan
test-sanitize: test-asan test-tsan
test-asan:
	$(SANITIZE_CRASH_ENV) ASAN_OPTIONS=$(SANITIZE_SIGNALS) LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	  $(SWIFT) test --sanitize=address --build-path .build/asan --skip $(SANITIZE_SKIP)
test-tsan:
	$(SANITIZE_CRASH_ENV) TSAN_OPTIONS=$(SANITIZE_SIGNALS) $(SWIFT) test --sanitize=thread --build-path .build/tsan --skip $(SANITIZE_SKIP)

## Packaging (docs/install.md): man pages, completions and the Debian package. The tools packaged
## and installed are $(TOOLS); --version comes from VERSION (packaging/version.sh).
MANDIR ?= $(PREFIX)/share/man
MAN_BIN ?= $(TOOLS_BIN)
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
STATIC_BUILD := .build/static
.PHONY: man install-man install-completions deb test-deb print-tools

install: install-man install-completions

print-tools:
	@echo $(TOOLS)

## Man pages from docs/man/*.in and each built tool's --help, into .build/man.
man:
	@rm -rf .build/man
	@python3 packaging/man.py --bin $(MAN_BIN) --out .build/man $(TOOLS) >/dev/null

install-man: man
	@for f in .build/man/*; do s=$${f##*.}; install -D -m 0644 $$f $(DESTDIR)$(MANDIR)/man$$s/$${f##*/} || exit 1; done

install-completions:
	install -d $(DESTDIR)$(BASH_COMPLETIONS) $(DESTDIR)$(ZSH_COMPLETIONS)
	for t in $(TOOLS); do sed 's/@TOOLS@/$(TOOLS)/' completions/imukit.bash > $(DESTDIR)$(BASH_COMPLETIONS)/$$t || exit 1; done
	sed 's/@TOOLS@/$(TOOLS)/' completions/_imukit > $(DESTDIR)$(ZSH_COMPLETIONS)/_imukit

## imukit_VERSION_ARCH.deb in .build/deb: the tools (only they: no benchmarks) with the Swift
## runtime linked in, in their own build directory so the usual build stays as it is; lintian.
deb:
	@scripts/ensure-deps.sh deb
	for t in $(TOOLS); do $(SWIFT) build -c release $(STATIC_STDLIB) --scratch-path $(STATIC_BUILD) --product $$t || exit 1; done
	packaging/build-deb.sh $(STATIC_BUILD)/release "$(TOOLS)"
	lintian --fail-on error --info .build/deb/imukit_*.deb

## Installs the package into a fresh Debian 12 root (debootstrap, cached in .build/debootstrap),
## runs a tool there without any Swift toolchain, removes and purges it, and checks what is left.
test-deb: deb
	packaging/test-deb.sh .build/deb/imukit_*.deb

## The step service imu-stepd (docs/service.md): daemon, systemd unit, D-Bus policy and interface
## description, service user (sysusers.d), example /etc/imukit/stepd.conf (kept when present); needs root.
install-service: build
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" != 0 ]; then echo "install-service needs root: sudo make install"; exit 1; fi
	install -D -m 0755 $(TOOLS_BIN)/imu-stepd $(DESTDIR)$(PREFIX)/bin/imu-stepd
	sed 's|/usr/local/bin/imu-stepd|$(PREFIX)/bin/imu-stepd|' data/imu-stepd.service > .build/imu-stepd.service
	install -D -m 0644 .build/imu-stepd.service $(DESTDIR)/etc/systemd/system/imu-stepd.service
	install -D -m 0644 data/io.github.imukit.StepService1.conf $(DESTDIR)/usr/share/dbus-1/system.d/io.github.imukit.StepService1.conf
	install -D -m 0644 data/io.github.imukit.StepService1.xml $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/io.github.imukit.StepService1.xml
	install -D -m 0644 data/imu-stepd.sysusers.conf $(DESTDIR)/etc/sysusers.d/imu-stepd.conf
	@if [ ! -e $(DESTDIR)/etc/imukit/stepd.conf ]; then install -D -m 0644 data/stepd.conf $(DESTDIR)/etc/imukit/stepd.conf; fi
	@if [ -z "$(DESTDIR)" ]; then systemd-sysusers /etc/sysusers.d/imu-stepd.conf && systemctl daemon-reload && \
	  (systemctl reload dbus 2>/dev/null || true) || echo "systemd is not running here: the service starts from the next boot"; fi
	@echo "Start the step service with:  sudo systemctl enable --now imu-stepd"
	@echo "Ask it with:                  imu-steps --today"
	@echo "Pause/Reset are for root and group imukit:  sudo usermod -aG imukit $${SUDO_USER:-$$(id -un)}"

## Memory (issue 11 part 5, docs/memory.md). The tools of `make build` (so `make run`, `make install`)
## and of `make deb` carry the Swift runtime and Foundation linked in: installed tools do not depend on
## the toolchain's lib folder (RUNPATH /opt/swift/...), and a live imu-steps maps one file instead of
## about 40 shared libraries. lld packs the executable's relative relocations (DT_RELR, glibc >= 2.36
## as in Debian 12): the loader reads 33 kB instead of 1.8 MB of them at each start. Both build in
## $(STATIC_BUILD), with the same flags, so neither rebuilds the other; tests, benches and the kernel
## ring keep the usual .build (shared runtime: the guest's initrd holds the tools, which linked
## statically would not fit its RAM). `make build STATIC_STDLIB=` builds the tools in .build as before.
STATIC_STDLIB ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
TOOLS_BUILD = $(if $(strip $(STATIC_STDLIB)),$(STATIC_BUILD),.build)
TOOLS_BIN = $(TOOLS_BUILD)/$(CONFIG)
## imu-bench-memory measures imu-steps built both ways: .build/release and this one.
.PHONY: static-steps
static-steps:
	$(SWIFT) build -c release $(STATIC_STDLIB) --scratch-path $(STATIC_BUILD) --product imu-steps
bench: static-steps
## imu-bench-replay's anchor as a plain C process: SwiftPM links its replay-c-parser through swiftc,
## with libswiftCore and libstdc++ (about 1.5 ms more start-up CPU); the bench prefers this one.
.PHONY: replay-c-parser
replay-c-parser:
	@mkdir -p .build
	$(CC) -O2 -o .build/replay-c-parser-cc Sources/Benchmarks/replay-c-parser/main.c \
	  || { rm -f .build/replay-c-parser-cc; echo "no C compiler ($(CC)): imu-bench-replay uses SwiftPM's replay-c-parser and says so"; }
bench: replay-c-parser

## The step service under a real systemd (Tests/systemd, docs/testing-systemd.md): Debian 12 with
## systemd as PID 1 in qemu (Debian's kernel, an emulated BMI160 on the real driver); the checks
## install the package there and use the service as a user would. Skips when qemu or debootstrap
## is missing; needs root.
.PHONY: test-systemd
test-systemd: deb
	@scripts/ensure-deps.sh systemd
	Tests/systemd/run.sh .build/deb/imukit_*.deb
