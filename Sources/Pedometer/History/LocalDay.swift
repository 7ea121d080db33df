#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Calendar days in a time zone. A day runs from local midnight to the next local midnight, which
/// is 23 hours on the spring daylight-saving day and 25 on the autumn one; "midnight plus
/// 86 400 s" would cut an hour off one evening and count an hour of the next day on the other.
public enum LocalDay {
    /// The local day containing `date` in `timeZone` (default: the current time zone, which is GMT in a
    /// process that links only FoundationEssentials, as imu-steps does: it uses IMUCore's
    /// `LocalTime`, the C library's zone; docs/memory.md).
    public static func interval(containing date: Date, in timeZone: TimeZone = .current) -> DateInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: date)
        // Adding one calendar day lands on the next midnight whatever the day's length.
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return DateInterval(start: start, end: end)
    }
}
