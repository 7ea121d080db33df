/// Parses one data line of a recording in place in the read buffer, in one pass: each field's
/// digits are converted as they are scanned (the field's end is where the number stops), and the
/// value is stored by column into a small table the parser owns; only unusual fields (empty,
/// exponents, long or malformed numbers) are scanned again, to their comma, and handed to
/// `DecimalParser`. Nothing is stored in the reader per field, so the hot path has no
/// class-property accesses (and no runtime exclusivity checks) and no per-field arrays.
struct RecordingRowParser {
    /// Per header column: 0 = ignored, else the `RecordingColumn`'s index in `allCases` + 1.
    let codes: UnsafeBufferPointer<UInt8>
    /// The line's values by `RecordingColumn` index, in `MotionSample`'s field order (t, ax…az,
    /// gx…gz, p, temp, gnss_speed); 0 for a column that is absent or empty. Written per field,
    /// read once per line: one store instead of a branch on the column.
    private let values: UnsafeMutablePointer<Double>
    /// 10^0 … 10^15, exact: the divisors of the fast path (at most 15 digits in all).
    private let powersOfTen: UnsafeMutablePointer<Double>
    /// The header as shown in a "short row" message (escaped once).
    let headerText: String

    /// A problem with the line; the reader adds the file name and line number.
    struct Problem: Error {
        var message: String
        /// What to do, when the message alone does not say it.
        var fix: String? = nil
    }

    static let comma = UInt8(ascii: ","), space = UInt8(ascii: " "), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let point = UInt8(ascii: "."), zero = UInt8(ascii: "0")
    /// Digits the fast path takes: 15 digits stay below 10^15 < 2^53, so the mantissa is exact
    /// as a `Double` without a separate test. 16 to 19 digits (rare: no column is written with
    /// more than 10) go to `DecimalParser`, whose result is the same.
    static let fastDigits = 15
    /// Code of the `gnss_speed` column, its index in `RecordingColumn.allCases` + 1 (a ground
    /// speed is never negative). A literal: a computed `static let` would be checked for its
    /// lazy initialisation at every use; `RecordingRowParserTests` checks it.
    static var speedCode: UInt8 { 10 }

    init(slots: [RecordingColumn?], headerText: String) {
        let codes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, slots.count))
        for (i, slot) in slots.enumerated() {
            codes[i] = slot.flatMap { s in RecordingColumn.allCases.firstIndex(of: s) }.map { UInt8($0 + 1) } ?? 0
        }
        self.codes = UnsafeBufferPointer(rebasing: codes[0..<slots.count])
        values = .allocate(capacity: RecordingColumn.allCases.count)
        values.initialize(repeating: 0, count: RecordingColumn.allCases.count)
        powersOfTen = .allocate(capacity: Self.fastDigits + 1)
        for e in 0...Self.fastDigits { powersOfTen[e] = DecimalParser.powerOfTen(e) }
        self.headerText = headerText
    }

    func deallocate() {
        UnsafeMutableRawPointer(mutating: codes.baseAddress)?.deallocate()
        values.deallocate()
        powersOfTen.deallocate()
    }

    /// The sample on bytes `a..<b` of `base`. `base[b]` must be readable and end a number: the
    /// line's `\n` or `\r`, or the 0 the reader keeps after its data (`RecordingReader.refill`),
    /// so the scans of digits and spaces stop there without a test of the position.
    @inline(__always)
    func parse(_ base: UnsafeRawPointer, _ a: Int, _ b: Int) throws(Problem) -> MotionSample {
        let bytes = UnsafeRawBufferPointer(start: base, count: b + 1)
        let columns = codes.count
        var present: UInt16 = 0          // bit k set: the column with code k + 1 has a value
        var field = 0
        var fs = a
        while true {
            let code = codes[field]
            var fe: Int
            if code != 0 {
                // Fast path, one pass: spaces, the exact decimal form of `DecimalParser.parse`,
                // spaces, then a comma or the end of the line.
                var i = fs
                while bytes[i] == Self.space { i &+= 1 }
                let valueStart = i
                let sign = bytes[i]
                let negative = sign == Self.minus
                i &+= negative || sign == Self.plus ? 1 : 0
                var mantissa: UInt64 = 0
                var digits = Self.appendDigits(bytes, &i, to: &mantissa), fractionDigits = 0
                if bytes[i] == Self.point {
                    i &+= 1
                    fractionDigits = Self.appendDigits(bytes, &i, to: &mantissa)
                    digits &+= fractionDigits
                }
                while bytes[i] == Self.space { i &+= 1 }
                var value = 0.0, has = true
                if (i == b || bytes[i] == Self.comma) && UInt(bitPattern: digits &- 1) < UInt(Self.fastDigits) {
                    // Exact as in `DecimalParser.parse` (Clinger 1990): 1 to 15 digits. The
                    // mantissa is below 2^53, so the signed conversion (one instruction) gives
                    // the same `Double`; the sign is set as a bit (−0 stays −0), not by a branch
                    // on the sign, which is random in most columns.
                    let magnitude = Double(Int64(bitPattern: mantissa)) / powersOfTen[fractionDigits]
                    value = Double(bitPattern: magnitude.bitPattern | UInt64(negative ? 1 : 0) << 63)
                    fe = i
                } else if i == valueStart && (i == b || bytes[i] == Self.comma) {
                    // Empty (or only spaces): no value, as the general path below decides; a
                    // 25 Hz barometer column is empty in three rows of four at 100 Hz.
                    has = false
                    fe = i
                } else {
                    // Anything else (empty, exponents, long or malformed numbers): the general
                    // parser on the trimmed field.
                    fe = fs
                    while fe < b && bytes[fe] != Self.comma { fe += 1 }
                    let (s, e) = Self.trimmed(bytes, fs, fe)
                    if s == e { has = false } else {
                        guard let parsed = DecimalParser.parse(bytes, s, e) else {
                            throw Self.notANumber(RecordingColumn.allCases[Int(code) - 1], bytes, s, e)
                        }
                        value = parsed
                    }
                }
                if has {
                    present |= 1 << (code - 1)
                    if code == Self.speedCode && value < 0 {
                        let (s, e) = Self.trimmed(bytes, fs, fe)
                        throw Self.negativeSpeed(Self.shown(bytes, s, e))
                    }
                }
                values[Int(code) - 1] = value
            } else {
                fe = fs
                while fe < b && bytes[fe] != Self.comma { fe += 1 }
            }
            field += 1
            if fe >= b { break }
            guard field < columns else {
                throw Problem(message: "too many fields: the header has \(counted(columns, "column"))")
            }
            fs = fe + 1
        }
        guard field == columns else {
            throw Problem(message: "short row: \(field) of \(columns) fields (\(headerText))")
        }
        guard present & 1 != 0 else {
            throw Problem(message: "field 't' is empty: every sample needs a time")
        }
        let v = values
        let t = v[0]
        guard abs(t) <= RecordingReader.largestTime else {
            throw Self.timeBeyondLimit("\(t)")
        }
        let accel = present & 0b1110, gyro = present & 0b111_0000
        guard accel == 0 || accel == 0b1110 else { throw Problem(message: "ax,ay,az must be all present or all empty in one sample") }
        guard gyro == 0 || gyro == 0b111_0000 else { throw Problem(message: "gx,gy,gz must be all present or all empty in one sample") }
        // Values no sensor gives (RecordingLimits), refused before anything converts them.
        guard RecordingLimits.contains(ax: v[1], ay: v[2], az: v[3], gx: v[4], gy: v[5], gz: v[6], p: v[7],
                                       hasPressure: present & (1 << 7) != 0, temp: v[8], speed: v[9]) else {
            throw outOfRange(bytes, a, b, values: Array(UnsafeBufferPointer(start: v, count: RecordingColumn.allCases.count)))
        }
        // Absent readings are stored as 0 (every column without a value holds 0 in `values`),
        // as `MotionSample` keeps them; its presence bits from the columns': acceleration (bit 1
        // of `present`, all three or none, checked above), rotation (bit 4), p, temp, gnss_speed
        // (bits 7 to 9).
        var sample = MotionSample(time: t)
        (sample.ax, sample.ay, sample.az) = (v[1], v[2], v[3])
        (sample.gx, sample.gy, sample.gz) = (v[4], v[5], v[6])
        (sample.storedPressure, sample.storedTemperature, sample.storedGNSSSpeed) = (v[7], v[8], v[9])
        typealias Bit = MotionSample.Present
        sample.present = UInt8(truncatingIfNeeded: (present >> 1 & UInt16(Bit.acceleration))
                                 | (present >> 3 & UInt16(Bit.rotationRate))
                                 | (present >> 5 & UInt16(Bit.pressure | Bit.temperature | Bit.gnssSpeed)))
        return sample
    }

    /// The first field of the line `a..<b`, in file order, beyond `RecordingLimits`: its column,
    /// its text as written (escaped, cut) and the fix. `values` are the parsed values by column
    /// code − 1. Only on the error path.
    @inline(never)
    func outOfRange(_ bytes: UnsafeRawBufferPointer, _ a: Int, _ b: Int, values: [Double]) -> Problem {
        var fs = a, field = 0
        while field < codes.count {
            var fe = fs
            while fe < b && bytes[fe] != Self.comma { fe += 1 }
            let code = Int(codes[field])
            let (s, e) = Self.trimmed(bytes, fs, fe)
            if code > 0 && s < e,
               let found = RecordingLimits.problem(RecordingColumn.allCases[code - 1], values[code - 1], shown: Self.shown(bytes, s, e)) {
                return Problem(message: found.message, fix: found.fix)
            }
            if fe >= b { break }
            fs = fe + 1
            field += 1
        }
        return Problem(message: "a value beyond the limits of docs/file-formats.md")   // not reached: `contains` said one is
    }

    /// Why the trimmed field `s..<e` of `column` is no value: a number too large for a `Double`
    /// (400 digits, `1e400`) is refused by its column's range and unit (`RecordingLimits`), as a
    /// merely large one is, since "not a finite number" hid which limit it broke and how to mend
    /// it; anything else (text, `nan`, `inf`) is not a finite number. Only on the error path.
    @inline(never)
    static func notANumber(_ column: RecordingColumn, _ bytes: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Problem {
        let shown = shown(bytes, s, e)
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[s..<e]), as: UTF8.self)
        // Only decimal syntax that overflowed: `Double("inf")` is infinite too, but is no number written out.
        if text.contains(where: { $0.isASCII && $0.isWholeNumber }), text.allSatisfy({ "0123456789+-.eE".contains($0) }),
           let overflowed = Double(text), overflowed.isInfinite {
            if column == .t { return timeBeyondLimit(shown) }
            if column == .gnssSpeed && overflowed < 0 { return negativeSpeed(shown) }
            if let found = RecordingLimits.problem(column, overflowed, shown: shown) { return Problem(message: found.message, fix: found.fix) }
        }
        return Problem(message: "field '\(column.rawValue)' is not a finite number: '\(shown)'")
    }

    /// A `t` beyond `RecordingReader.largestTime`, `shown` as written or parsed.
    static func timeBeyondLimit(_ shown: String) -> Problem {
        Problem(message: "t=\(shown) is beyond ±1e10 s (317 years); t is in seconds: was it written in milliseconds or nanoseconds?")
    }

    /// A negative `gnss_speed`, `shown` as written.
    static func negativeSpeed(_ shown: String) -> Problem {
        Problem(message: "field 'gnss_speed' is negative (\(shown)); a ground speed is ≥ 0 m/s")
    }

    /// Appends the run of decimal digits at `bytes[i]` to `mantissa`, moving `i` past it;
    /// returns how many there were. Reads both the integer and the fraction digits; the run ends
    /// at the byte after the line at the latest (`parse`).
    @inline(__always)
    static func appendDigits(_ bytes: UnsafeRawBufferPointer, _ i: inout Int, to mantissa: inout UInt64) -> Int {
        let first = i
        while true {
            let d = bytes[i] &- zero
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i &+= 1
        }
        return i &- first
    }

    /// Bytes `s..<e` without leading and trailing spaces.
    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> (Int, Int) {
        var s = s, e = e
        while s < e && bytes[s] == space { s += 1 }
        while e > s && bytes[e - 1] == space { e -= 1 }
        return (s, e)
    }

    /// Characters of a file's text an error message quotes: 60 leave room on an 80-column line
    /// for the message around them.
    static let excerptCharacters = 60
    /// Bytes read for that excerpt: enough for that many of UTF-8's longest characters.
    static let excerptBytes = excerptCharacters * UTF8Check.longestCharacterBytes

    /// Bytes `s..<e` for an error message: escaped and cut to `excerptCharacters`.
    static func shown(_ bytes: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> String {
        let t = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[s..<min(e, s + excerptBytes)]), as: UTF8.self)
        return (t.count > excerptCharacters ? String(t.prefix(excerptCharacters)) + "…" : t).escapedForTerminal
    }
}
