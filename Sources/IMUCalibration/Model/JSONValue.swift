/// A JSON document as read by `JSONValue.parse`: the calibration and walker-profile files
/// (docs/calibration.md). Strict RFC 8259: one value, no trailing commas, no comments, no
/// leading zeros, no lone surrogates, UTF-8 only (a UTF-8 byte-order mark is skipped). A small
/// reader of the project's own, so that the tools need only FoundationEssentials (docs/memory.md).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// Every number, read as the correctly rounded `Double` of its decimal text (so long decimals
    /// read back exactly; `make fuzz` found Foundation's `NSDecimalNumber` off in the last place).
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// A repeated key keeps its last value, as Foundation's `JSONSerialization` did.
    case object([String: JSONValue])

    /// Nesting deeper than this is refused: the files are two levels deep; the limit keeps a
    /// hostile file from exhausting the stack (the reader recurses once per level).
    public static let maximumDepth = 64

    /// The number, or nil for anything else (`true` is not a number).
    public var number: Double? { if case .number(let x) = self { x } else { nil } }
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// Parses one JSON document; throws with the byte offset of the first problem.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONSyntaxError) -> JSONValue {
        var reader = JSONReader(Array(bytes))
        return try reader.document()
    }
}

/// Why a text is not JSON, and where (byte offset from 0).
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) at byte \(offset)" }
}

/// The recursive-descent reader behind `JSONValue.parse`.
struct JSONReader {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: UTF8Check.byteOrderMark) { at = UTF8Check.byteOrderMark.count }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        let v = try value(depth: 0)
        skipSpace()
        guard at == bytes.count else { throw fail("text after the JSON value") }
        return v
    }

    private func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: at, reason: reason) }

    /// RFC 8259 whitespace: space, tab, line feed, carriage return.
    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    private mutating func expect(_ word: String) throws(JSONSyntaxError) {
        for b in word.utf8 {
            guard at < bytes.count, bytes[at] == b else { throw fail("expected \(word)") }
            at += 1
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw fail("nested deeper than \(JSONValue.maximumDepth) levels") }
        skipSpace()
        guard at < bytes.count else { throw fail("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        at += 1
        var out: [String: JSONValue] = [:]
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(out) }
        while true {
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
            let key = try string()
            skipSpace()
            try expect(":")
            out[key] = try value(depth: depth + 1)
            skipSpace()
            guard at < bytes.count else { throw fail("unexpected end in an object") }
            if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(out) }
            try expect(",")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        at += 1
        var out: [JSONValue] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(out) }
        while true {
            out.append(try value(depth: depth + 1))
            skipSpace()
            guard at < bytes.count else { throw fail("unexpected end in an array") }
            if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(out) }
            try expect(",")
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, then Swift's correctly rounded
    /// conversion. A number too large for a Double (1e400) is refused, as Foundation refused it.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = at
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.at
            while r.at < r.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.at]) { r.at += 1 }
            return r.at - s
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let intStart = at
        let whole = digits(&self)
        guard whole > 0 else { throw fail("expected a value") }
        guard whole == 1 || bytes[intStart] != UInt8(ascii: "0") else { at = intStart; throw fail("a number with a leading zero") }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            at += 1
            guard digits(&self) > 0 else { throw fail("expected digits after the decimal point") }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits(&self) > 0 else { throw fail("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let x = Double(text), x.isFinite else { at = start; throw fail("number out of range") }
        return x
    }

    /// A string after its opening quote; escapes decoded, UTF-8 checked.
    private mutating func string() throws(JSONSyntaxError) -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("unterminated string") }
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                at += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw fail("a string that is not UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                at += 1
                guard at < bytes.count else { throw fail("unterminated string") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate in \\u escapes") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("a lone surrogate in \\u escapes") }
                    out.append(contentsOf: String(Character(u)).utf8)
                default:
                    at -= 1
                    throw fail("an unknown escape")
                }
            case 0..<0x20:
                throw fail("a control character in a string (write it as \\u00XX)")
            default:
                out.append(b)
                at += 1
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard at < bytes.count, let d = Self.hexDigit(bytes[at]) else { throw fail("expected four hex digits after \\u") }
            v = v << 4 | d
            at += 1
        }
        return v
    }

    private static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

/// How the calibration and walker-profile files write JSON: the same text Foundation's
/// `JSONSerialization` wrote, so files saved before read and diff the same (checked against it in
/// `JSONValueTests`).
enum JSONText {
    /// A string in quotes, escaped as `JSONSerialization` did (`/` as `\/`, \b \f by name).
    static func quoted(_ s: String) -> String { JSONString.quoted(s, style: .jsonSerialization) }

    /// A number in its shortest exact form: whole numbers below 1e15 without a fraction ("3",
    /// not "3.0"), others as Swift prints them ("0.702", "1e-07", "1e+300"), which is the form
    /// `JSONSerialization` wrote. Not finite: `null` (JSON has no infinity).
    static func number(_ x: Double) -> String {
        x.isFinite ? x.asWritten : "null"
    }

    /// An object with keys sorted and one per line, two spaces per level, `"key" : value`: the
    /// layout of `JSONSerialization`'s `[.prettyPrinted, .sortedKeys]`. Values are already JSON
    /// text at `level`; `pretty(array:)` builds nested arrays.
    static func pretty(object pairs: [(key: String, json: String)], level: Int = 0) -> String {
        guard !pairs.isEmpty else { return "{\n\n" + indent(level) + "}" }
        let inner = indent(level + 1)
        return "{\n" + pairs.sorted { $0.key < $1.key }.map { inner + quoted($0.key) + " : " + $0.json }.joined(separator: ",\n")
            + "\n" + indent(level) + "}"
    }

    /// An array, one element per line, in `JSONSerialization`'s pretty layout.
    static func pretty(array items: [String], level: Int = 0) -> String {
        guard !items.isEmpty else { return "[\n\n" + indent(level) + "]" }
        let inner = indent(level + 1)
        return "[\n" + items.map { inner + $0 }.joined(separator: ",\n") + "\n" + indent(level) + "]"
    }

    private static func indent(_ level: Int) -> String { String(repeating: "  ", count: level) }
}
