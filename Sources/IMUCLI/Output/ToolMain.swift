#if canImport(Glibc)
import Glibc
#endif
import CStandardDescriptors
import IMUCore

/// Runs a tool's body: parses arguments, prints `--help` and `--version`, and turns every error into a message on
/// standard error with its fix and the contract's exit code (docs/CONTRACTS.md §4).
/// No error escapes as a crash.
public enum ToolMain {
    public static func run(_ spec: CommandSpec, _ body: (ParsedArguments) async throws -> ExitStatus) async -> Never {
        let closedAtStart = occupyClosedStandardDescriptors()
        // Ctrl-\ (SIGQUIT) quits quietly, as in any Unix tool, instead of running Swift's crash
        // backtracer ("Program crashed", then a 30 s wait). Tools with a `SignalTrap` stop cleanly.
        signal(SIGQUIT, SIG_DFL)
        // A closed pipe (`| head -1`) makes writes fail with EPIPE instead of killing the tool
        // with status 141 and no word: the output stream stops the tool (`onReaderGone`) and
        // `finish` says what happened (`ReaderGone`). Threads that block SIGPIPE keep doing so.
        signal(SIGPIPE, SIG_IGN)
        // Warnings from capture threads and a replay's notes join the ordered output.
        StandardErrorLine.route(through: { text in
            Terminal.standardError.write(text)
            Terminal.standardError.flush()
        })
        let args = Array(CommandLine.arguments.dropFirst())
        let status: ExitStatus
        do {
            if let bad = NonUTF8Argument.first(spec: spec) { throw bad }
            let parsed = try ArgumentParser.parse(args, spec: spec)
            if parsed.wantsHelp {
                Terminal.standardOutput.write(spec.helpText)
                exit(await finish(.success, command: spec.name, outputWasClosed: closedAtStart.contains(STDOUT_FILENO)).rawValue)
            }
            if parsed.wantsVersion {
                Terminal.standardOutput.write(spec.versionText)
                exit(await finish(.success, command: spec.name, outputWasClosed: closedAtStart.contains(STDOUT_FILENO)).rawValue)
            }
            status = try await body(parsed)
        } catch {
            status = report(error, command: spec.name)
        }
        // Capture threads stop their devices (an IIO buffer, a trigger attached) once they see
        // the stream end: exiting before that would leave them running (`CaptureThread.drained`).
        _ = await CaptureThread.drained()
        exit(await finish(status, command: spec.name, outputWasClosed: closedAtStart.contains(STDOUT_FILENO)).rawValue)
    }

    /// Flushes both streams; output lost on standard output (full disk, closed descriptor, a
    /// reader that went away) turns a success into exit 1 with the reason.
    /// Waits, suspended, until both streams are written (by `OutputStream.writer`).
    static func finish(_ status: ExitStatus, command: String, outputWasClosed: Bool) async -> ExitStatus {
        await Terminal.standardOutput.written()
        var status = status
        if Terminal.standardOutput.readerGone {
            let gone = report(ReaderGone(written: Terminal.standardOutput.linesWritten), command: command)
            if status == .success { status = gone }
        } else if let failure = Terminal.standardOutput.failure {
            let reason = outputWasClosed ? "it is closed" : failure
            let code = Terminal.standardOutput.failureCode
            // "Free space" only where space is what is missing (a closed or read-only descriptor is
            // not full), and only on a disk: `> /dev/full` was told to free space on the disk.
            let full = [ENOSPC, EDQUOT, EFBIG].contains(code)
            let fix = outputWasClosed ? "run it with standard output open (no >&-), or send the output to a file (> FILE)"
                : full ? OutputGuard.standardOutputDevice().map { OutputGuard.fullDeviceFix($0, alternative: "send the output to a file (> FILE) or to a program that reads it") }
                    ?? "free space on the disk, or send the output somewhere that accepts it"
                : "send the output to a file (> FILE) or to a program that reads it"
            Terminal.standardError.write("\(command): cannot write to standard output: \(reason)\n  fix: \(fix)\n")
            if status == .success { status = .runtimeFailure }
        }
        await Terminal.standardError.written()
        return status
    }

    /// Prints `command: message` and `  fix: …` on standard error; returns the exit status.
    @discardableResult
    public static func report(_ error: any Error, command: String) -> ExitStatus {
        Terminal.standardOutput.flush()
        if let d = error as? any DiagnosableError {
            // Escaped: messages quote file names, file content and device names.
            var text = "\(command): \(d.description.escapedForTerminal)\n"
            if let fix = d.fix { text += "  fix: \(fix.escapedForTerminal)\n" }
            Terminal.standardError.write(text)
            Terminal.standardError.flush()
            return d.exitStatus
        }
        if error is CancellationError { return .success }
        Terminal.standardError.write("\(command): \("\(error)".escapedForTerminal)\n")
        Terminal.standardError.flush()
        return .runtimeFailure
    }

    /// A tool started with standard input, output or error closed (`>&-`) would hand that number
    /// to the next file it opens, and its output would land in a recording or vanish. /dev/null
    /// opened read-only takes the number instead: reads see end of file, writes fail with EBADF,
    /// which `finish` reports.
    /// Returns the descriptors that were closed.
    static func occupyClosedStandardDescriptors() -> Set<Int32> {
        // The constructor in CStandardDescriptors ran before Dispatch could take these numbers.
        let early = cstd_closed_at_start()
        var closedAtStart = Set([STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO].filter { early & (1 << $0) != 0 })
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            closedAtStart.insert(fd)
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd { _ = dup2(null, fd); _ = close(null) }
        }
        return closedAtStart
    }
}
