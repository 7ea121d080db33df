# IMUKit build entry points. Each target installs missing Debian packages itself when run as
# root or with sudo; otherwise it prints the apt-get line and stops.
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= release

.PHONY: all build run test test-unit test-kernel bench install uninstall clean deps

all: build

deps:
	@scripts/ensure-deps.sh build

build: deps
	$(SWIFT) build -c $(CONFIG)

## The main job: live steps and floors on the first sensor found, else the built-in simulated walk.
run: build
	.build/$(CONFIG)/imu-steps

## Every test: unit, replay, tools, and (where qemu is present) the real-kernel ring.
test:
	@scripts/ensure-deps.sh test
	$(SWIFT) build -c $(CONFIG)
	$(SWIFT) test --parallel

## The real-kernel test ring (Tests/kernel, docs/testing-kernel.md): boots Debian's kernel under
## qemu with real IIO drivers on i2c-stub chips. Skips with a message when qemu is absent.
test-kernel:
	$(SWIFT) build -c release
	Tests/kernel/run.sh

## Benchmarks print figures (throughput, accuracy, bus budgets); they never fail on a number.
BENCHES := $(sort $(notdir $(wildcard Sources/Benchmarks/imu-bench-*)))
bench: deps
	$(SWIFT) build -c release
	@for b in $(BENCHES); do echo "== $$b"; .build/release/$$b || exit 1; echo; done

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	for t in .build/$(CONFIG)/imu-*; do case $$t in *.build|*bench*) ;; *) install -m 0755 $$t $(DESTDIR)$(PREFIX)/bin/ ;; esac; done

clean:
	rm -rf .build
