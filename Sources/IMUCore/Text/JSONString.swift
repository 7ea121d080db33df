/// A string written as a JSON string literal (RFC 8259, section 7), in one of the two forms the
/// project writes.
public enum JSONString {
    public enum Style: Sendable {
        /// The tools' JSON lines (`JSONLine`): `"` and `\` escaped with a backslash, \n \r \t by
        /// name, other control characters as \u00XX (lower-case hex), the rest as is.
        case compact
        /// What Foundation's `JSONSerialization` wrote, which the calibration and walker-profile
        /// files keep so that files saved before read and diff the same: as `compact`, plus `/`
        /// escaped (`\/`) and \b \f by name.
        case jsonSerialization
    }

    /// `s` in double quotes, escaped as `style` says.
    public static func quoted(_ s: String, style: Style = .compact) -> String {
        let foundation = style == .jsonSerialization
        // Most strings (keys, words, file names) need no escape: one copy between the quotes.
        // A byte below 0x20, `"`, `\` or (for `foundation`) `/` is what the loop below escapes;
        // the bytes of a multi-byte UTF-8 sequence are all 0x80 or above.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || (foundation && $0 == UInt8(ascii: "/")) }) {
            return "\"" + s + "\""
        }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where foundation: out += "\\/"
            case "\u{08}" where foundation: out += "\\b"
            case "\u{0C}" where foundation: out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}":
                // \uXXXX: four hex digits (RFC 8259 §7).
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
