import CStandardDescriptors
#if canImport(Glibc)
import Glibc
#endif

/// A recording named on the command line (`--replay FILE`, `--from-recording FILE`), where "-"
/// is standard input. One place refuses a standard input that was closed at start, for every tool.
public enum ReplayInput {
    /// Throws a usage error when `path` is "-" and standard input was closed when the tool
    /// started (`<&-`): /dev/null stands in for it, and reading it would find no header. Or when
    /// standard input is the terminal: the tool would wait, silent, for a recording typed by hand
    /// (a forgotten `< walk.csv`); zstd and xz refuse their terminal input the same way. Or a
    /// directory redirected into it.
    /// `/dev/stdin` and its other names are standard input too: `--replay /dev/stdin <&-` read the
    /// /dev/null standing in for it ("the file is empty"), and at a terminal it waited, silent.
    public static func checkStandardInput(_ path: String, option: String, command: String) throws {
        guard standardInputNames.contains(path) else { return }
        let fix = "pipe or redirect a recording into it, e.g. \(option) \(path) < walk.csv, or name the file: \(option) walk.csv"
        if cstd_closed_at_start() & (1 << STDIN_FILENO) != 0 {
            throw UsageError("\(option) \(path): standard input is closed (<&-), so there is no recording to read", command: command, fix: fix)
        }
        if isatty(STDIN_FILENO) == 1 {
            throw UsageError("\(option) \(path): standard input is the terminal, not a recording", command: command, fix: fix)
        }
        // `< /` or `< ~/recordings`: the first read failed with EISDIR and no fix line.
        var st = stat()
        if fstat(STDIN_FILENO, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            throw UsageError("\(option) \(path): standard input is a directory, not a recording", command: command, fix: fix)
        }
    }

    /// The names a command line gives standard input: "-" and the kernel's links to descriptor 0.
    static let standardInputNames: Set<String> = ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]

    /// Opens the recording `path` given with `option`, after `checkStandardInput`.
    public static func reader(_ path: String, option: String, command: String) throws -> RecordingReader {
        try checkStandardInput(path, option: option, command: command)
        return try RecordingReader(path: path)
    }
}
