import Foundation
import OffPool
import Testing

/// `imu-plot --day` reading a history it may not write, and paths that are no history file
/// (the new-user audit of session 3).
@Suite(.offPool, .serialized) struct DayHistoryAccessTests {
    /// Once imu-stepd had stopped (its -wal and -shm files gone), any other user got "attempt to
    /// write a readonly database": SQLite wants to create the -shm file beside a WAL database.
    @Test func anotherUserReadsAStoppedServicesHistory() throws {
        guard getuid() == 0, let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: needs root and runuser to read the history as another user"); return
        }
        let dir = try BuiltTool.temporaryDirectory()
        let (history, totals) = try DayToolTests.makeHistory(dir)   // closed: its -wal is checkpointed and removed
        #expect(!FileManager.default.fileExists(atPath: history + "-wal"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: history)
        let page = "/tmp/imukit-day-\(UUID().uuidString).html"
        defer { try? FileManager.default.removeItem(atPath: page) }
        let r = try BuiltTool.runExecutable(runuser, ["-u", "nobody", "--", BuiltTool.directory.appendingPathComponent("imu-plot").path,
                                                      "--day", "2026-12-01", "--history", history, "-o", page],
                                            environment: DayToolTests.environment, timeout: 120)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<dd>\(totals.steps)</dd>"))
        #expect(!FileManager.default.fileExists(atPath: history + "-wal"), "a reader wrote beside the history")
    }

    /// A FIFO as the history waited forever for a writer; /dev/zero got the fix "mv /dev/zero …".
    @Test func aFIFOOrADeviceIsNamedNotOpened() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let fifo = dir.appendingPathComponent("h.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "is a named pipe (FIFO), not a history file"), ("/dev/zero", "is a character device, not a history file")] {
            let r = try BuiltTool.runExecutable(BuiltTool.directory.appendingPathComponent("imu-plot").path,
                                                ["--day", "--history", path, "-o", dir.appendingPathComponent("d.html").path], timeout: 30)
            #expect(r.status == 2, "\(path): \(r.stderr)")
            #expect(r.stderr.contains("\(path) \(kind)"), "\(path): \(r.stderr)")
            #expect(!r.stderr.contains("mv "), "\(path): \(r.stderr)")
        }
        let d = try BuiltTool.run("imu-plot", ["--day", "--history", dir.path, "-o", dir.appendingPathComponent("d.html").path])
        #expect(d.stderr.contains("name the history file inside it"), "stderr: \(d.stderr)")
    }
}

extension DayHistoryAccessTests {
    /// An unreadable history exited 1 (a runtime failure) with the fix "check that the directory
    /// … is writable"; permission denied is 3 (docs/CONTRACTS.md §4) with a fix that gives access.
    @Test func anUnreadableHistoryExits3WithTheFix() throws {
        guard getuid() == 0, let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            print("skipped: needs root and runuser to read the history as another user"); return
        }
        let dir = try BuiltTool.temporaryDirectory()
        let (history, _) = try DayToolTests.makeHistory(dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: history)
        let r = try BuiltTool.runExecutable(runuser, ["-u", "nobody", "--", BuiltTool.directory.appendingPathComponent("imu-plot").path,
                                                      "--day", "2026-12-01", "--history", history, "-o", "/tmp/imukit-denied-\(UUID().uuidString).html"],
                                            environment: DayToolTests.environment, timeout: 120)
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("permission denied"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("sudo chmod a+r"), "stderr: \(r.stderr)")
    }
}
