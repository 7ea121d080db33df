/// The program reading standard output ended before the tool did (`| head -1` that has its line,
/// `| false`): the write failed with EPIPE, because `ToolMain` ignores SIGPIPE, which would
/// otherwise have killed the tool with status 141 and no word. An I/O failure, exit 1
/// (docs/CONTRACTS.md §4); what went to files is kept (they are closed as after Ctrl-C).
public struct ReaderGone: DiagnosableError {
    /// What reached the reader before it went: a count and its noun ("lines", "samples").
    public var delivered: Int
    public var unit: String
    /// How to keep everything, for this tool.
    public var keepAll: String

    public init(delivered: Int, unit: String = "lines",
                keepAll: String = "send it to a file (> FILE) or to a program that reads to the end") {
        self.delivered = delivered
        self.unit = unit
        self.keepAll = keepAll
    }

    public var description: String {
        "standard output closed: the program reading it (e.g. head) ended, so this stopped after "
            + "\(counted(delivered, String(unit.dropLast()), unit)) had been written to it"
    }
    public var exitStatus: ExitStatus { .runtimeFailure }
    public var fix: String? { "nothing is wrong if the first lines were all you wanted; to keep the whole output, \(keepAll)" }
}
