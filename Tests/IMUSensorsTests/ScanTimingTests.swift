import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import IMUSensors

/// Times of buffered IIO scans: every scan the kernel delivers keeps an increasing CLOCK_BOOTTIME
/// time, whatever rate the trigger runs at.
@Suite("buffered scan times: arrival spacing and the kernel's clock")
struct ScanTimingTests {
    /// A trigger at 100 Hz under `--rate 50`: blocks of 25 scans (half a second at the rate asked
    /// for) arrive every 0.25 s. Spaced at 20 ms, each block would reach 0.23 s back into the one
    /// before and about half its scans would be dropped as "time not increasing".
    @Test("a trigger faster than the rate asked for: no scan goes back in time, spacing is the real 10 ms")
    func fasterTrigger() {
        var spacing = ArrivalSpacing(nominalPeriodSeconds: 1 / 50.0)
        let triggerPeriod = 0.010, blockScans = 25
        var times: [Double] = []
        for block in 1...12 {
            let arrival = 1000 + Double(block * blockScans) * triggerPeriod + 0.0007 * Double(block % 3)   // wake-up jitter, < 1 ms
            times += spacing.times(count: blockScans, arrivalSeconds: arrival)
        }
        #expect(times.count == 12 * blockScans)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "times go back")
        // After the first block, the spacing is the trigger's period within the wake-up jitter
        // spread over a block (1.4 ms / 25 scans).
        let later = Array(times.dropFirst(blockScans))
        let intervals = zip(later, later.dropFirst()).map { $1 - $0 }
        #expect(intervals.allSatisfy { abs($0 - triggerPeriod) < 0.0014 / 25 + 1e-9 }, "\(intervals.max()!)")
        let span = later.last! - later.first!
        #expect(abs(span - Double(later.count - 1) * triggerPeriod) < 0.002, "11 blocks span \(span) s")
    }

    @Test("a slower trigger spreads the block over its arrival time too; the last scan is the arrival")
    func slowerTrigger() {
        var spacing = ArrivalSpacing(nominalPeriodSeconds: 1 / 100.0)
        _ = spacing.times(count: 50, arrivalSeconds: 10)
        let t = spacing.times(count: 25, arrivalSeconds: 11)   // 25 Hz delivered
        let empty = spacing.times(count: 0, arrivalSeconds: 12)
        #expect(t.last == 11)
        #expect(abs(t[1] - t[0] - 0.04) < 1e-9)
        #expect(t.first! > 10)
        #expect(empty.isEmpty)
    }

    @Test("the kernel's clock names map to POSIX clocks; boottime needs no shift, realtime's is the epoch gap")
    func kernelClocks() throws {
        let boot = try #require(KernelStampClock(kernelName: "boottime\n"))
        #expect(boot.isBootTime && boot.bootTimeOffsetNanoseconds() == 0)
        let real = try #require(KernelStampClock(kernelName: "realtime"))
        // CLOCK_REALTIME counts from 1970, CLOCK_BOOTTIME from boot: the shift is negative and
        // at least the 50 years between 1970 and this code (1.5e9 s).
        #expect(real.bootTimeOffsetNanoseconds() < -1_500_000_000 * 1_000_000_000)
        let mono = try #require(KernelStampClock(kernelName: "monotonic"))
        // BOOTTIME = MONOTONIC + time suspended: never negative.
        #expect(mono.bootTimeOffsetNanoseconds() >= -1_000_000, "a read-to-read delay below 1 ms")
        #expect(KernelStampClock(kernelName: "sundial") == nil)
    }

    @Test("a trigger at 100 Hz under --rate 50 is reported once, naming the trigger, both rates and the fix")
    func mismatchReported() throws {
        var check = TriggerRateCheck(trigger: "imukit-tick", deviceHz: 50, askedHz: 50)
        let none = check.check(deliveredPeriodSeconds: nil)
        #expect(none == nil, "nothing measured yet")
        let first = check.check(deliveredPeriodSeconds: 0.0101)
        let warning = try #require(first)
        #expect(warning.contains("trigger imukit-tick delivers 99 Hz, not the 50 Hz asked for"), "\(warning)")
        #expect(warning.contains("every scan is kept") && warning.contains("--rate 99"), "\(warning)")
        let again = check.check(deliveredPeriodSeconds: 0.0101)
        #expect(again == nil, "said once")
        // The chip's own data-ready trigger at the chip's rate (52 Hz chosen for 50 asked): silent.
        var own = TriggerRateCheck(trigger: "lsm6dsl-trigger", deviceHz: 52, askedHz: 50)
        let ownWarning = own.check(deliveredPeriodSeconds: 1 / 52.3)
        #expect(ownWarning == nil)
        var slow = TriggerRateCheck(trigger: "imukit-tick", deviceHz: 100, askedHz: 100)
        let slowWarning = slow.check(deliveredPeriodSeconds: 0.04)
        #expect(slowWarning?.contains("delivers 25 Hz") == true, "\(slowWarning ?? "none")")
    }

    @Test("kernel stamps when the clock reads back as a known name; otherwise the fallback with its reason, said once")
    func stampChoice() throws {
        let boot = ScanStamps.choose(timestampChannel: true, clockAttribute: true, readBack: .success("boottime"))
        #expect(boot.clock?.isBootTime == true)
        #expect(boot.warning(device: "bmi160") == nil, "kernel stamps need no word")
        let real = ScanStamps.choose(timestampChannel: true, clockAttribute: true, readBack: .success("realtime"))
        #expect(real.clock?.name == "realtime", "another clock is shifted, not given up")
        let cases: [(ScanStamps, String)] = [
            (.choose(timestampChannel: false, clockAttribute: true, readBack: nil), "no timestamp channel"),
            (.choose(timestampChannel: true, clockAttribute: false, readBack: nil), "no current_timestamp_clock"),
            (.choose(timestampChannel: true, clockAttribute: true, readBack: .failure(.init(EBUSY))), "errno \(EBUSY)"),
            (.choose(timestampChannel: true, clockAttribute: true, readBack: .success("sundial\u{1B}[2J")), "'sundial\\x1B[2J'"),
        ]
        #expect(boot.timing == .kernelStamps(clock: "boottime"))
        #expect(real.timing.clockLine?.contains("on its realtime clock, shifted to CLOCK_BOOTTIME") == true)
        for (stamps, reason) in cases {
            #expect(stamps.clock == nil)
            // A recording's clock line says the fallback and why, as the warning does.
            #expect(stamps.timing.clockLine?.contains("when each IIO buffer block arrived") == true)
            #expect(stamps.timing.clockLine?.contains(reason) == true, "\(stamps.timing)")
            let warning = try #require(stamps.warning(device: "bmi160"))
            #expect(warning.hasPrefix("bmi160: scans are timed by when each block arrived"), "\(warning)")
            #expect(warning.contains(reason), "\(warning)")
            #expect(!warning.contains("\u{1B}"), "text from the kernel escaped")
        }
    }
}
