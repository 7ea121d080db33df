import Testing
@testable import IMUCore

/// `--since 2026-02-30` and `imu-plot --day 2026-02-30` were "needs HH:MM, YYYY-MM-DD …; got
/// '2026-02-30'", the form the user had written: the message now says which field does not exist
/// and the fix gives the nearest text that does.
@Suite struct CalendarSlipTests {
    @Test(arguments: [
        ("2026-02-30", "February 2026 has 28 days", "2026-02-28"),
        ("2024-02-30", "February 2024 has 29 days", "2024-02-29"),
        ("2026-13-01", "there is no month 13", "2026-12-01"),
        ("2026-04-00", "April 2026 has 30 days", "2026-04-01"),
        ("25:00", "hours go from 0 to 23 (midnight is 00:00)", "23:00"),
        ("12:30:60", "seconds go from 0 to 59", "12:30:59"),
        ("2026-02-29 24:00", "February 2026 has 28 days; hours go from 0 to 23 (midnight is 00:00)", "2026-02-28 23:00"),
    ])
    func aFieldOutOfItsRangeIsNamedWithTheNearestThatExists(text: String, problem: String, nearest: String) {
        #expect(CalendarSlip.of(text) == CalendarSlip(problem: problem, nearest: nearest))
    }

    /// Text that exists, or is of another shape, is no slip: the caller's own message applies.
    @Test(arguments: ["2024-02-29", "23:59", "00:00:00", "yesterday", "12.30", "2026-02", "1:2:3:4", "-1:00", ""])
    func existingOrOtherShapesAreNoSlip(text: String) {
        #expect(CalendarSlip.of(text) == nil)
    }
}
