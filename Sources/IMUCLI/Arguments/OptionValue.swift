import IMUCore

/// What an option's value is, and its name in `--help` (e.g. `.number("HZ")` prints `--rate HZ`).
/// The kind says how the value is read, so one value written two ways is one value when an
/// option is given twice (`--rate 50 --rate 50.0`, `--bus 0x1 --bus 1`, `-o ./a.csv -o a.csv`).
public enum OptionValue: Sendable, Equatable {
    /// A decimal number (`ParsedArguments.double`): "50", "50.0" and "5e1" are one value.
    case number(String)
    /// A whole number, decimal or 0x-prefixed hex (`ParsedArguments.integer`): "0x1" is "1".
    case integer(String)
    /// Seconds, or m:ss / h:mm:ss (`ClockSeconds`): "90", "90.0" and "1:30" are one value.
    case seconds(String)
    /// A file: "./a.csv", "a.csv" and ".//a.csv" name one file (compared lexically: no symlink or
    /// `..` resolution, which would need the file system).
    case path(String)
    /// Anything else (a source spec, a name, a matrix): compared as text.
    case text(String)

    /// The value's name in `--help`.
    public var name: String {
        switch self {
        case .number(let n), .integer(let n), .seconds(let n), .path(let n), .text(let n): n
        }
    }

    /// Do `a` and `b` stand for one value of this kind? Text that does not parse as the kind
    /// compares as text, so two spellings of one wrong value are still one (wrong) value.
    func same(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        switch self {
        case .number:
            guard let x = DecimalParser.parse(a), let y = DecimalParser.parse(b) else { return false }
            return x == y
        case .integer:
            guard let x = Self.integer(a), let y = Self.integer(b) else { return false }
            return x == y
        case .seconds:
            guard let x = ClockSeconds.parse(a), let y = ClockSeconds.parse(b) else { return false }
            return x == y
        case .path:
            return Self.lexical(a) == Self.lexical(b)
        case .text:
            return false
        }
    }

    /// A whole number, decimal or 0x-prefixed hex (as i2c-tools reads addresses and bus numbers).
    static func integer(_ text: String) -> Int? {
        text.lowercased().hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
    }

    /// `path` without "." components, repeated slashes or a trailing slash. "-" (standard input
    /// or output) stays "-"; "./-" is a file named "-", and stays distinct.
    static func lexical(_ path: String) -> String {
        if path == "-" { return path }
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        if joined.isEmpty { return "." }
        return joined == "-" ? "./-" : joined
    }
}
