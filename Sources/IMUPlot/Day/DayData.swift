import Foundation
import IMUHistory

/// What the day report draws: one local day's hours and activities, and where they came from.
public struct DayData: Sendable {
    /// Local midnight to the next local midnight.
    public var start: Date
    public var end: Date
    public var timeZone: TimeZone
    /// One entry per hour of the local clock (`HistoryStore.totals` over each hour).
    public var hours: [HistoryTotals]
    public var activities: [HistoryActivity]
    /// The history file the figures came from (named on the page).
    public var source: String
    /// The local clock's offset from UTC at an instant, seconds, when it is not `timeZone`'s: a
    /// POSIX TZ rule (EST5EDT,M3.2.0,M11.1.0), whose daylight-saving changes no Foundation zone
    /// holds, read through the C library. Nil: `timeZone` tells every hour.
    public var utcOffset: (@Sendable (Date) -> Int)?
    /// How the page names the local clock when `timeZone`'s identifier would not ("GMT-0500" for
    /// TZ=EST5EDT,M3.2.0,M11.1.0, which is an hour off half the year): the rule, or a zone name
    /// Foundation does not know (one under TZDIR). Nil: `timeZone.identifier`.
    public var zoneLabel: String?

    /// The local clock's name on the page.
    public var zoneName: String { zoneLabel ?? timeZone.identifier }

    public init(start: Date, end: Date, timeZone: TimeZone, hours: [HistoryTotals], activities: [HistoryActivity], source: String,
                utcOffset: (@Sendable (Date) -> Int)? = nil, zoneLabel: String? = nil) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.hours = hours
        self.activities = activities
        self.source = source
        self.utcOffset = utcOffset
        self.zoneLabel = zoneLabel
    }

    /// The zone that reads `date` on the local clock: `timeZone`, or the rule's offset at that instant.
    public func zone(at date: Date) -> TimeZone {
        guard let utcOffset else { return timeZone }
        return TimeZone(secondsFromGMT: utcOffset(date)) ?? timeZone
    }

    public var steps: Int { hours.reduce(0) { $0 + $1.steps } }
    public var distanceMeters: Double { hours.reduce(0) { $0 + $1.distanceMeters } }
    public var floorsAscended: Int { hours.reduce(0) { $0 + $1.floorsAscended } }
    public var floorsDescended: Int { hours.reduce(0) { $0 + $1.floorsDescended } }
    public var activeSeconds: Double { hours.reduce(0) { $0 + $1.activeSeconds } }
    /// Nothing at all was recorded that day.
    public var isEmpty: Bool {
        activities.isEmpty && steps == 0 && floorsAscended == 0 && floorsDescended == 0 && activeSeconds == 0
    }

    /// The local hours of the day `date` falls in: [(start, end)], 23 to 25 of them.
    public static func hours(ofDayContaining date: Date, in zone: TimeZone) -> (start: Date, end: Date, hours: [(Date, Date)]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86400)
        return (start, end, hours(from: start, to: end))
    }

    /// Whole hours of elapsed time from `start` to `end` (a day: a DST day has 23 or 25 of them,
    /// each labelled by its local start); the last one is cut at `end`.
    public static func hours(from start: Date, to end: Date) -> [(Date, Date)] {
        var hours: [(Date, Date)] = []
        var h = start
        while h < end {
            let next = Swift.min(end, h.addingTimeInterval(3600))
            hours.append((h, next))
            h = next
        }
        return hours
    }
}
