import IMUCore

/// An argument whose bytes are not UTF-8 (a file name from an old Latin-1 system, a stray byte).
/// Swift's `CommandLine.arguments` replaces such bytes with U+FFFD, so the tool would look for,
/// or create, a file of another name (`imu-record -o $'\xfe.csv'` wrote "\u{FFFD}.csv"): refused
/// instead, naming the bytes.
public struct NonUTF8Argument: DiagnosableError {
    /// The argument's bytes, escaped: printable ASCII kept, every other byte `\xNN`.
    public var shown: String

    public var description: String { "argument '\(shown)' is not UTF-8 text, so it cannot be used as given" }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? {
        "rename the file to a UTF-8 name (e.g. convmv -f latin1 -t utf8 --notest FILE, or mv -- $'\(shown)' new-name), then name that"
    }

    /// The first argument (after the program name) that is not valid UTF-8, or nil when all are.
    public static func first() -> NonUTF8Argument? {
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i] else { continue }
            var bytes: [UInt8] = []
            var p = raw
            while p.pointee != 0 { bytes.append(UInt8(bitPattern: p.pointee)); p += 1 }
            if String(validating: bytes, as: UTF8.self) == nil { return NonUTF8Argument(shown: escaped(bytes)) }
        }
        return nil
    }

    static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        for b in bytes {
            if (0x20..<0x7F).contains(b) && b != UInt8(ascii: "\\") && b != UInt8(ascii: "'") {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += String.hexEscape(b)
            }
        }
        return out
    }
}
