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
        // Ticks are multiples of `step` in the label's own scale (elapsed or local clock seconds),
        // piece by piece: the local clock jumps at a daylight-saving change, and each side of it
        // is labelled with its own offset.
        var out: [(Double, String)] = []
        let pieces = self.pieces()
        for (k, piece) in pieces.enumerated() {
            let last = k == pieces.count - 1
            // Label seconds are some 1.8e9 s since 1970 on a clock: sums of them are exact only to
            // 0.25 µs, so a tick exactly at a piece's start or end is matched within a
            // millionth of a step (a tick at a change belongs to the piece after it).
            let slack = 1e-6 * step
            var v = ceil((piece.from + piece.offset - slack) / step) * step
            while last ? v - piece.offset <= to + slack : v - piece.offset < piece.to - slack {
                out.append((v - piece.offset, label(v, step: step)))
                v += step
            }
        }
        return out
    }

    /// Axis title: what the numbers are.
    var title: String {
        if let clock {
            let zone = TimeZone(secondsFromGMT: clock.secondsFromGMT(at: clock.start)) ?? clock.timeZone
            return "local time (\(clock.zoneName)); recording started \(Self.dateText(clock.start, clock.utcOffset == nil ? clock.timeZone : zone))"
        }
        let span = to - firstSample
        let unit = span < 60 ? "s" : span < 3600 ? "m:ss" : "h:mm:ss"
        return "time since the first sample (\(unit)); the first sample is at t = \(Number.text(firstSample, decimals: 3)) s"
    }

    /// The longest stretch, s, searched at once for a change of the local clock's UTC offset: no
    /// zone changes it twice within an hour (daylight-saving changes are months apart).
    static let offsetSearchSeconds = 3600.0

    /// The plotted span cut where the local clock's UTC offset changes, each piece with the
    /// offset that turns its recording seconds into label seconds (label = t + offset). One piece
    /// without a clock, or without a change. A recording labelled with its start's offset
    /// throughout read an hour off after a change (TZ=EST5EDT,M3.2.0,M11.1.0 across 07:00 UTC on
    /// 2026-03-08 showed 02:00 to 02:59, hours that never were).
    private func pieces() -> [(from: Double, to: Double, offset: Double)] {
        guard let clock else { return [(from, to, -firstSample)] }
        let shift = clock.start.timeIntervalSince1970 - firstSample     // wall seconds = t + shift
        func offset(_ t: Double) -> Double { shift + Double(clock.secondsFromGMT(at: Date(timeIntervalSince1970: t + shift))) }
        var pieces: [(Double, Double, Double)] = []
        var start = from, current = offset(from), probe = from
        while probe < to {
            let next = Swift.min(probe + Self.offsetSearchSeconds, to)
            guard offset(next) != current else { probe = next; continue }
            // The change lies in (probe, next]: halve it down to a millisecond. Zones change on a
            // whole second of UTC (the C library's and Foundation's transitions are whole
            // seconds), the one at or before the upper end.
            var (lo, hi) = (probe, next)
            while hi - lo > 1e-3 {
                let mid = (lo + hi) / 2
                if offset(mid) == current { lo = mid } else { hi = mid }
            }
            let change = Swift.max(lo, (hi + shift).rounded(.down) - shift)
            pieces.append((start, change, current))
            (start, current, probe) = (change, offset(hi), hi)
        }
        pieces.append((start, to, current))
        return pieces
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
