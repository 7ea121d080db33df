/// Parses one data line of a recording in place in the read buffer, in one pass: each field's
/// digits are converted as they are scanned (the field's end is where the number stops), straight
/// into local values; only unusual fields (empty, exponents, long or malformed numbers) are
/// scanned again, to their comma, and handed to `DecimalParser`. Nothing is
/// stored in the reader per field, so the hot path has no class-property accesses (and no
/// runtime exclusivity checks) and no per-field arrays.
struct RecordingRowParser {
    /// Per header column: 0 = ignored, else the `RecordingColumn`'s index in `allCases` + 1.
    let codes: UnsafeBufferPointer<UInt8>
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

    init(slots: [RecordingColumn?], headerText: String) {
        let codes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, slots.count))
        for (i, slot) in slots.enumerated() {
            codes[i] = slot.flatMap { s in RecordingColumn.allCases.firstIndex(of: s) }.map { UInt8($0 + 1) } ?? 0
        }
        self.codes = UnsafeBufferPointer(rebasing: codes[0..<slots.count])
        self.headerText = headerText
    }

    func deallocate() { UnsafeMutableRawPointer(mutating: codes.baseAddress)?.deallocate() }

    /// The sample on bytes `a..<b` of `base`.
    @inline(__always)
    func parse(_ base: UnsafeRawPointer, _ a: Int, _ b: Int) throws(Problem) -> MotionSample {
        let bytes = UnsafeRawBufferPointer(start: base, count: b)
        let columns = codes.count
        var t = 0.0, ax = 0.0, ay = 0.0, az = 0.0, gx = 0.0, gy = 0.0, gz = 0.0, p = 0.0, temp = 0.0, speed = 0.0
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
                while i < b && bytes[i] == Self.space { i += 1 }
                let valueStart = i
                let sign = i < b ? bytes[i] : 0
                let negative = sign == Self.minus
                if negative || sign == Self.plus { i += 1 }
                var mantissa: UInt64 = 0
                var digits = Self.appendDigits(bytes, &i, b, to: &mantissa), fractionDigits = 0
                if i < b && bytes[i] == Self.point {
                    i += 1
                    fractionDigits = Self.appendDigits(bytes, &i, b, to: &mantissa)
                    digits += fractionDigits
                }
                while i < b && bytes[i] == Self.space { i += 1 }
                var value = 0.0, has = true
                if (i == b || bytes[i] == Self.comma) && digits > 0 && digits <= 19 && mantissa < (1 << 53) {
                    // Exact as in `DecimalParser.parse` (Clinger 1990); at most 19 fraction digits.
                    let magnitude = Double(mantissa) / DecimalParser.powerOfTen(fractionDigits)
                    value = negative ? -magnitude : magnitude
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
                            let column = RecordingColumn.allCases[Int(code) - 1]
                            throw Problem(message: "field '\(column.rawValue)' is not a finite number: '\(Self.shown(bytes, s, e))'")
                        }
                        value = parsed
                    }
                }
                if has {
                    present |= 1 << (code - 1)
                    switch code {
                    case 1: t = value
                    case 2: ax = value
                    case 3: ay = value
                    case 4: az = value
                    case 5: gx = value
                    case 6: gy = value
                    case 7: gz = value
                    case 8: p = value
                    case 9: temp = value
                    default:
                        guard value >= 0 else {
                            let (s, e) = Self.trimmed(bytes, fs, fe)
                            throw Problem(message: "field 'gnss_speed' is negative (\(Self.shown(bytes, s, e))); a ground speed is ≥ 0 m/s")
                        }
                        speed = value
                    }
                }
            } else {
                fe = fs
                while fe < b && bytes[fe] != Self.comma { fe += 1 }
            }
            field += 1
            if fe >= b { break }
            guard field < columns else {
                throw Problem(message: "too many fields: the header has \(columns) columns")
            }
            fs = fe + 1
        }
        guard field == columns else {
            throw Problem(message: "short row: \(field) of \(columns) fields (\(headerText))")
        }
        guard present & 1 != 0 else {
            throw Problem(message: "field 't' is empty: every sample needs a time")
        }
        guard abs(t) <= RecordingReader.largestTime else {
            throw Problem(message: "t=\(t) is beyond ±1e10 s (317 years); t is in seconds: was it written in milliseconds or nanoseconds?")
        }
        let accel = present & 0b1110, gyro = present & 0b111_0000
        guard accel == 0 || accel == 0b1110 else { throw Problem(message: "ax,ay,az must be all present or all empty in one sample") }
        guard gyro == 0 || gyro == 0b111_0000 else { throw Problem(message: "gx,gy,gz must be all present or all empty in one sample") }
        // Values no sensor gives (RecordingLimits), refused before anything converts them.
        guard RecordingLimits.contains(ax: ax, ay: ay, az: az, gx: gx, gy: gy, gz: gz, p: p, hasPressure: present & (1 << 7) != 0,
                                       temp: temp, speed: speed) else {
            throw outOfRange(bytes, a, b, values: [t, ax, ay, az, gx, gy, gz, p, temp, speed])
        }
        return MotionSample(time: t,
                            acceleration: accel != 0 ? Vector3(ax, ay, az) : nil,
                            rotationRate: gyro != 0 ? Vector3(gx, gy, gz) : nil,
                            pressure: present & (1 << 7) != 0 ? p : nil,
                            temperature: present & (1 << 8) != 0 ? temp : nil,
                            gnssSpeed: present & (1 << 9) != 0 ? speed : nil)
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

    /// Appends the run of decimal digits at `bytes[i]` (before `end`) to `mantissa`, moving `i`
    /// past it; returns how many there were. Reads both the integer and the fraction digits.
    @inline(__always)
    static func appendDigits(_ bytes: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int, to mantissa: inout UInt64) -> Int {
        let first = i
        while i < end {
            let d = bytes[i] &- zero
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        return i - first
    }

    /// Bytes `s..<e` without leading and trailing spaces.
    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> (Int, Int) {
        var s = s, e = e
        while s < e && bytes[s] == space { s += 1 }
        while e > s && bytes[e - 1] == space { e -= 1 }
        return (s, e)
    }

    /// Bytes `s..<e` for an error message: escaped and cut to 60 characters.
    static func shown(_ bytes: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> String {
        let t = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[s..<min(e, s + 240)]), as: UTF8.self)
        return (t.count > 60 ? String(t.prefix(60)) + "…" : t).escapedForTerminal
    }
}
