import Dispatch
import Foundation
import IMUCore
import Synchronization
import Testing
@testable import IMUCLI

/// Standard output's `write(2)` runs on `OutputStream.writer`'s thread, never on the caller's:
/// a reader that stops reading makes that thread wait, not the tool's tasks on the Swift
/// concurrency pool (docs/concurrency.md, "Terminal output"). Each test uses a pipe: 64 KiB of
/// buffer (pipe(7)), so more than that waits until the test reads.
@Suite(.serialized) struct OutputStreamTests {
    /// A pipe; each end is closed once: by `closeReadEnd()` or at the end of the test. A second
    /// close of a number is a close of whatever file another test running beside this one was
    /// given that number for (a CI run crashed so: Foundation's FileHandle found its pipe gone).
    final class Pipe: Sendable {
        let read: Int32, write: Int32
        private let readOpen = Atomic<Bool>(true)
        init() throws {
            var fds: [Int32] = [0, 0]
            guard Glibc.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            read = fds[0]; write = fds[1]
        }
        /// Closes the read end now (a reader that went away); the end of the test leaves it be.
        func closeReadEnd() {
            if readOpen.exchange(false, ordering: .acquiringAndReleasing) { close(read) }
        }
        /// Reads until `count` bytes (or end of file), on a thread of its own.
        func readAll(_ count: Int) async throws -> [UInt8] {
            let fd = read
            return try await OwnThread.run(name: "test-reader") {
                var got: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
                while got.count < count {
                    let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    got += chunk[0..<n]
                }
                return got
            }
        }
        deinit { closeReadEnd(); close(write) }
    }

    /// A read end closed early is not closed again when the pipe goes away: its number, freed by
    /// `closeReadEnd()` and given to a file this test opens, still names that file afterwards.
    /// (Closed twice, it closed the pipe of a test running beside this one: CI's crash.)
    @Test func aReadEndClosedEarlyIsNotClosedAgain() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-fd-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        var file = stat()
        try #require(stat(path, &file) == 0)
        // The kernel gives out the lowest free number, so the file takes the freed one unless a
        // test beside this one opened something in between: then the pipe is made again.
        for _ in 0..<20 {
            var number: Int32 = -1, opened: Int32 = -1
            do {
                let pipe = try Pipe()
                number = pipe.read
                pipe.closeReadEnd()
                opened = open(path, O_RDONLY | O_CLOEXEC)
                withExtendedLifetime(pipe) {}
            }   // the pipe goes away here
            guard opened == number else { close(opened); continue }
            var now = stat()
            let stillTheFile = fstat(opened, &now) == 0 && now.st_ino == file.st_ino && now.st_dev == file.st_dev
            #expect(stillTheFile, "the pipe closed fd \(opened) again after the test's file had taken the number")
            if stillTheFile { close(opened) }
            return
        }
        Issue.record("fd numbers were taken by other tests 20 times running; nothing was checked")
    }

    /// `lines` numbered lines of 100 bytes: the order they arrive in can be checked.
    static func text(lines: Int, tag: String = "") -> String {
        (0..<lines).map { i in
            let head = "\(tag)\(i) "
            return head + String(repeating: "x", count: 99 - head.utf8.count) + "\n"
        }.joined()
    }

    /// Runs `work` on a thread of its own; did it return within `seconds`? A call that blocks
    /// fails the test instead of hanging it (the test reads the pipe afterwards, which frees it).
    static func returns(within seconds: Double, _ work: @escaping @Sendable () -> Void) async throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        try OwnThread.start(name: "test-writer") { work(); done.signal() }
        return try await OwnThread.run(name: "test-wait") { done.wait(timeout: .now() + seconds) == .success }
    }

    /// 300 kB to a pipe nobody reads: `write` and `flush` return at once (they blocked in
    /// `write(2)` once the pipe's 64 KiB were full); everything arrives, in order, once read.
    @Test func flushReturnsWhileTheReaderWaitsAndNothingIsLost() async throws {
        let pipe = try Pipe()
        let stream = OutputStream(fd: pipe.write)
        let text = Self.text(lines: 3000)
        // 10 s: a hand-over is a copy of 300 kB; only a call that waits for the reader takes longer.
        let returned = try await Self.returns(within: 10) { stream.write(text); stream.flush() }
        #expect(returned, "write/flush waited for the pipe's reader")
        async let got = pipe.readAll(text.utf8.count)
        await stream.written()
        #expect(try await got == Array(text.utf8))
        #expect(stream.linesWritten == 3000)
        #expect(stream.failure == nil)
    }

    /// The pipeline's `flushed()` suspends while more than `backlogLimit` waits for the reader,
    /// and goes on once the reader has read it.
    @Test func flushedSuspendsOnlyWhileTheBacklogIsOverItsLimit() async throws {
        let pipe = try Pipe()
        let stream = OutputStream(fd: pipe.write)
        let small = Self.text(lines: 10)
        stream.write(small)
        // Under the limit: no suspension, whether or not the reader reads.
        let smallReturned = try await Self.returns(within: 10) { let s = stream; Task { await s.flushed() }.waitForTesting() }
        #expect(smallReturned)
        let big = Self.text(lines: OutputStream.backlogLimit / 100 + 1000, tag: "b")
        stream.write(big)
        let finished = Count()
        let producer = Task { await stream.flushed(); finished.add() }
        // 0.5 s of the writer's thread waiting on a full pipe: flushed() must still be suspended.
        try await Task.sleep(for: .milliseconds(500))
        #expect(finished.value == 0, "flushed() returned with \(big.utf8.count) bytes unread")
        let got = try await pipe.readAll(small.utf8.count + big.utf8.count)
        await producer.value
        #expect(finished.value == 1)
        #expect(got == Array((small + big).utf8))
    }

    /// Ctrl-C cancels the pipeline: a task waiting for a reader that never reads stops waiting.
    @Test func aCancelledWaitEnds() async throws {
        let pipe = try Pipe()
        let stream = OutputStream(fd: pipe.write)
        stream.write(Self.text(lines: 2000))
        let waiting = Task { await stream.written() }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        let ended = try await Self.returns(within: 10) { Task { await waiting.value }.waitForTesting() }
        #expect(ended)
        _ = try await pipe.readAll(200_000)   // frees the writer's thread
        await stream.written()
    }

    /// Two streams on one pipe (standard output and error with `2>&1`) keep the order in which
    /// their text was handed over.
    @Test func twoStreamsKeepTheirOrder() async throws {
        let pipe = try Pipe()
        let out = OutputStream(fd: pipe.write), err = OutputStream(fd: pipe.write)
        var expected = ""
        for i in 0..<200 {
            let a = "out \(i)\n", b = "err \(i)\n"
            out.write(a); out.flush(); err.write(b); err.flush()
            expected += a + b
        }
        async let got = pipe.readAll(expected.utf8.count)
        await out.written(); await err.written()
        #expect(String(decoding: try await got, as: UTF8.self) == expected)
    }

    /// A reader that closed its end: the write fails with EPIPE on the writer's thread, the
    /// stop handler is called once, and what follows is dropped without a system call.
    @Test func aClosedReaderIsReportedOnce() async throws {
        let pipe = try Pipe()
        pipe.closeReadEnd()
        let stream = OutputStream(fd: pipe.write)
        let calls = Count()
        stream.onReaderGone { calls.add() }
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        stream.write("one\n")
        await stream.written()
        stream.write("two\n")
        await stream.written()
        #expect(stream.readerGone)
        #expect(calls.value == 1)
        #expect(stream.linesWritten == 0)
    }
}

/// A count that tasks and threads share.
final class Count: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .sequentiallyConsistent) }
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

extension Task where Failure == Never, Success == Void {
    /// Blocks the calling thread (a test's own thread, never the pool) until the task ends.
    func waitForTesting() {
        let done = DispatchSemaphore(value: 0)
        Task<Void, Never> { await self.value; done.signal() }
        done.wait()
    }
}
