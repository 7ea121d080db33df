/// One JSON object written on one line, keys in insertion order. Numbers are formatted without
/// locale; non-finite numbers become `null` (JSON has no NaN).
public struct JSONLine: Sendable {
    /// Places a number keeps unless told: six, a millionth of its unit, as finely as a recording
    /// keeps any column (RecordingColumn.t: 1 µs).
    public static let defaultDecimals = 6
    private var body = ""

    public init() {}

    public init(type: String) { add("type", type) }

    @discardableResult public mutating func add(_ key: String, _ value: String) -> Self {
        separator(key); body += JSONLine.quote(value); return self
    }
    @discardableResult public mutating func add(_ key: String, _ value: Int) -> Self {
        separator(key); body += String(value); return self
    }
    @discardableResult public mutating func add(_ key: String, _ value: Bool) -> Self {
        separator(key); body += value ? "true" : "false"; return self
    }
    /// Adds a number rounded to `decimals` places (trailing zeros trimmed); nil becomes null.
    @discardableResult public mutating func add(_ key: String, _ value: Double?, decimals: Int = JSONLine.defaultDecimals) -> Self {
        separator(key); body += JSONLine.number(value, decimals: decimals); return self
    }
    @discardableResult public mutating func add(_ key: String, _ values: [Double], decimals: Int = JSONLine.defaultDecimals) -> Self {
        separator(key); body += "[" + values.map { JSONLine.number($0, decimals: decimals) }.joined(separator: ",") + "]"; return self
    }
    @discardableResult public mutating func add(_ key: String, matrix: [[Double]], decimals: Int = JSONLine.defaultDecimals) -> Self {
        separator(key)
        body += "[" + matrix.map { "[" + $0.map { JSONLine.number($0, decimals: decimals) }.joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        return self
    }
    /// Adds an already-encoded JSON value.
    @discardableResult public mutating func add(_ key: String, raw: String) -> Self {
        separator(key); body += raw; return self
    }

    public var text: String { "{" + body + "}" }

    private mutating func separator(_ key: String) {
        if !body.isEmpty { body += "," }
        body += JSONLine.quote(key)
        body += ":"
    }

    /// `s` as a JSON string (`JSONString`'s compact form: `/` as is).
    public static func quote(_ s: String) -> String { JSONString.quoted(s) }

    public static func number(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        // Trimmed as bytes, then made a String once (a JSON line holds several numbers).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        RecordingWriter.appendFixed(value, decimals: decimals, to: &bytes)
        if bytes.contains(UInt8(ascii: ".")) {
            while bytes.last == UInt8(ascii: "0") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        }
        if bytes.count == 2 && bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "0") { return "0" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
