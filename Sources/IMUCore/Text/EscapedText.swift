/// Text from files and devices made safe to show on a terminal: nothing in it can move the
/// cursor, change colours, retitle the window or hide itself.
///
/// - C0 controls (except newline) and DEL become `\xNN` (ESC is `\x1B`), tab `\t`, CR `\r`.
/// - C1 controls (U+0080–U+009F, which some terminals take as CSI), the byte-order mark U+FEFF,
///   zero-width and bidirectional-override characters become `\u{XXXX}`, with the BOM named.
/// - Everything else (letters in any script, °, µ, →) is kept.
extension String {
    /// Text that may span lines (a file's lines shown as they are): newlines kept.
    public var escapedForTerminal: String { escaped(keepingNewlines: true) }

    /// On one line, newlines as `\n`: a journal entry or an sd_notify(3) assignment, which a
    /// newline would split.
    public var escapedOnOneLine: String { escaped(keepingNewlines: false) }

    /// A value quoted inside a message (a file's text, a setting, a bus caller's name): on one
    /// line and cut after `quotedValueLimit` characters with "…", so a megabyte line of a damaged
    /// file cannot bury the message's fix.
    public var escapedValue: String {
        guard unicodeScalars.count > Self.quotedValueLimit else { return escapedOnOneLine }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: unicodeScalars.prefix(Self.quotedValueLimit))
        return String(cut).escapedOnOneLine + "…"
    }

    /// Characters of a quoted value kept: more than a path, a setting or a recording's line needs,
    /// and three lines of an 80-column terminal at most.
    public static let quotedValueLimit = 200

    /// The one escaping rule of the project (every escaper above is this one).
    private func escaped(keepingNewlines: Bool) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for u in unicodeScalars {
            switch u.value {
            case 0x0A: if keepingNewlines { out.unicodeScalars.append(u) } else { out += "\\n" }
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
