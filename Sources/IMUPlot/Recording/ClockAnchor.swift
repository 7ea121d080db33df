import Foundation

/// Ties a recording to the wall clock: the local date and time of its first sample. `imu-record`
/// writes `# started: 2026-11-30T18:47:21Z` when it starts, which the tool reads as the time of the
/// first sample (the sensor starts within a fraction of a second of that line being written).
public struct ClockAnchor: Sendable, Equatable {
    /// Wall-clock date of the first sample.
    public var start: Date
    public var timeZone: TimeZone
    /// The local clock's UTC offset at an instant, s, when no Foundation zone holds it: a POSIX
    /// TZ rule (EST5EDT,M3.2.0,M11.1.0) read through the C library. Nil: `timeZone` tells it.
    /// Each instant is labelled with its own offset, so a recording that crosses a daylight-saving
    /// change is labelled on both sides of it.
    public var utcOffset: (@Sendable (Date) -> Int)?
    /// How the axis names the local clock when `timeZone`'s identifier would not ("GMT-0500" for
    /// a rule, an hour off half the year): the rule as TZ gave it. Nil: `timeZone.identifier`.
    public var zoneLabel: String?

    public init(start: Date, timeZone: TimeZone = .current, utcOffset: (@Sendable (Date) -> Int)? = nil, zoneLabel: String? = nil) {
        self.start = start
        self.timeZone = timeZone
        self.utcOffset = utcOffset
        self.zoneLabel = zoneLabel
    }

    /// The local clock's offset from UTC at `date`, s.
    public func secondsFromGMT(at date: Date) -> Int { utcOffset?(date) ?? timeZone.secondsFromGMT(for: date) }

    /// The local clock's name on the axis.
    public var zoneName: String { zoneLabel ?? timeZone.identifier }

    /// Equal when they anchor at the same instant in the same named clock (an offset function
    /// cannot be compared: the label names the rule it follows).
    public static func == (a: ClockAnchor, b: ClockAnchor) -> Bool {
        a.start == b.start && a.timeZone == b.timeZone && a.zoneLabel == b.zoneLabel && (a.utcOffset == nil) == (b.utcOffset == nil)
    }

    /// The anchor from a recording's comment lines (`started: ISO-8601`), if it has one.
    public static func fromComments(_ comments: [String], timeZone: TimeZone = .current) -> ClockAnchor? {
        for c in comments where c.hasPrefix("started:") {
            let text = c.dropFirst("started:".count).trimmingCharacters(in: .whitespaces)
            let f = ISO8601DateFormatter()
            if let d = f.date(from: text) { return ClockAnchor(start: d, timeZone: timeZone) }
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let d = f.date(from: text) { return ClockAnchor(start: d, timeZone: timeZone) }
        }
        return nil
    }
}
