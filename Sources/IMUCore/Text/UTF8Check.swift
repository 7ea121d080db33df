/// Where text stops being UTF-8: a recording or a config file that is binary data, or text
/// saved in another encoding (Latin-1, UTF-16), is named as such instead of being read as rows of
/// U+FFFD.
public enum UTF8Check {
    /// The UTF-8 byte-order mark, U+FEFF encoded: EF BB BF (Unicode §23.8; spreadsheets write it
    /// before a "CSV UTF-8" file's first line).
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The longest UTF-8 character, in bytes (RFC 3629 §3).
    public static let longestCharacterBytes = 4

    /// The offset of the first byte that is not valid UTF-8 in `bytes`, or nil. `cutShort`: the
    /// bytes end mid-file, so a character cut at the end (up to 3 bytes) is not counted.
    public static func firstInvalidByte(_ bytes: [UInt8], cutShort: Bool = false) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return cutShort && bytes.count - offset < longestCharacterBytes ? nil : offset
            }
        }
    }
}
