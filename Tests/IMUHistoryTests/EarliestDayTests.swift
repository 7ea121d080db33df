import Foundation
import IMUCore
import Testing
import IMUHistory

/// The first local day a history can hold: one function, which imu-steps (--since) and imu-plot
/// (--day) both name when they refuse an earlier time.
@Suite struct EarliestDayTests {
    /// Its midnight starts the local day that holds 2024-01-01T00:00Z, and its text is that day's
    /// date: 2024-01-01 where the zone is UTC or east of it (offset ≥ 0 at that instant), the day
    /// before west of it. Checked against the process's own zone, whatever it is.
    @Test func theFirstDayHoldsTheEarliestPlausibleInstant() {
        let (start, text) = HistoryStore.earliestPlausibleDay()
        let instant = HistoryStore.earliestPlausibleDate.timeIntervalSince1970
        #expect(start <= instant, "midnight \(start) is after \(instant)")
        // A local day is 23 to 25 hours long (daylight saving); 1 January holds no change anywhere.
        #expect(instant - start < 25 * 3600, "midnight \(start) is more than a day before \(instant)")
        let midnight = LocalTime.fields(start)
        #expect(midnight.hour == 0 && midnight.minute == 0 && midnight.second == 0, "\(midnight)")
        let offset = LocalTime.fields(instant).utcOffsetSeconds
        #expect(text == (offset >= 0 ? "2024-01-01" : "2023-12-31"), "offset \(offset) s")
        #expect(text == LocalTime.isoDate(start) && text.count == 10)
    }
}
