import Foundation
import Synchronization
import OffPool
import Testing
@testable import IMUCore

/// A recording read as fast as possible (`RecordingSource`, `PacedStream.make(gather:)`): a
/// regular file's batches are gathered before the consumer is woken and their storage is reused
/// once the consumer has dropped them; a pipe's batches go over at once.
@Suite struct ReplayHandOverTests {
    /// Gathered batches arrive all, in order, and the last ones (fewer than `gather`) too; an
    /// error comes after the batches before it.
    @Test(arguments: [1, 3, 4])
    func gatheredBatchesArriveInOrderThenTheEnd(gather: Int) async throws {
        for failAfter in [nil, 6] as [Int?] {
            let made = Atomic<Int>(0)
            let stream = PacedStream.make(source: "test", gather: gather) { () throws -> (batch: [MotionSample], dueNs: Int64?)? in
                let n = made.add(1, ordering: .relaxed).newValue
                if let failAfter, n > failAfter { throw RecordingError(file: "f", line: n, message: "bad line") }
                return n <= 10 ? ([MotionSample(time: Double(n))], nil) : nil
            }
            var times: [Double] = []
            do {
                for try await batch in stream { times += batch.map(\.time) }
                #expect(failAfter == nil, "no error after \(times.count) batches")
            } catch let error as RecordingError {
                #expect(failAfter != nil && error.line == failAfter! + 1)
            }
            #expect(times == (1...(failAfter ?? 10)).map(Double.init))
        }
    }

    /// A consumer that keeps every batch sees each as it was handed over: storage is reused only
    /// when the consumer no longer holds it (30 batches of 1024 samples; the reuse ring is 11).
    @Test func keptBatchesAreNeverOverwritten() async throws {
        var text = "t,ax,ay,az\n"
        for i in 0..<30_000 { text += "\(i).5,0.\(i % 1000),-0.25,1\n" }
        let path = try temporaryRecording(text)
        var kept: [[MotionSample]] = []
        for try await batch in try RecordingSource(path: path).batches() { kept.append(batch) }
        #expect(kept.count == Int((30_000.0 / Double(RecordingSource.fastBatch)).rounded(.up)))
        #expect(kept.flatMap { $0 } == (try readAll(path)))
    }

    /// Read through a FIFO, each batch goes over as soon as it is read: the consumer has the
    /// first two while the writer still holds the pipe open (gathered, it would wait for the end).
    @Test(.offPool) func aPipesBatchesGoOverAtOnce() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fifo = dir.appendingPathComponent("live.csv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let lines = 2 * RecordingSource.fastBatch + 10
        let release = DispatchSemaphore(value: 0)
        let writerClosed = Atomic<Bool>(false)
        // A thread of its own: Dispatch's global queue is as wide as the machine's cores, and on
        // CI's two cores other tests' blocking work held it, so the writer started late.
        Thread {
            let fd = open(fifo, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            var text = "t,ax,ay,az\n"
            for i in 0..<lines { text += "\(i).25,0,0,1\n" }
            _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count - 1) }
            // Holds the pipe open until the test has its batches. The bound only ends a failing
            // run. The consumer runs `.offPool`: on the pool it waited behind every queued test
            // (Swift Testing enqueues them all at the start; IMUKIT_POOL_CANARY measured a task
            // there waking 244 s late on two cores, 515 s before the blocking suites left the
            // pool); on threads of its own it takes its two batches in milliseconds.
            _ = release.wait(timeout: .now() + 60)
            writerClosed.store(true, ordering: .releasing)
            close(fd)
        }.start()
        let source = try RecordingSource(path: fifo)
        var received = 0, beforeClose = 0
        for try await batch in source.batches() {
            received += batch.count
            if !writerClosed.load(ordering: .acquiring) { beforeClose += 1 }
            if beforeClose == 2 { release.signal() }
        }
        release.signal()
        #expect(received == lines)
        #expect(beforeClose >= 2, "the pipe's batches were held back until its writer closed it")
    }
}
