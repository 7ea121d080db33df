/// Text from files and from the bus, made safe for a terminal or the journal.
public enum Printable {
    /// Control characters become \u{…} escapes; long text is cut at 200 characters.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
