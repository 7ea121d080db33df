/// A usage error: bad flag, missing value, value out of range. Exit 2 (docs/CONTRACTS.md §4).
public struct UsageError: DiagnosableError {
    public var message: String
    public var command: String
    /// The fix when the message has a more precise one than the help text.
    public var specificFix: String?
    public init(_ message: String, command: String, fix: String? = nil) {
        self.message = message
        self.command = command
        specificFix = fix
    }
    public var description: String { message }
    public var exitStatus: ExitStatus { .usage }
    /// Every usage error of the tools names its own fix (the form, the range and unit, or the
    /// option meant); the help text is the fallback for a caller that has none.
    public var fix: String? { specificFix ?? "see '\(command) --help'" }
}

/// The parsed command line.
public struct ParsedArguments: Sendable {
    public let command: String
    /// Flags and options given, by long name; flags map to "".
    public private(set) var values: [String: String] = [:]
    public private(set) var positionals: [String] = []
    /// The options' specs, by long name: a message about an option quotes its form and help.
    private var specs: [String: OptionSpec] = [:]
    /// Was `--help` asked for?
    public var wantsHelp: Bool { values["help"] != nil }
    /// Was `--version` asked for?
    public var wantsVersion: Bool { values["version"] != nil }

    init(command: String, options: [OptionSpec] = []) {
        self.command = command
        for o in options { specs[o.long] = o }
    }

    /// `--rate HZ (sample rate in Hz …)`: the option as written with its value, and its help line,
    /// for a fix that shows the form without sending the user to `--help`.
    public func form(_ name: String) -> String {
        guard let o = specs[name] else { return "--\(name)" }
        return "--\(name)\(o.valueName.map { " \($0)" } ?? "") (\(o.help))"
    }

    public func flag(_ name: String) -> Bool { values[name] != nil }
    public func string(_ name: String) -> String? { values[name] }

    /// A number option, checked against `range` (so `--rate -5` is a usage error, not a silent zero).
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let v = DecimalParser.parse(text) else {
            // A number too large for a Double (1e400), or infinity: a number out of range, not "not a number".
            if let v = Double(text), v.isInfinite { throw outOfRange(name, range, text) }
            let (low, high) = (range.lowerBound.asWritten, range.upperBound.asWritten)
            throw UsageError("--\(name) needs a number from \(low) to \(high), got '\(text.escapedValue)'", command: command,
                             fix: "write a plain number (such as 12.5 or 1e2) from \(low) to \(high): \(form(name))")
        }
        guard range.contains(v) else { throw outOfRange(name, range, text) }
        return v
    }

    /// An integer option; accepts decimal or 0x-prefixed hex (as i2c-tools does for addresses).
    public func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let v = OptionValue.integer(text) else {
            // Digits too many for an Int (99999999999999999999): out of range, not "not a whole number".
            let digits = text.drop { $0 == "-" || $0 == "+" }
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) { throw outOfRange(name, range, text) }
            throw UsageError("--\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text.escapedValue)'", command: command,
                             fix: "write digits (or 0x and hex digits) for a value from \(range.lowerBound) to \(range.upperBound): \(form(name))")
        }
        guard range.contains(v) else { throw outOfRange(name, range, text) }
        return v
    }

    private func outOfRange(_ name: String, _ range: ClosedRange<Double>, _ text: String) -> UsageError {
        outOfRange(name, low: range.lowerBound.asWritten, high: range.upperBound.asWritten, text)
    }

    private func outOfRange(_ name: String, _ range: ClosedRange<Int>, _ text: String) -> UsageError {
        outOfRange(name, low: String(range.lowerBound), high: String(range.upperBound), text)
    }

    /// Bounds as the option would be written: `--rate` "between 1 and 8000", not "1.0 and 8000.0"
    /// (`asWritten`); the fix names the range again with the option's form and help, so its unit
    /// shows (`--duration -1` was told "a number from 0.001 to 31536000" and sent to --help to
    /// learn those were seconds).
    private func outOfRange(_ name: String, low: String, high: String, _ text: String) -> UsageError {
        UsageError("--\(name) must be between \(low) and \(high), got \(text.escapedValue)", command: command,
                   fix: "give --\(name) a number from \(low) to \(high): \(form(name))")
    }

    /// Throws unless at most one of `names` was given.
    public func exclusive(_ names: [String]) throws {
        let given = names.filter { values[$0] != nil }
        if given.count > 1 {
            let listed = given.map { "--\($0)" }
            throw UsageError(listed.joined(separator: " and ") + " cannot be used together", command: command,
                             fix: "keep one: " + given.map { name in "--\(name)" + (specs[name]?.valueName.map { " \($0)" } ?? "") }.joined(separator: " or "))
        }
    }

    mutating func set(_ name: String, _ value: String) { values[name] = value }
    mutating func append(positional: String) { positionals.append(positional) }
}

/// A small getopt_long: `--name value`, `--name=value`, `-n value`, flags, and `--`.
public enum ArgumentParser {
    public static func parse(_ arguments: [String], spec: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.name, options: spec.options)
        var i = 0
        var onlyPositionals = false
        func option(long: String) throws -> OptionSpec {
            if let o = spec.options.first(where: { $0.long == long }) { return o }
            throw UsageError("unknown option --\(long)\(NearestOption.hint(long, among: spec.options.map(\.long)))", command: spec.name,
                             fix: unknownFix(long, spec: spec))
        }
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                guard spec.acceptsPositionals else {
                    throw UsageError("unexpected argument '\(arg)'", command: spec.name,
                                     fix: strayFix(arg, after: i >= 2 ? arguments[i - 2] : nil, spec: spec))
                }
                parsed.append(positional: arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            let o: OptionSpec
            var inlineValue: String?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    o = try option(long: String(body[..<eq]))
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    o = try option(long: String(body))
                }
            } else {
                guard arg.count == 2, let letter = arg.dropFirst().first,
                      let found = spec.options.first(where: { $0.short == letter }) else {
                    // `-replay`, `-json`: a long name with one dash, as find and java take them.
                    let name = String(arg.dropFirst().prefix { $0 != "=" })
                    let hint = arg.count > 2 ? NearestOption.hint(name, among: spec.options.map(\.long)) : ""
                    throw UsageError("unknown option \(arg)\(hint)", command: spec.name,
                                     fix: unknownFix(arg.count > 2 ? name : "", spec: spec))
                }
                o = found
            }
            if let kind = o.value {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard i < arguments.count else {
                        throw UsageError("--\(o.long) needs a value (\(kind.name))", command: spec.name,
                                         fix: "put the value after it, as --\(o.long) \(kind.name) or --\(o.long)=\(kind.name): \(parsed.form(o.long))")
                    }
                    value = arguments[i]
                    i += 1
                }
                // `--replay ""` (an unset shell variable) would name no file: ": cannot open".
                guard !value.isEmpty else {
                    throw UsageError("--\(o.long) needs a value (\(kind.name)), got an empty one", command: spec.name,
                                     fix: "give a value (an empty one is often a shell variable that is not set): \(parsed.form(o.long))")
                }
                // Given twice with different values, one would be dropped silently. One value
                // written two ways (`--rate 50 --rate 50.0`, `--bus 0x1 --bus 1`, a script's
                // default and the user's) is one value of the option's kind: harmless.
                if let earlier = parsed.string(o.long), !kind.same(earlier, value) {
                    throw UsageError("--\(o.long) given twice ('\(earlier.escapedValue)' and '\(value.escapedValue)'); give it once", command: spec.name,
                                     fix: "remove one of the two: --\(o.long) \(earlier.escapedValue) or --\(o.long) \(value.escapedValue)")
                }
                parsed.set(o.long, value)
            } else {
                guard inlineValue == nil else {
                    throw UsageError("--\(o.long) takes no value", command: spec.name,
                                     fix: "write --\(o.long) alone, without '=': \(parsed.form(o.long))")
                }
                parsed.set(o.long, "")
            }
        }
        return parsed
    }

    /// The fix for an unknown option: the option meant, when one is near, else the ones there are.
    private static func unknownFix(_ typed: String, spec: CommandSpec) -> String {
        let near = NearestOption.names(typed, among: spec.options.map(\.long))
        if near.count == 1 { return "write --\(near[0]) (\(spec.options.first { $0.long == near[0] }!.help))" }
        return "\(spec.name) takes " + spec.options.map { "--\($0.long)" }.joined(separator: ", ") + " ('\(spec.name) --help' says what each does)"
    }

    /// The fix for a word where an option was expected: the flag before it takes no value, or
    /// the tool takes options only.
    private static func strayFix(_ arg: String, after previous: String?, spec: CommandSpec) -> String {
        if let previous, previous.hasPrefix("--"), !previous.contains("="),
           let flag = spec.options.first(where: { $0.long == previous.dropFirst(2) }), flag.value == nil {
            return "--\(flag.long) takes no value: leave '\(arg)' out, or give it to the option it belongs to"
        }
        // A recording named alone (`imu-steps walk.csv`) is the likeliest stray word.
        if arg.lowercased().hasSuffix(".csv"), spec.options.contains(where: { $0.long == "replay" }) {
            return "give a recording with --replay: \(spec.name) --replay \(arg)"
        }
        let withValues = spec.options.filter { $0.value != nil }.prefix(NearestOption.namesShown).map { "--\($0.long) \($0.valueName!)" }
        return "\(spec.name) takes options only; a value goes after its option (e.g. \(withValues.joined(separator: ", ")))"
    }
}
