/// Locale-independent decimal parsing straight from bytes: `1.5` means one and a half whatever
/// `LC_NUMERIC` says. The fast path is exact (Clinger 1990: a mantissa below 2^53 times a power of
/// ten up to 10^22 is one correctly rounded IEEE operation); anything longer goes to Swift's own
/// parser, which is also locale-independent.
public enum DecimalParser {
    /// Parses `bytes[start..<end]` as a finite decimal number. Returns nil for anything else
    /// (text, NaN, infinity, empty).
    ///
    /// The common recording field (`-0.01230`, `1234.567890`: at most 19 digits, no exponent) is
    /// read in one loop over the digits and one division by an exact power of ten; anything
    /// else goes to `parseGeneral`.
    @inlinable
    public static func parse(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        var i = start
        let sign = base.load(fromByteOffset: i, as: UInt8.self)
        let negative = sign == UInt8(ascii: "-")
        if negative || sign == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        let firstDigit = i
        while i < end {
            let d = base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        var digits = i - firstDigit
        var fractionDigits = 0
        if i < end && base.load(fromByteOffset: i, as: UInt8.self) == UInt8(ascii: ".") {
            i += 1
            let firstFraction = i
            while i < end {
                let d = base.load(fromByteOffset: i, as: UInt8.self) &- UInt8(ascii: "0")
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            fractionDigits = i - firstFraction
            digits += fractionDigits
        }
        // One correctly rounded division (Clinger 1990), see the limits below.
        guard i == end, digits > 0, digits <= maxDigits, mantissa < exactMantissaBound, fractionDigits <= maxExactPowerOfTen else {
            return parseGeneral(bytes, start, end)
        }
        let value = Double(mantissa) / powerOfTen(fractionDigits)
        return negative ? -value : value
    }

    /// Digits a UInt64 mantissa holds without overflow: 10^19 − 1 < 2^64 − 1 (1.8 × 10^19).
    @inlinable static var maxDigits: Int { 19 }
    /// 2^53: every integer below it is exact as a Double (52-bit fraction plus the implicit bit).
    @inlinable static var exactMantissaBound: UInt64 { 1 << 53 }
    /// 10^22 is the largest power of ten a Double holds exactly (5^22 < 2^53; 5^23 is not).
    @inlinable static var maxExactPowerOfTen: Int { 22 }

    /// 10^e for 0 ≤ e ≤ `maxExactPowerOfTen`, exactly (a constant table, no global array to look up).
    @inlinable @inline(__always)
    static func powerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// Every form `parse` accepts (exponents, more than 19 digits, leading zeros): validates the
    /// syntax by hand, then takes the exact fast path or Swift's parser.
    @usableFromInline
    static func parseGeneral(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
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
            if digits < maxDigits { mantissa = mantissa &* 10 &+ UInt64(d); if mantissa != 0 { digits += 1 } }
            else { exponent += 1; overflowDigits = true }
            i += 1
        }
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end {
                let d = bytes[i] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                anyDigit = true
                if digits < maxDigits { mantissa = mantissa &* 10 &+ UInt64(d); exponent -= 1; if mantissa != 0 { digits += 1 } }
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
                // The exponent stops growing past 10^5: far beyond a Double's range (10^±308),
                // and `e` cannot overflow on a long run of digits.
                if e < 100_000 { e = e * 10 + Int(d) }
                i += 1
            }
            guard expDigits else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == end else { return nil }
        if !overflowDigits && mantissa < exactMantissaBound && exponent >= -maxExactPowerOfTen && exponent <= maxExactPowerOfTen {
            var value = Double(mantissa)
            if exponent < 0 { value /= powerOfTen(-exponent) } else { value *= powerOfTen(exponent) }
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
