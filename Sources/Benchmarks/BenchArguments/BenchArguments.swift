import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// The benchmarks' command lines. A benchmark takes few arguments or none; a careless
/// `imu-bench-core --help` ran the whole bench (minutes) and a typo was ignored, and the one that
/// refused a bad argument said only "try --help". Here `--help` prints the usage, and any other
/// argument is a usage error (exit 2, docs/CONTRACTS.md §4) that names the fix.
public enum BenchArguments {
    /// Writes `TOOL: MESSAGE` and `  fix: FIX` to standard error (escaped for the terminal), as
    /// the tools do, and exits 2. Each on one line: an argument holding a newline
    /// (`$'a\n  fix: rm -rf ~'`) printed a fix line of its own making.
    public static func usageError(_ tool: String, _ message: String, fix: String) -> Never {
        StandardErrorLine.write("\(tool): \(message.escapedOnOneLine)\n  fix: \(fix.escapedOnOneLine)\n")
        exit(2)
    }

    /// For a benchmark run without arguments (`imu-bench-core`), or with only the flags in
    /// `flags` (each with its help): `--help` / `-h` prints `summary` and exits 0; anything else is
    /// refused with the fix. `privateModes` are first arguments the benchmark passes to itself (a
    /// child it starts), with how many values follow them.
    public static func acceptNone(_ tool: String, summary: String, flags: [(String, String)] = [], privateModes: [String: Int] = [:],
                                  arguments: [String] = CommandLine.arguments) {
        let given = Array(arguments.dropFirst())
        guard let first = given.first else { return }
        let form = flags.isEmpty ? tool : tool + " " + flags.map { "[\($0.0)]" }.joined(separator: " ")
        if first == "--help" || first == "-h" {
            let takes = flags.isEmpty ? "It takes no arguments" : "Flags:\n" + flags.map { "  \($0.0)  \($0.1)" }.joined(separator: "\n") + "\nIt takes no other arguments"
            print("usage: \(form)\n\(summary)\n\(takes); it prints figures and asserts nothing (make bench runs every benchmark).")
            exit(0)
        }
        if let values = privateModes[first], given.count == 1 + values { return }
        guard let unknown = given.first(where: { argument in !flags.contains { $0.0 == argument } }) else { return }
        usageError(tool, "unknown argument '\(unknown.escapedValue)': \(tool) takes \(flags.isEmpty ? "no arguments" : "only " + flags.map(\.0).joined(separator: " and "))",
                   fix: "run it \(flags.isEmpty ? "alone:" : "as") \(form) (or make bench for every benchmark)")
    }
}
