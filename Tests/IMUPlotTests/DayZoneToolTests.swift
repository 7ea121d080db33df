import Foundation
import OffPool
import Testing

/// `imu-plot --day` cuts its day in the C library's zone (`LocalTime`), as `imu-steps --history`
/// does. It took Foundation's `TimeZone.current`, which reads an empty TZ, a TZ naming no zone
/// and a POSIX rule all as the system's zone (/etc/localtime), and said nothing of an unknown TZ.
/// The history is DayToolTests' demo walk at 07:00 UTC on 1 December 2026.
@Suite(.offPool, .serialized) struct DayZoneToolTests {
    static func page(tz: String) throws -> (html: String, stderr: String, steps: Int) {
        let dir = try BuiltTool.temporaryDirectory()
        let (history, totals) = try DayToolTests.makeHistory(dir)
        #expect(totals.steps > 100, "the demo walk has well over a hundred steps: \(totals.steps)")
        let page = dir.appendingPathComponent("day.html").path
        let r = try BuiltTool.run("imu-plot", ["--day", "2026-12-01", "--history", history, "-o", page], environment: ["TZ": tz])
        #expect(r.status == 0, "imu-plot with TZ='\(tz)': \(r.stderr)")
        return (try String(contentsOfFile: page, encoding: .utf8), r.stderr, totals.steps)
    }

    /// The steps of the bar of the day's hour `hour` (0: from midnight), nil when it has none (no steps).
    static func steps(_ html: String, hour: Int) -> Int? {
        guard let r = html.range(of: "data-hour=\"\(hour)\" data-steps=\"") else { return nil }
        return Int(html[r.upperBound...].prefix { $0.isNumber })
    }

    /// glibc runs a POSIX rule as written: 07:00 UTC is 12:30 at UTC+5:30. Foundation drew the
    /// walk in the system's zone's hour (08 in Paris, 07 in UTC).
    @Test func aPosixRuleIsTheDaysZone() throws {
        let (html, stderr, walk) = try Self.page(tz: "<+0530>-5:30")
        #expect(Self.steps(html, hour: 12) == walk && Self.steps(html, hour: 7) == nil, "the walk in the 12:00 bar, none in the 07:00 one")
        #expect(!stderr.contains("warning: TZ="), "\(stderr)")
    }

    /// A TZ naming no zone runs on UTC, and the tool says so once, as imu-steps does.
    @Test func anUnknownZoneIsUTCAndSaidOnce() throws {
        let (html, stderr, walk) = try Self.page(tz: "Nowhere/Land")
        let warning = "imu-plot: warning: TZ='Nowhere/Land' names no time zone this system knows"
        #expect(stderr.components(separatedBy: warning).count == 2, "\(stderr)")
        #expect(html.contains("Tuesday 1 December 2026"))
        #expect(Self.steps(html, hour: 7) == walk, "the walk in the 07:00 bar")
    }

    /// TZ=":" is UTC on purpose (glibc reads an empty zone file name as UTC): no warning, the walk
    /// at 07:00. An empty TZ is the system's zone, as when unset: no warning either.
    @Test func colonIsUTCAndEmptyIsNoUnknownZone() throws {
        let (html, stderr, walk) = try Self.page(tz: ":")
        #expect(!stderr.contains("warning: TZ="), "\(stderr)")
        #expect(Self.steps(html, hour: 7) == walk, "the walk in the 07:00 bar")
        let (_, emptyStderr, _) = try Self.page(tz: "")
        #expect(!emptyStderr.contains("warning: TZ="), "\(emptyStderr)")
    }
}
