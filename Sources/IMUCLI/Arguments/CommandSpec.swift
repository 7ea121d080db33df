/// Describes a command's options, in the spirit of i2c-tools and libiio: short help, examples.
public struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "replay".
    public var long: String
    /// Optional one-letter alias, e.g. "r" for `-r`.
    public var short: Character?
    /// The value's kind and its name in help (e.g. `.path("FILE")`); nil for a flag.
    public var value: OptionValue?
    public var help: String

    /// Name of the value in help (e.g. "FILE"); nil for a flag that takes no value.
    public var valueName: String? { value?.name }

    public init(_ long: String, short: Character? = nil, value: OptionValue? = nil, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.help = help
    }
}

public struct CommandSpec: Sendable {
    public var name: String
    /// One line: what the command does.
    public var summary: String
    /// Usage templates without the command name, naming options only, e.g. "--replay [--json]":
    /// `UsageLines` adds the value names and every option no template names.
    public var usage: [String]
    public var options: [OptionSpec]
    /// Example invocations with a comment each.
    public var examples: [(String, String)]
    /// Does the command take positional arguments?
    public var acceptsPositionals: Bool

    public init(name: String, summary: String, usage: [String], options: [OptionSpec],
                examples: [(String, String)] = [], acceptsPositionals: Bool = false) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options + [OptionSpec("help", short: "h", help: "show this help and exit"),
                                  OptionSpec("version", help: "print the version and git commit and exit")]
        self.examples = examples
        self.acceptsPositionals = acceptsPositionals
        assert(UsageLines.unknownNames(usage, options: self.options).isEmpty,
               "\(name)'s usage names options it does not have: \(UsageLines.unknownNames(usage, options: self.options))")
    }

    /// The text `--help` prints.
    public var helpText: String {
        var out = "\(name): \(summary)\n\nUsage:\n"
        for u in UsageLines.render(command: name, templates: usage, options: options) { out += "  \(u)\n" }
        out += "\nOptions:\n"
        let rendered = options.map { o -> (String, String) in
            var left = o.short.map { "-\($0), " } ?? "    "
            left += "--\(o.long)"
            if let v = o.valueName { left += " \(v)" }
            return (left, o.help)
        }
        // The help column: two spaces after the longest option, at most 34 columns in, so help
        // text keeps 45 of `UsageLines.width`'s 79.
        let width = min(34, (rendered.map(\.0.count).max() ?? 0) + 2)
        for (left, help) in rendered {
            let pad = left.count < width ? String(repeating: " ", count: width - left.count) : "  "
            out += "  \(left)\(pad)\(help)\n"
        }
        if !examples.isEmpty {
            out += "\nExamples:\n"
            for (cmd, what) in examples { out += "  \(cmd)\n      \(what)\n" }
        }
        out += "\nExit codes: 0 ok, 1 runtime failure, 2 usage error, 3 no sensor or permission denied.\n"
        return out
    }

    /// The line `--version` prints, e.g. "imu-steps 0.1.0 (git abcdef1)": VERSION and the commit,
    /// generated at build time (packaging/version.sh).
    public var versionText: String { "\(name) \(BuildVersion.version) (git \(BuildVersion.commit))\n" }
}
