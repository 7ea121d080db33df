import Foundation

/// Ties a recording to the wall clock: the local date and time of its first sample. `imu-record`
/// writes `# started: 2026-11-30T18:47:21Z` when it starts, which the tool reads as the time of the
/// first sample (the sensor starts within a fraction of a second of that line being written).
public struct ClockAnchor: Sendable, Equatable {
    /// Wall-clock date of the first sample.
    public var start: Date
    public var timeZone: TimeZone

    public init(start: Date, timeZone: TimeZone = .current) {
        self.start = start
        self.timeZone = timeZone
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
