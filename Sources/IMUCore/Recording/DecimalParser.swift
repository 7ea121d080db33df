/// Locale-independent decimal parsing straight from bytes: `1.5` means one and a half whatever
/// `LC_NUMERIC` says. The fast path is exact (Clinger 1990: a mantissa below 2^53 times a power of
/// ten up to 10^22 is one correctly rounded IEEE operation); anything longer goes to Swift's own
/// parser, which is also locale-independent.
public enum DecimalParser {
    /// Powers of ten exactly representable as Double (10^0 … 10^22).
    @usableFromInline static let exactPowersOfTen: [Double] = (0...22).map { e in
        var v = 1.0
        for _ in 0..<e { v *= 10 }
        return v
    }

    /// Parses `bytes[start..<end]` as a finite decimal number. Returns nil for anything else
    /// (text, NaN, infinity, empty).
    @inlinable
    public static func parse(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        let first = bytes[i]
        if first == UInt8(ascii: "-") { negative = true; i += 1 } else if first == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0          // significant digits accumulated in `mantissa`
        var anyDigit = false
        var exponent = 0        // decimal exponent applied to mantissa
        var overflowDigits = false
        while i < end {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            anyDigit = true
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); if mantissa != 0 { digits += 1 } }
            else { exponent += 1; overflowDigits = true }
            i += 1
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                anyDigit = true
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(d); exponent -= 1; if mantissa != 0 { digits += 1 } }
                else { overflowDigits = true }
                i += 1
            }
        }
        guard anyDigit else { return nil }
        if i < end && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < end && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
                expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            var e = 0
            var expDigits = false
            while i < end {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                expDigits = true
                if e < 100_000 { e = e * 10 + Int(d) }
                i += 1
            }
            guard expDigits else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == end else { return nil }
        if !overflowDigits && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 { value /= exactPowersOfTen[-exponent] } else { value *= exactPowersOfTen[exponent] }
            return negative ? -value : value
        }
        return slowParse(bytes, start, end)
    }

    @usableFromInline
    static func slowParse(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Convenience for tests and small inputs.
    public static func parse(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0), 0, $0.count) }
    }
}
