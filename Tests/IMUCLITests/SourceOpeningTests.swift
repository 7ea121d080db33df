import Foundation
import Synchronization
import Testing
@testable import IMUCLI

/// Opening a source blocks (here: a recording on a FIFO, whose open(2) waits for a writer), and a
/// tool's body runs on the Swift concurrency pool (`ToolMain`). `SourceSelection.open(…,
/// calibrating:)` opens on a thread of its own, so the pool stays free while every open waits.
@Suite struct SourceOpeningTests {
    /// Twice the cores: the pool is as wide as the cores (Dispatch's default on Linux), so with the
    /// opens on the pool every one of its threads would be waiting, also on a wider pool than that.
    static let openers = 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Seconds after which a thread of its own lets the writers in whatever happened: with the
    /// opens on the pool nothing else could, and the test would hang. Long, because under a full
    /// parallel run this test's task may wait seconds behind other tests for a pool thread.
    static let releaseDeadline = 60.0

    @Test func opensWaitOffThePool() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-open-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifos = (0..<Self.openers).map { "\(dir)/walk\($0).csv" }
        for f in fifos { #expect(mkfifo(f, 0o600) == 0, "mkfifo \(f)") }

        let state = Probe()
        try OwnThread.start(name: "fifo-writers") {
            let deadline = Date().addingTimeInterval(Self.releaseDeadline)
            while !state.releaseAsked.load(ordering: .acquiring), Date() < deadline { usleep(10_000) }
            state.released.store(true, ordering: .releasing)
            for f in fifos {
                let fd = open(f, O_WRONLY)
                guard fd >= 0 else { continue }
                let text = Array("t,ax,ay,az\n0.00,0,0,1\n".utf8)
                _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for f in fifos {
                group.addTask {
                    state.entered.add(1, ordering: .relaxed)
                    let opened = try await SourceSelection.open(.replay(path: f, speed: .infinity), options: SourceOptions(),
                                                                backends: [], calibrating: nil)
                    return opened.source.info.name
                }
            }
            // This task needs a pool thread to wake from each sleep: it gets one while the
            // opens wait only if they wait elsewhere.
            while state.entered.load(ordering: .relaxed) < fifos.count { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(200))   // time for every open to reach open(2)
            let wokeAfterRelease = state.released.load(ordering: .acquiring)
            state.releaseAsked.store(true, ordering: .releasing)
            var names: [String] = []
            for try await n in group { names.append(n) }
            #expect(!wokeAfterRelease, "no pool thread was free while \(fifos.count) opens waited for their writers")
            return names
        }
        #expect(names.count == fifos.count)
        #expect(names.allSatisfy { $0.hasPrefix("recording \(dir)/walk") }, "\(names)")
    }

    private final class Probe: Sendable {
        let entered = Atomic<Int>(0)
        let releaseAsked = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
    }
}
