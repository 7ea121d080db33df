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

    public init(start: Date, end: Date, timeZone: TimeZone, hours: [HistoryTotals], activities: [HistoryActivity], source: String) {
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.hours = hours
        self.activities = activities
        self.source = source
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
        var hours: [(Date, Date)] = []
        var h = start
        while h < end {
            // Whole hours of elapsed time: a DST day has 23 or 25 of them, each labelled by its local start.
            let next = Swift.min(end, h.addingTimeInterval(3600))
            hours.append((h, next))
            h = next
        }
        return (start, end, hours)
    }
}
