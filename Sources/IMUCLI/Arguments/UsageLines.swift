/// The "Usage:" lines of `--help`, drawn from the option table so that none can be missed or go
/// stale: imu-record's hand-written line lacked --force, --quiet, --mount, --speed, --realtime.
///
/// A command's usage templates name options only (`"--replay [--realtime] [--json]"`, `-o`);
/// each option's value name (`FILE`) comes from its `OptionSpec`. The options no template names
/// are added to the first line, in table order, as `[--name VALUE]`. Lines wider than `width`
/// columns wrap between bracket (or parenthesis) groups, under the first option.
enum UsageLines {
    /// Columns: one under an 80-column terminal, so a full line never wraps on its own.
    static let width = 79

    static func render(command: String, templates: [String], options: [OptionSpec]) -> [String] {
        var named = Set<String>()
        var lines = templates.map { fillValueNames($0, options: options, named: &named) }
        let rest = options.filter { !named.contains($0.long) && !["help", "version"].contains($0.long) }
        let extra = rest.map { o in "[--\(o.long)" + (o.valueName.map { " \($0)" } ?? "") + "]" }
        if !extra.isEmpty {
            if lines.isEmpty { lines = [""] }
            lines[0] = ([lines[0]] + extra).filter { !$0.isEmpty }.joined(separator: " ")
        }
        return lines.flatMap { wrapped(command + " " + $0, indent: command.count + 1) }
            .map { $0.replacing(String(bond), with: " ") }
    }

    /// Joins an option to its value name until the line is wrapped, so no line ends between them.
    private static let bond: Character = "\u{1F}"


    /// Names in `template` that no option has: a template out of step with the table.
    static func unknownNames(_ templates: [String], options: [OptionSpec]) -> [String] {
        templates.flatMap(optionTokens).filter { token in lookUp(token, options) == nil }.map(\.text)
    }

    /// `template` with each option's value name after it; the long names met go to `named`.
    private static func fillValueNames(_ template: String, options: [OptionSpec], named: inout Set<String>) -> String {
        var out = template
        for token in optionTokens(template).reversed() {
            guard let o = lookUp(token, options) else { continue }
            named.insert(o.long)
            if let value = o.valueName { out.insert(contentsOf: String(bond) + value, at: token.end) }
        }
        return out
    }

    private struct Token { let text: String; let end: String.Index }

    /// `--name` and `-x` in `template`: a dash-led run of letters, digits and dashes that starts
    /// the template or follows a space, `[` or `|`.
    private static func optionTokens(_ template: String) -> [Token] {
        var tokens: [Token] = []
        var i = template.startIndex
        while i < template.endIndex {
            let atStart = i == template.startIndex || " [|".contains(template[template.index(before: i)])
            if atStart, template[i] == "-" {
                var end = template.index(after: i)
                while end < template.endIndex, template[end].isLetter || template[end].isNumber || template[end] == "-" {
                    end = template.index(after: end)
                }
                tokens.append(Token(text: String(template[i..<end]), end: end))
                i = end
            } else {
                i = template.index(after: i)
            }
        }
        return tokens
    }

    private static func lookUp(_ token: Token, _ options: [OptionSpec]) -> OptionSpec? {
        if token.text.hasPrefix("--") { return options.first { "--" + $0.long == token.text } }
        guard token.text.count == 2, let letter = token.text.last else { return nil }
        return options.first { $0.short == letter }
    }

    /// `line` cut at spaces outside brackets and parentheses so no piece passes `width`;
    /// continuations indented.
    private static func wrapped(_ line: String, indent: Int) -> [String] {
        var groups: [String] = [], current = "", depth = 0
        for c in line {
            if "[(".contains(c) { depth += 1 } else if "])".contains(c) { depth -= 1 }
            if c == " ", depth == 0 { groups.append(current); current = "" } else { current.append(c) }
        }
        groups.append(current)
        var lines: [String] = [], row = ""
        for g in groups where !g.isEmpty {
            if row.isEmpty { row = g; continue }
            if row.count + 1 + g.count > width - 2, row.count > indent {
                lines.append(row)
                row = String(repeating: " ", count: indent) + g
            } else {
                row += " " + g
            }
        }
        lines.append(row)
        return lines
    }
}
