import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real daemon a test starts (mosquitto, dbus-daemon, gpsfake and its gpsd) that cannot outlive
/// the test process, even when that process is killed with SIGKILL and no code of it runs.
///
/// A small `sh` leads a process group of its own (Foundation's `Process` spawns with
/// POSIX_SPAWN_SETPGROUP; the script refuses to go on otherwise), starts a watcher in the
/// background and then becomes the daemon (exec), so the daemon, what it starts and the watcher
/// share that group. The watcher reads one end of a socket pair, the lifeline, whose other end
/// stays only in the test process (close-on-exec, so no other child keeps it). When that end
/// closes (`stop()`, or the kernel closing the files of a test process that died) the watcher
/// reads end-of-file and sends SIGKILL to the whole group.
///
/// Not PR_SET_PDEATHSIG: it fires when the *thread* that started the child ends (prctl(2)), and a
/// test's thread (an `OffPool` job, a pool worker) ends long before the process does. Not a shell
/// that `wait`s for the daemon: children of the test runner inherit its blocked signals, SIGCHLD
/// among them, and dash's `wait` sleeps in sigsuspend(2) for a SIGCHLD that never comes.
/// SIGKILL throughout for the same reason (a blocked SIGTERM could wait forever).
public final class GuardedDaemon {
    /// The daemon (the shell it replaced): its process ID is also its process group's.
    public let process = Process()
    private var lifeline: Int32 = -1

    /// The shell: `$@` is the daemon's command. The watcher reads the lifeline through fd 3 (sh
    /// gives a background list /dev/null as standard input unless redirected); the daemon gets
    /// /dev/null and no copy of the lifeline. 125: not a group leader, so `kill 0` would reach
    /// the test process's own group.
    static let script = """
        [ "$(cut -d' ' -f5 /proc/$$/stat)" = "$$" ] || exit 125
        exec 3<&0
        { read -r line; kill -KILL 0; } <&3 2>/dev/null &
        exec 3<&- </dev/null
        exec "$@"
        """

    /// Starts `executable` with `arguments`; its output goes where `output` and `error` say (nil:
    /// /dev/null). The daemon may not be ready yet when this returns.
    public init(_ executable: String, _ arguments: [String], output: FileHandle? = nil, error: FileHandle? = nil) throws {
        var ends: [Int32] = [-1, -1]
        // A socket pair (Glibc's Swift module has no pipe2), close-on-exec from its creation.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw GuardedDaemonError(message: "socketpair for \(executable)'s lifeline: \(String(cString: strerror(errno)))")
        }
        lifeline = ends[1]
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", Self.script, "guard", executable] + arguments
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = error ?? FileHandle.nullDevice
        do { try process.run() } catch {
            close(ends[0])
            close(lifeline)
            lifeline = -1
            throw error
        }
        close(ends[0])
    }

    deinit { stop() }

    /// The daemon's process ID and process group.
    public var pid: pid_t { process.processIdentifier }

    public var isRunning: Bool { process.isRunning }

    /// Kills the daemon's process group (SIGKILL, as a crash would end it) and waits for it.
    public func stop() {
        guard lifeline >= 0 else { return }
        close(lifeline)
        lifeline = -1
        process.waitUntilExit()
    }

    /// Processes (not zombies) in process group `group`, from /proc/PID/stat: the daemon, what it
    /// started and the watcher.
    public static func members(ofGroup group: pid_t) -> [pid_t] {
        guard group > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "(comm)": state ppid pgrp session ... (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }
}

public struct GuardedDaemonError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
