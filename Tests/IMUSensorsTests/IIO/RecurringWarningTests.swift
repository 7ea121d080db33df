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

    /// Kernel stamps have nothing to say.
    @Test func kernelStampsSayNothing() {
        let stamps = ScanStamps.choose(timestampChannel: true, clockAttribute: true, readBack: .success("boottime"))
        #expect(stamps.warning(device: "bmi160") == nil && stamps.recurrence(device: "bmi160", times: 2) == nil)
    }
}
