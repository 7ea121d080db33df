import IMUCore

/// An argument whose bytes are not UTF-8 (a file name from an old Latin-1 system, a stray byte).
/// Swift's `CommandLine.arguments` replaces such bytes with U+FFFD, so the tool would look for,
/// or create, a file of another name (`imu-record -o $'\xfe.csv'` wrote "\u{FFFD}.csv"): refused
/// instead, naming the bytes.
public struct NonUTF8Argument: DiagnosableError {
    /// The argument's bytes, escaped: printable ASCII kept, every other byte `\xNN`.
    public var shown: String
    /// What the argument is: a file name (renaming is the fix), an option, or another value (a
    /// scenario, a source): "rename the file" was the fix for `--simulate $'walk:\xff'` and `--\xffjson`.
    public var role: Role = .file

    public enum Role: Sendable, Equatable {
        /// A path option's value, or an argument no option claims.
        case file
        /// A path option's value written `--out=NAME`: the file's name is `shown` (escaped), after the '='.
        case fileAfterEquals(shown: String)
        /// The option itself (`--\xffjson`).
        case option(command: String)
        /// The value of an option that does not take a file (`--simulate`, `--source`).
        case value(option: String)
    }

    public var description: String { "argument '\(shown)' is not UTF-8 text, so it cannot be used as given" }
    public var exitStatus: ExitStatus { .usage }
    public var fix: String? {
        switch role {
        case .file:
            "rename the file to a UTF-8 name (e.g. convmv -f latin1 -t utf8 --notest FILE, or mv -- $'\(shown)' new-name), then name that"
        case .fileAfterEquals(let name):
            // It suggested `mv -- $'--out=\xFF.csv'`, a file of another name.
            "rename the file to a UTF-8 name (e.g. convmv -f latin1 -t utf8 --notest FILE, or mv -- $'\(name)' new-name), then name that"
        case .option(let command):
            "retype the option: options are plain ASCII (e.g. --json); '\(command) --help' lists them"
        case .value(let option):
            "retype the value of --\(option) as UTF-8 text (the terminal sent another encoding: locale charmap should print UTF-8)"
        }
    }

    /// The first argument (after the program name) that is not valid UTF-8, or nil when all are;
    /// `spec` tells a file name from an option or another value.
    public static func first(spec: CommandSpec? = nil) -> NonUTF8Argument? {
        var previous: [UInt8] = []
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i] else { continue }
            var bytes: [UInt8] = []
            var p = raw
            while p.pointee != 0 { bytes.append(UInt8(bitPattern: p.pointee)); p += 1 }
            if String(validating: bytes, as: UTF8.self) == nil {
                var bad = NonUTF8Argument(shown: escaped(bytes))
                if let spec { bad.role = role(of: bytes, after: previous, in: spec) }
                return bad
            }
            previous = bytes
        }
        return nil
    }

    /// What `bytes` is, given the argument before it (`--simulate` then its value) or its own
    /// `--name=` prefix.
    static func role(of bytes: [UInt8], after previous: [UInt8], in spec: CommandSpec) -> Role {
        func option(named text: [UInt8]) -> OptionSpec? {
            let name = String(decoding: text, as: UTF8.self)
            if name.hasPrefix("--") { return spec.options.first { $0.long == name.dropFirst(2) } }
            if name.count == 2, name.hasPrefix("-") { return spec.options.first { $0.short == name.last } }
            return nil
        }
        func role(ofValueOf o: OptionSpec) -> Role {
            if case .path = o.value { return .file }
            return .value(option: o.long)
        }
        let dash = UInt8(ascii: "-")
        if bytes.first == dash {
            // `--out=\xff.csv`: the option's value; `--\xffjson`: the option itself.
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")), let o = option(named: Array(bytes[..<equals])), o.value != nil {
                let valueRole = role(ofValueOf: o)
                return valueRole == .file ? .fileAfterEquals(shown: escaped(Array(bytes[(equals + 1)...]))) : valueRole
            }
            return .option(command: spec.name)
        }
        if previous.first == dash, !previous.contains(UInt8(ascii: "=")), let o = option(named: previous), o.value != nil {
            return role(ofValueOf: o)
        }
        return .file
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
