import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Checks that a daemon a test harness starts dies with the test process: runs one test of this
/// test binary in a child process (the probe: it starts the daemon and reports the daemon's
/// group), kills that child with SIGKILL, and looks for what is left of the group.
public enum OrphanCheck {
    /// Set in the child's environment to the file the probe reports to; unset in a normal run,
    /// where the probe test is skipped.
    public static let variable = "IMUKIT_ORPHAN_PROBE"

    /// The probe's report file, nil in a normal run.
    public static var reportPath: String? { ProcessInfo.processInfo.environment[variable] }

    /// Seconds the probe's test process may take to start and bring its daemon up: the test
    /// binary's start, then the harness's own patience (gpsfake: up to 3 starts of 20 s).
    public static let startPatience = 90.0
    /// Seconds the daemon may take to go once the test process is killed: the kernel closes the
    /// dead process's files at once, the watcher's read returns and it sends one kill(2);
    /// 5 s covers a CPU shared by four builds.
    public static let exitPatience = 5.0

    /// In the probe: reports `group` and waits to be killed (at most `startPatience` s more).
    public static func report(group: pid_t, to path: String) throws {
        try "\(group)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(startPatience)
        while Date() < deadline { usleep(100_000) }
    }

    /// Runs the test `filter` names in a child test process with `variable` set, waits for its
    /// report, kills the child (SIGKILL) and returns the reported group with the members of it
    /// still alive after `exitPatience` s. Survivors are then killed, so a failing check leaves
    /// nothing behind either.
    public static func survivors(afterKillingProbe filter: String) throws -> (group: pid_t, survivors: [pid_t]) {
        let report = NSTemporaryDirectory() + "imukit-orphan-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = report
        child.environment = environment
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        let deadline = Date().addingTimeInterval(startPatience)
        var group: pid_t?
        while group == nil, child.isRunning, Date() < deadline {
            group = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if group == nil { usleep(50_000) }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        guard let group, group > 1 else {
            throw GuardedDaemonError(message: "the probe \(filter) reported no daemon in \(Int(startPatience)) s")
        }
        let gone = Date().addingTimeInterval(exitPatience)
        var left = GuardedDaemon.members(ofGroup: group)
        while !left.isEmpty, Date() < gone {
            usleep(50_000)
            left = GuardedDaemon.members(ofGroup: group)
        }
        if !left.isEmpty { kill(-group, SIGKILL) }
        return (group, left)
    }
}
