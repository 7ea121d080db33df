#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import IMUCore

/// Calendar days in a time zone. A day runs from local midnight to the next local midnight, which
/// is 23 hours on the spring daylight-saving day and 25 on the autumn one; "midnight plus
/// 86 400 s" would cut an hour off one evening and count an hour of the next day on the other.
public enum LocalDay {
    /// The local day containing `date` in this process's zone, as the C library reads it
    /// (IMUCore's `LocalTime.day`): the very day the tools and the D-Bus client take for "today",
    /// so the daemon's today and theirs agree across the bus (`TimeZone.current` is GMT in a
    /// process that links only FoundationEssentials; docs/memory.md).
    public static func interval(containing date: Date) -> DateInterval {
        let day = LocalTime.day(containing: date.timeIntervalSince1970)
        return DateInterval(start: Date(timeIntervalSince1970: day.start), end: Date(timeIntervalSince1970: day.end))
    }

    /// The local day containing `date` in a named zone (one a client asked for by its IANA name).
    public static func interval(containing date: Date, in timeZone: TimeZone) -> DateInterval {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: date)
        // Adding one calendar day lands on the next midnight whatever the day's length.
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return DateInterval(start: start, end: end)
    }
}
