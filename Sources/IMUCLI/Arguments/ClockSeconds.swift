import IMUCore

/// A time offset written as seconds ("90", "90.5") or m:ss / h:mm:ss ("1:30", "1:02:03").
public enum ClockSeconds {
    /// Largest offset accepted, seconds: about 31 years, far past any recording, and small
    /// enough that the sum stays exact to well under a millisecond in a Double.
    static let limitSeconds = 1e9

    /// The offset in seconds, or nil for anything else (negative, a part after a colon of 60 or
    /// more, decimals before the last part, more than three parts).
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let v = DecimalParser.parse(String(part)), v.isFinite, v >= 0 else { return nil }
            // Minutes and seconds after a colon stay below 60; only the last part may have decimals.
            if i > 0 && v >= 60 { return nil }
            if i < parts.count - 1 && v != v.rounded() { return nil }
            total = total * 60 + v
        }
        return total < limitSeconds ? total : nil
    }
}
