/// Locale-independent number text for SVG coordinates and labels (always a '.' decimal point,
/// never "-0").
enum Number {
    /// `value` rounded to `decimals` places (0…6), trailing zeros kept.
    static func text(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        // |value| beyond 9e15 / scale cannot be an integer count of units: print it unrounded.
        guard abs(scaled) < 9e15 else { return String(value) }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        let unit = Int64(scale)
        var s = String(n / unit)
        if decimals > 0 {
            var fraction = String(n % unit)
            while fraction.count < decimals { fraction = "0" + fraction }
            s += "." + fraction
        }
        return negative && n != 0 ? "-" + s : s
    }

    /// A coordinate in px with one decimal, trailing ".0" dropped (keeps large SVGs small).
    static func px(_ value: Double) -> String {
        let s = text(value, decimals: 1)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
    }

    /// A label value: as few decimals as the step between labels needs.
    static func label(_ value: Double, step: Double) -> String {
        var decimals = 0
        var s = step
        while decimals < 3 && abs(s - s.rounded()) > 1e-9 { s *= 10; decimals += 1 }
        return text(value, decimals: decimals)
    }

    /// Seconds as m:ss, or h:mm:ss from an hour on.
    static func duration(_ seconds: Double) -> String {
        let total = Int(Swift.max(0, seconds).rounded())
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
