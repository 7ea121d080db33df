/// Text from files and devices made safe to show on a terminal: nothing in it can move the
/// cursor, change colours, retitle the window or hide itself.
///
/// - C0 controls (except newline) and DEL become `\xNN` (ESC is `\x1B`), tab `\t`, CR `\r`.
/// - C1 controls (U+0080–U+009F, which some terminals take as CSI), the byte-order mark U+FEFF,
///   zero-width and bidirectional-override characters become `\u{XXXX}`, with the BOM named.
/// - Everything else (letters in any script, °, µ, →) is kept.
extension String {
    public var escapedForTerminal: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for u in unicodeScalars {
            switch u.value {
            case 0x0A: out.unicodeScalars.append(u)
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x00..<0x20, 0x7F: out += Self.hexEscape(UInt8(u.value))
            case 0xFEFF: out += "\\u{FEFF} (byte-order mark)"
            case 0x80...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069:
                out += "\\u{" + Self.hex(u.value, digits: 4) + "}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// One byte as `\xNN` (two upper-case hex digits): a control character here, a byte that is
    /// not UTF-8 in `NonUTF8Argument`.
    public static func hexEscape(_ byte: UInt8) -> String { "\\x" + hex(UInt32(byte), digits: 2) }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let h = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: Swift.max(0, digits - h.count)) + h
    }
}
