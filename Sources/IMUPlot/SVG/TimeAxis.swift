import Foundation

/// The shared time axis: seconds since the recording's first sample, or the local clock time when
/// the recording is anchored to the wall clock. Ticks fall on round values of the labels the
/// reader sees (whole minutes of elapsed time, or of the clock).
struct TimeAxis {
    /// Plotted span, recording seconds.
    let from: Double
    let to: Double
    let firstSample: Double
    let clock: ClockAnchor?

    /// Tick spacings to choose from, s.
    static let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
                                  7200, 10800, 21600, 43200, 86400]

    /// Labelled ticks, about one per `spacing` px of `width` px.
    func ticks(width: Double, spacing: Double = 90) -> [(time: Double, label: String)] {
        let span = to - from
        guard span > 0 else { return [] }
        let maxCount = Swift.max(2, Int(width / spacing))
        let step = Self.steps.first { span / $0 <= Double(maxCount) } ?? 86400 * ceil(span / 86400 / Double(maxCount))
        // Ticks are multiples of `step` in the label's own scale (elapsed or local clock seconds).
        let offset = labelSeconds(firstSample) - firstSample      // label seconds = t + offset
        var v = ceil((from + offset) / step - 1e-9) * step
        var out: [(Double, String)] = []
        while v - offset <= to + 1e-9 {
            out.append((v - offset, label(v, step: step)))
            v += step
        }
        return out
    }

    /// Axis title: what the numbers are.
    var title: String {
        if let clock {
            return "local time (\(clock.timeZone.identifier)); recording started \(Self.dateText(clock.start, clock.timeZone))"
        }
        let span = to - firstSample
        let unit = span < 60 ? "s" : span < 3600 ? "m:ss" : "h:mm:ss"
        return "time since the first sample (\(unit)); the first sample is at t = \(Number.text(firstSample, decimals: 3)) s"
    }

    /// Elapsed seconds, or local seconds since the epoch, of recording time `t`.
    private func labelSeconds(_ t: Double) -> Double {
        guard let clock else { return t - firstSample }
        let wall = clock.start.timeIntervalSince1970 + (t - firstSample)
        return wall + Double(clock.timeZone.secondsFromGMT(for: clock.start))
    }

    private func label(_ v: Double, step: Double) -> String {
        if clock != nil {
            let day = v.truncatingRemainder(dividingBy: 86400)
            let s = Int((day < 0 ? day + 86400 : day).rounded(.down))
            return Self.clockText(s, seconds: step < 60) + (step < 1 ? Self.tenths(v) : "")
        }
        let total = to - firstSample
        if total < 60 { return Number.label(v, step: step) + " s" }
        return step < 1 ? Number.duration(v.rounded(.down)) + Self.tenths(v) : Number.duration(v)
    }

    private static func tenths(_ v: Double) -> String {
        let d = Int((v * 10).rounded()) % 10
        return ".\(d < 0 ? -d : d)"
    }

    /// HH:MM or HH:MM:SS of a second of the day.
    static func clockText(_ secondOfDay: Int, seconds: Bool) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let h = secondOfDay / 3600 % 24, m = secondOfDay / 60 % 60, s = secondOfDay % 60
        return seconds ? "\(two(h)):\(two(m)):\(two(s))" : "\(two(h)):\(two(m))"
    }

    /// YYYY-MM-DD HH:MM:SS in `zone`.
    static func dateText(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { let v = v ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
