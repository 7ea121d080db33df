import Dispatch
import Foundation
import Synchronization
import Testing
@testable import IMUCLI

/// Opening a source blocks (here: a recording on a FIFO, whose open(2) waits for a writer), and a
/// tool's body runs on the Swift concurrency pool (`ToolMain`). `SourceSelection.open(…,
/// calibrating:)` opens on a thread of its own, so the thread its caller runs on stays free while
/// every open waits. The test's tasks run on an executor of one serial queue (`OneAtATime`): a
/// pool one thread wide, as on a one-core board, that the rest of the test run cannot crowd.
@Suite struct SourceOpeningTests {
    /// Opens that wait at once: more than the one thread, so one of them waiting on it is enough.
    static let openers = 3
    /// Seconds after which a thread of its own lets the writers in whatever happened: with the
    /// opens on the caller's thread nothing else could, and the test would hang. Nothing outside
    /// the test competes for `OneAtATime`, so a second is ample for its task to wake.
    static let releaseDeadline = 10.0

    @Test func opensWaitOffTheCallersThread() async throws {
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
        let names = try await withTaskExecutorPreference(OneAtATime()) {
            try await withThrowingTaskGroup(of: String.self) { group in
                for f in fifos {
                    group.addTask {
                        state.entered.add(1, ordering: .relaxed)
                        let opened = try await SourceSelection.open(.replay(path: f, speed: .infinity), options: SourceOptions(),
                                                                    backends: [], calibrating: nil)
                        return opened.source.info.name
                    }
                }
                // This task wakes from each sleep on the one thread: only if the opens wait elsewhere.
                while state.entered.load(ordering: .relaxed) < fifos.count { try await Task.sleep(for: .milliseconds(10)) }
                try await Task.sleep(for: .milliseconds(200))   // time for every open to reach open(2)
                let wokeAfterRelease = state.released.load(ordering: .acquiring)
                state.releaseAsked.store(true, ordering: .releasing)
                var names: [String] = []
                for try await n in group { names.append(n) }
                #expect(!wokeAfterRelease, "the caller's thread was held while \(fifos.count) opens waited for their writers")
                return names
            }
        }
        #expect(names.count == fifos.count)
        #expect(names.allSatisfy { $0.hasPrefix("recording \(dir)/walk") }, "\(names)")
    }

    private final class Probe: Sendable {
        let entered = Atomic<Int>(0)
        let releaseAsked = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
    }

    /// Runs the jobs of the tasks that prefer it one at a time, in order, on a serial queue.
    private final class OneAtATime: TaskExecutor {
        private let queue = DispatchQueue(label: "imukit.test.one-at-a-time")
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }
    }
}
