/// The program reading standard output ended before the tool did (`| head -1` that has its line,
/// `| false`): the write failed with EPIPE, because `ToolMain` ignores SIGPIPE, which would
/// otherwise have killed the tool with status 141 and no word. An I/O failure, exit 1
/// (docs/CONTRACTS.md §4); what went to files is kept (they are closed as after Ctrl-C).
public struct ReaderGone: DiagnosableError {
    /// What was written into the pipe before the reader closed it: a count and its noun ("lines",
    /// "samples"). How much of it the reader read is not known: a pipe holds up to 64 KiB
    /// (pipe(7)) that a reader that closes its end never takes.
    public var written: Int
    public var unit: String
    /// How to keep everything, for this tool.
    public var keepAll: String

    public init(written: Int, unit: String = "lines",
                keepAll: String = "send it to a file (> FILE) or to a program that reads to the end") {
        self.written = written
        self.unit = unit
        self.keepAll = keepAll
    }

    public var description: String {
        "standard output closed: the program reading the pipe (e.g. head) closed its end, so this stopped after writing "
            + "\(counted(written, String(unit.dropLast()), unit)) into the pipe (the reader may not have read them all)"
    }
    public var exitStatus: ExitStatus { .runtimeFailure }
    public var fix: String? { "nothing is wrong if the first lines were all you wanted; to keep the whole output, \(keepAll)" }
}
