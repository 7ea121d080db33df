import CSQLite
import Foundation
import OffPool
import Testing
@testable import IMUHistory

/// Nothing lost: SIGKILL mid-write, and a full disk.
@Suite(.offPool, .serialized) struct DurabilityTests {
    /// `imu-bench-history --writer` records 4 steps/s and commits every second; it is killed with
    /// SIGKILL three times at odd moments and restarted on the same file. After each kill the
    /// reopened file is intact, holds every commit the writer reported, and lacks at most 10 s of
    /// steps.
    @Test func killNineLosesAtMostTenSeconds() throws {
        guard let writer = builtExecutable("imu-bench-history") else {
            Issue.record("imu-bench-history is not built beside the tests (swift build builds it)")
            return
        }
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let stepsPerSecond = 4.0   // Writer.swift: a step every 0.25 s
        var stored = 0
        for delay in [2.3, 3.1, 2.7] {   // s; the writer's first commit comes after 1 s
            let log = dir.path("writer-\(delay).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: writer)
            process.arguments = ["--writer", path]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
            // Wait for the writer to start (it opens the file and says so), then let it write.
            let deadline = Date().addingTimeInterval(120)   // s: generous, for a loaded CI machine
            while !(text(log).contains("started")) && Date() < deadline { usleep(20_000) }
            guard text(log).contains("started") else {
                kill(process.processIdentifier, SIGKILL)
                Issue.record("the writer did not start within 120 s: \(text(log))")
                return
            }
            let started = Date()
            usleep(UInt32(delay * 1e6))
            let killedAfter = Date().timeIntervalSince(started)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            let lines = text(log).split(separator: "\n")
            let committed = lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }.last ?? 0
            let produced = Int(killedAfter * stepsPerSecond) + 1   // + the step it may write between our clock read and the kill
            let store = try HistoryStore(path: path)   // runs quick_check: throws on a damaged file
            let total = try store.totals(from: Date(timeIntervalSince1970: 0), to: Date().addingTimeInterval(86_400)).steps
            let thisRun = total - stored
            stored = total
            #expect(thisRun >= committed, "every reported commit survives: \(thisRun) stored, \(committed) reported")
            #expect(thisRun <= produced, "no step invented: \(thisRun) stored, at most \(produced) produced")
            #expect(Double(produced - thisRun) / stepsPerSecond <= 10, "lost \(produced - thisRun) steps of \(produced)")
            #expect(committed > 0, "the writer committed within \(delay) s")
            let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
            #expect(try raw.texts("PRAGMA integrity_check") == ["ok"])
        }
    }

    /// A history opened on a file system already full: refused with `diskFull` and "nothing was
    /// changed", which was so only once the empty file the open had made was gone (it was left).
    /// Runs on a 64 KiB tmpfs, which needs root; skipped with a message otherwise.
    @Test func anOpenOnAFullDiskLeavesNoFileBehind() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        guard let mountPoint = try mountedTmpfs("size=64k", named: "full", in: dir) else { return }
        defer { run("/bin/umount", [mountPoint]) }
        let filled = FileManager.default.createFile(atPath: mountPoint + "/fill", contents: nil)
        let handle = try #require(filled ? FileHandle(forWritingAtPath: mountPoint + "/fill") : nil)
        try? handle.write(contentsOf: Data(count: 128 * 1024))   // more than the file system holds
        try? handle.close()
        let path = mountPoint + "/h.sqlite"
        #expect(throws: HistoryError.diskFull(path: path, bufferedMinutes: nil)) { try HistoryStore(path: path, bootID: "b") }
        let left = try FileManager.default.contentsOfDirectory(atPath: mountPoint).sorted()
        #expect(left == ["fill"], "left behind: \(left)")
    }

    /// A full file system: the commit fails with `diskFull`, the minutes stay in memory (and in
    /// queries), and a commit after space returns writes them all. Runs on a 256 KiB tmpfs,
    /// which needs root; skipped with a message otherwise.
    @Test func fullDiskKeepsMinutesInMemoryAndWritesThemLater() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        guard let mountPoint = try mountedTmpfs("size=256k", named: "small", in: dir) else { return }
        defer { run("/bin/umount", [mountPoint]) }
        let path = mountPoint + "/h.sqlite"
        let boot = mapping(boot0: "2026-06-15T00:00:00Z")
        let day = (date("2026-06-15T00:00:00Z"), date("2026-06-17T00:00:00Z"))
        let store = try HistoryStore(path: path, bootID: "b")
        var pedometer = FakePedometer()
        store.record(pedometer.steps([1]), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        // Fill the file system.
        let filler = mountPoint + "/filler"
        _ = FileManager.default.createFile(atPath: filler, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: filler))
        let chunk = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try? handle.close()
        // 2000 minutes of steps: about 60 pages, which the WAL cannot grow to take.
        store.record(pedometer.steps(Array(stride(from: 61.0, to: 61 + 2000 * 60, by: 60))), snapshot: pedometer.snapshot, mapping: boot)
        for _ in 0..<2 {
            let error = try #require(throws: HistoryError.self) { try store.commit() }
            #expect(error == .diskFull(path: path, bufferedMinutes: 2000))
            #expect(store.lastCommitError == error)
            #expect(store.bufferedMinuteCount == 2000)
            #expect(try store.totals(from: day.0, to: day.1).steps == 2001)
        }
        try FileManager.default.removeItem(atPath: filler)
        try store.commit()
        #expect(store.bufferedMinuteCount == 0 && store.lastCommitError == nil)
        let reopened = try HistoryStore(readingFrom: path)
        #expect(try reopened.totals(from: day.0, to: day.1).steps == 2001)
    }
}

private func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
