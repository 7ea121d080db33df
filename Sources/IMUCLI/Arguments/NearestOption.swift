/// The options (or config settings) an unknown one was most likely meant to be: a slip of the keyboard (`--josn`,
/// `--duraton`, `--simualte`) or a shortened name (`--sim`). Without it, a typo that shares no
/// three-letter prefix with an option (`--lenght`, `--ouput`) got only "see --help".
public enum NearestOption {
    /// The names in `options` nearest to `typed`, in table order: those `typed` begins (a name
    /// cut short, `--sim`), else those within `allowedEdits(typed)` edits, the fewest first, else
    /// those `typed` begins with (a name with more after it, `--source-spec`, `--outfile`); empty
    /// when none is close. Cut short or extended, the shared part is `shortestPrefix` letters or more.
    public static func names(_ typed: String, among options: [String]) -> [String] {
        let lowered = typed.lowercased()
        let started = options.filter { $0.hasPrefix(lowered) && lowered.count >= shortestPrefix }
        if !started.isEmpty { return started }
        let limit = allowedEdits(lowered)
        let scored = options.map { ($0, edits(lowered, $0)) }.filter { $0.1 <= limit }
        if let best = scored.map(\.1).min() { return scored.filter { $0.1 == best }.map(\.0) }
        let extended = options.filter { lowered.hasPrefix($0) && $0.count >= shortestPrefix }
        return extended.max { $0.count < $1.count }.map { [$0] } ?? []
    }

    /// Three letters name an option (`--sim`, `--out`); two (`--du`) match too many.
    static let shortestPrefix = 3

    /// One edit for a name of up to 5 letters (`--outt` is --out, `--jsn` is --json), one more for
    /// every further 4 letters (`--simualte` is 1, `--from-recordng` 1, `--realtiem` 1): a third
    /// of a long name changed is no longer a typo of it (`--verbose` is not `--version`: 4 edits).
    static func allowedEdits(_ name: String) -> Int { 1 + max(0, name.count - 2) / 4 }

    /// Edits turning `a` into `b`: insert, delete, replace, or swap two neighbours (optimal
    /// string alignment distance; a swap is the commonest slip of two fingers).
    static func edits(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var before = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[y.count]
    }

    /// Options a one-line hint names at most: three keep the message on one 80-column line.
    static let namesShown = 3

    /// " (did you mean --a?)" or " (did you mean --a or --b?)", or "" when nothing is close.
    static func hint(_ typed: String, among options: [String]) -> String {
        let near = names(typed, among: options).prefix(namesShown).map { "--\($0)" }
        guard let last = near.last else { return "" }
        let listed = near.count == 1 ? last : near.dropLast().joined(separator: ", ") + " or " + last
        return " (did you mean \(listed)?)"
    }
}
