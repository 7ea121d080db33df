import Foundation
import Testing
@testable import IMUHistory

/// Local days computed in the queried time zone from UTC minutes, across daylight-saving changes.
@Suite struct DayTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// One step just after each local midnight and one just before it, 24-28 March 2026 in Berlin
    /// (clocks go forward on the 29th) and around 25 October (back).
    @Test func daysFollowLocalMidnightsAcrossDaylightSaving() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        let boot = mapping(boot0: "2026-03-27T00:00:00Z")
        var pedometer = FakePedometer()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        // Local midnights of 28 March … 1 April: 23:00Z before the change, 22:00Z after it.
        let midnights = (28...31).map { calendar.date(from: DateComponents(year: 2026, month: 3, day: $0))! }
        var times: [Double] = []
        for (index, midnight) in midnights.enumerated() {
            let t = boot.bootSeconds(of: midnight)
            times += Array(repeating: t + 30, count: index + 1)   // day `index` gets index + 1 steps after midnight
            times.append(t - 30)                                   // and the day before one step before it
        }
        store.record(pedometer.steps(times.sorted()), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let days = try store.days(from: midnights[0], to: midnights[3].addingTimeInterval(86_400), timeZone: berlin)
        #expect(days.map(\.steps) == [1 + 1, 2 + 1, 3 + 1, 4])
        #expect(days.map { $0.end.timeIntervalSince($0.start) } == [86_400, 82_800, 86_400, 86_400])
        #expect(days[1].start == date("2026-03-28T23:00:00Z") && days[2].start == date("2026-03-29T22:00:00Z"))
        // The autumn day lasts 25 hours; a query clipped inside it returns the clipped interval.
        let autumn = try store.days(from: date("2026-10-24T22:00:00Z"), to: date("2026-10-26T23:00:00Z"), timeZone: berlin)
        #expect(autumn.map { $0.end.timeIntervalSince($0.start) } == [90_000, 86_400])
        let clipped = try store.days(from: date("2026-03-28T12:00:00Z"), to: date("2026-03-29T12:00:00Z"), timeZone: berlin)
        #expect(clipped.map(\.start) == [date("2026-03-28T12:00:00Z"), date("2026-03-28T23:00:00Z")])
        #expect(clipped.map(\.end) == [date("2026-03-28T23:00:00Z"), date("2026-03-29T12:00:00Z")])
        #expect(clipped.map(\.steps) == [1, 2])
    }

    /// The same UTC minutes give other days in another zone, including one off the whole hour
    /// (India, UTC+05:30), where the day boundaries cut the hour sums in half.
    @Test func theSameMinutesSplitByTheQueriedZone() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        let boot = mapping(boot0: "2026-06-15T00:00:00Z")
        var pedometer = FakePedometer()
        // One step every minute for two days: 2880 steps.
        store.record(pedometer.steps(Array(stride(from: 1.0, to: 2 * 86_400, by: 60))), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let from = date("2026-06-15T00:00:00Z"), to = date("2026-06-17T00:00:00Z")
        let utc = try store.days(from: from, to: to, timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc.map(\.steps) == [1440, 1440])
        let india = try store.days(from: from, to: to, timeZone: TimeZone(identifier: "Asia/Kolkata")!)
        // 15 June local starts 14 June 18:30Z: clipped to [00:00Z, 18:30Z) = 1110 minutes.
        #expect(india.map(\.steps) == [1110, 1440, 330])
        let newYork = try store.days(from: from, to: to, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(newYork.map(\.steps) == [240, 1440, 1200])
    }
}
