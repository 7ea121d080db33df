import Synchronization
import Testing
@testable import IMUSensors

/// The fallback to arrival times (`ScanStamps`) was said in full each time `?resume` reopened the
/// capture: one long line per reopening, all day for a device that comes and goes.
@Suite struct RecurringWarningTests {
    final class Lines: Sendable {
        let said = Mutex<[String]>([])
        var all: [String] { said.withLock { $0 } }
        var emit: @Sendable (String) -> Void { { line in self.said.withLock { $0.append(line) } } }
    }

    /// Nine captures meeting the same fallback: the reason in full once, then the count at the
    /// 2nd, 4th and 8th capture, each naming the device; every capture counted.
    @Test func theFallbackIsSaidOnceThenCountedAtPowersOfTwo() {
        let lines = Lines()
        let warnings = RecurringWarning(emit: lines.emit)
        let stamps = ScanStamps.choose(timestampChannel: false, clockAttribute: false, readBack: nil)
        let full = stamps.warning(device: "bmi160")!
        for _ in 0..<9 {
            warnings.meet(full, full: full, again: { stamps.recurrence(device: "bmi160", times: $0)! })
        }
        #expect(lines.all.count == 4)
        #expect(lines.all.first == full && full.contains("no timestamp channel"))
        #expect(Array(lines.all.dropFirst()) == ["2", "4", "8"].map { "bmi160: scans again timed by when each block arrived, for the reason said above (\($0) captures this run)" })
        #expect(warnings.count(full) == 9)
    }

    /// Another reason is news: said in full, counted apart.
    @Test func anotherReasonIsSaidInFull() {
        let lines = Lines()
        let warnings = RecurringWarning(emit: lines.emit)
        let a = ScanStamps.choose(timestampChannel: false, clockAttribute: false, readBack: nil).warning(device: "bmi160")!
        let b = ScanStamps.choose(timestampChannel: true, clockAttribute: false, readBack: nil).warning(device: "bmi160")!
        for w in [a, b, a] { warnings.meet(w, full: w, again: { "again \($0)" }) }
        #expect(lines.all == [a, b, "again 2"])
    }

    /// A trigger left at another rate was said in full by every capture `?resume` reopened (each
    /// capture has its own `TriggerRateCheck`): nine captures now say it once, then the count at
    /// the 2nd, 4th and 8th; a trigger at the rate asked for says nothing and counts nothing.
    @Test func theTriggerRateWarningIsSaidOnceThenCounted() {
        let lines = Lines()
        let warnings = RecurringWarning(emit: lines.emit)
        for capture in 0..<9 {
            var check = TriggerRateCheck(trigger: "imukit-tick", deviceHz: 50, askedHz: 50)
            // The delivered rate wanders a little from capture to capture: still the same warning.
            check.report(deliveredPeriodSeconds: 0.0100 + 0.0001 * Double(capture % 2), to: warnings)
            check.report(deliveredPeriodSeconds: 0.0100, to: warnings)
            var own = TriggerRateCheck(trigger: "lsm6dsl-trigger", deviceHz: 52, askedHz: 50)
            own.report(deliveredPeriodSeconds: 1 / 52.3, to: warnings)
        }
        #expect(lines.all.count == 4, "\(lines.all)")
        #expect(lines.all.first?.hasPrefix("trigger imukit-tick delivers 100 Hz, not the 50 Hz asked for") == true, "\(lines.all)")
        #expect(Array(lines.all.dropFirst()) == ["2", "4", "8"].map {
            "trigger imukit-tick again delivers another rate than the 50 Hz asked for, as said above (\($0) captures this run)"
        })
    }

    /// Kernel stamps have nothing to say.
    @Test func kernelStampsSayNothing() {
        let stamps = ScanStamps.choose(timestampChannel: true, clockAttribute: true, readBack: .success("boottime"))
        #expect(stamps.warning(device: "bmi160") == nil && stamps.recurrence(device: "bmi160", times: 2) == nil)
    }
}
