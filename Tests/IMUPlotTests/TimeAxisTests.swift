import Foundation
import Testing
@testable import IMUPlot

@Suite struct TimeAxisTests {
    @Test func elapsedTimeIsLabelledInMinutesAndSecondsOnRoundValues() {
        let axis = TimeAxis(from: 1000, to: 1120, firstSample: 1000, clock: nil)
        let ticks = axis.ticks(width: 1120)
        #expect(ticks.map(\.label) == ["0:00", "0:10", "0:20", "0:30", "0:40", "0:50", "1:00", "1:10", "1:20", "1:30", "1:40", "1:50", "2:00"])
        #expect(ticks.first?.time == 1000)
        #expect(axis.title.contains("t = 1000.000 s"))
    }

    @Test func aViewInsideTheRecordingKeepsTimeSinceTheFirstSample() {
        let axis = TimeAxis(from: 3600 + 100, to: 3600 + 160, firstSample: 100, clock: nil)
        let labels = axis.ticks(width: 600).map(\.label)
        #expect(labels.first == "1:00:00")
        #expect(labels.contains("1:00:30"))
    }

    @Test func shortRecordingsAreLabelledInSeconds() {
        let labels = TimeAxis(from: 0, to: 3, firstSample: 0, clock: nil).ticks(width: 600).map(\.label)
        #expect(labels == ["0.0 s", "0.5 s", "1.0 s", "1.5 s", "2.0 s", "2.5 s", "3.0 s"], "one number of decimals along the axis")
    }

    @Test func anAnchoredRecordingShowsTheLocalClockOnRoundMinutes() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Paris"))
        // 2026-11-30T18:47:21Z is 19:47:21 in Paris (UTC+1 in winter).
        let start = try #require(ISO8601DateFormatter().date(from: "2026-11-30T18:47:21Z"))
        let axis = TimeAxis(from: 50, to: 50 + 1800, firstSample: 50, clock: ClockAnchor(start: start, timeZone: zone))
        let ticks = axis.ticks(width: 1100)
        #expect(ticks.first?.label == "19:50")
        #expect(abs((ticks.first?.time ?? 0) - (50 + 159)) < 1e-6, "19:50:00 is 159 s after 19:47:21")
        #expect(ticks.map(\.label).contains("20:15"))
        #expect(axis.title.contains("Europe/Paris") && axis.title.contains("2026-11-30 19:47:21"))
    }

    /// A recording across the spring change of TZ=EST5EDT,M3.2.0,M11.1.0 (2026-03-08 07:00 UTC:
    /// 02:00 EST becomes 03:00 EDT) was labelled with the start's offset throughout: 02:00 to
    /// 02:10, hours that never were. Each tick now reads its own instant's offset, from the rule
    /// (the C library's offset function, injected) or from a named zone.
    @Test(arguments: [true, false]) func aRecordingAcrossADaylightSavingChangeIsLabelledWithEachInstantsOffset(rule: Bool) throws {
        let change = try #require(ISO8601DateFormatter().date(from: "2026-03-08T07:00:00Z"))
        // EST5EDT: UTC-5 before the change, UTC-4 from it (the rule's meaning, not today's output).
        let offset: @Sendable (Date) -> Int = { $0 < change ? -5 * 3600 : -4 * 3600 }
        let start = change.addingTimeInterval(-600)      // 01:50 EST
        let clock = rule ? ClockAnchor(start: start, timeZone: try #require(TimeZone(secondsFromGMT: -5 * 3600)), utcOffset: offset,
                                       zoneLabel: "TZ=EST5EDT,M3.2.0,M11.1.0")
            : ClockAnchor(start: start, timeZone: try #require(TimeZone(identifier: "America/New_York")))
        let axis = TimeAxis(from: 20, to: 20 + 1200, firstSample: 20, clock: clock)
        let ticks = axis.ticks(width: 1100)
        for tick in ticks {
            let wall = start.addingTimeInterval(tick.time - 20)
            let local = Int(wall.timeIntervalSince1970.rounded()) + offset(wall)
            let second = (local % 86400 + 86400) % 86400
            #expect(tick.label == TimeAxis.clockText(second, seconds: false), "tick at \(wall)")
            #expect(second % 120 == 0, "ticks on round local minutes: \(tick.label)")
        }
        let labels = ticks.map(\.label)
        #expect(labels.contains("01:58") && labels.contains("03:00") && labels.contains("03:10"), "\(labels)")
        #expect(!labels.contains { $0.hasPrefix("02:") }, "no hour that never was: \(labels)")
        #expect(axis.title.contains(rule ? "TZ=EST5EDT,M3.2.0,M11.1.0" : "America/New_York") && axis.title.contains("2026-03-08 01:50:00"), "\(axis.title)")
    }

    @Test func theStartedCommentAnchorsARecording() throws {
        let anchor = try #require(ClockAnchor.fromComments(["imukit recording", "started: 2026-11-30T18:47:21Z"]))
        #expect(anchor.start.timeIntervalSince1970 == 1_796_064_441)
        #expect(ClockAnchor.fromComments(["started: yesterday"]) == nil)
        #expect(ClockAnchor.fromComments([]) == nil)
    }
}
