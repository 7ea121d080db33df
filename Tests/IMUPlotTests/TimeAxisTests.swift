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

    @Test func theStartedCommentAnchorsARecording() throws {
        let anchor = try #require(ClockAnchor.fromComments(["imukit recording", "started: 2026-11-30T18:47:21Z"]))
        #expect(anchor.start.timeIntervalSince1970 == 1_796_064_441)
        #expect(ClockAnchor.fromComments(["started: yesterday"]) == nil)
        #expect(ClockAnchor.fromComments([]) == nil)
    }
}
