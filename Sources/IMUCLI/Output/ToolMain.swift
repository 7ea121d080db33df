#if canImport(Glibc)
import Glibc
#endif

/// Runs a tool's body: parses arguments, prints `--help` and `--version`, and turns every error into a message on
/// standard error with its fix and the contract's exit code (docs/CONTRACTS.md §4).
/// No error escapes as a crash.
public enum ToolMain {
    public static func run(_ spec: CommandSpec, _ body: (ParsedArguments) async throws -> ExitStatus) async -> Never {
        let args = Array(CommandLine.arguments.dropFirst())
        let status: ExitStatus
        do {
            let parsed = try ArgumentParser.parse(args, spec: spec)
            if parsed.wantsHelp {
                Terminal.standardOutput.write(spec.helpText)
                Terminal.standardOutput.flush()
                exit(0)
            }
            if parsed.wantsVersion {
                Terminal.standardOutput.write(spec.versionText)
                Terminal.standardOutput.flush()
                exit(0)
            }
            status = try await body(parsed)
        } catch {
            status = report(error, command: spec.name)
        }
        Terminal.standardOutput.flush()
        Terminal.standardError.flush()
        exit(status.rawValue)
    }

    /// Prints `command: message` and `  fix: …` on standard error; returns the exit status.
    @discardableResult
    public static func report(_ error: any Error, command: String) -> ExitStatus {
        Terminal.standardOutput.flush()
        if let d = error as? any DiagnosableError {
            var text = "\(command): \(d.description)\n"
            if let fix = d.fix { text += "  fix: \(fix)\n" }
            Terminal.standardError.write(text)
            Terminal.standardError.flush()
            return d.exitStatus
        }
        if error is CancellationError { return .success }
        Terminal.standardError.write("\(command): \(error)\n")
        Terminal.standardError.flush()
        return .runtimeFailure
    }
}
