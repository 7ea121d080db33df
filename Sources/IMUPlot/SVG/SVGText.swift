/// Escaping for text and attribute values that end up in SVG or HTML.
enum Markup {
    /// Escapes &, <, >, " and '; drops control characters XML 1.0 does not allow (a file name is
    /// user data: it must not break the document).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
