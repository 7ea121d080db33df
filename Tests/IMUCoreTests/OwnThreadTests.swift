import Dispatch
import Synchronization
import OffPool
import Testing
@testable import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// `OwnThread.start(name:noThread:finished:setUp:then:)`: the start handshake of the service's
/// threads (bus, name watch, engine), and `OwnThread.run`, blocking work handed to a thread.
@Suite(.offPool) struct OwnThreadTests {
    /// What the new thread owns; not `Sendable`, so it must stay on that thread.
    final class Owned {
        let thread = pthread_self()
        let name: String
        init(name: String) { self.name = name }
    }

    struct SetUpFailed: Error, Equatable { var reason: String }

    /// The calling thread's name as the kernel shows it.
    static func threadName() -> String {
        guard let file = fopen("/proc/thread-self/comm", "re") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 32)
        guard fgets(&buffer, 32, file) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func theBodyRunsAfterASuccessfulSetUpOnTheSameNamedThread() async throws {
        let setUpDone = Atomic<Bool>(false)
        let seen = Mutex<(setUpName: String, sameThread: Bool, callerThread: Bool)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        try await OwnThread.start(name: "imukit-test", noThread: { $0 }, finished: finished) { () throws(OwnThreadError) in
            usleep(50_000)   // the caller must wait for this
            let owned = Owned(name: Self.threadName())
            setUpDone.store(true, ordering: .releasing)
            return owned
        } then: { owned in
            let here = pthread_self()
            seen.withLock { $0 = (owned.name, pthread_equal(owned.thread, here) != 0, pthread_equal(caller, here) != 0) }
        }
        // `start` returned only once the set-up had.
        let setUpHadReturned = setUpDone.load(ordering: .acquiring)
        #expect(setUpHadReturned)
        #expect(finished.wait(timeout: .now() + 5) == .success, "the thread did not end")
        let s = try #require(seen.withLock { $0 }, "the body never ran")
        #expect(s.setUpName == "imukit-test")
        #expect(s.sameThread, "set-up and body ran on different threads")
        #expect(!s.callerThread, "the body ran on the caller's thread")
    }

    @Test func aFailedSetUpIsThrownToTheCallerAndTheBodyNeverRuns() async {
        let bodyRan = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        var thrown: SetUpFailed?
        do {
            try await OwnThread.start(name: "imukit-test", noThread: { _ in SetUpFailed(reason: "no thread") },
                                      finished: finished) { () throws(SetUpFailed) -> Owned in
                throw SetUpFailed(reason: "no database")
            } then: { _ in
                bodyRan.store(true, ordering: .releasing)
            }
        } catch {
            thrown = error
        }
        #expect(thrown == SetUpFailed(reason: "no database"))
        // The thread still says it ended, so a `stop` after a failed start does not wait in vain.
        #expect(finished.wait(timeout: .now() + 5) == .success, "the thread did not end")
        let ran = bodyRan.load(ordering: .acquiring)
        #expect(!ran)
    }

    /// A pool of `width` threads of its own for tasks that prefer it (SE-0417), standing in for
    /// the cooperative pool: a start that held its thread would leave the other tasks waiting.
    final class SmallPool: TaskExecutor, Sendable {
        private let jobs = Mutex<(queue: [UnownedJob], stopping: Bool)>(([], false))
        private let pending = DispatchSemaphore(value: 0)
        private let ended = DispatchSemaphore(value: 0)
        let width: Int

        init(width: Int) throws {
            self.width = width
            for _ in 0..<width {
                try OwnThread.start(name: "imukit-pool") { [self] in
                    defer { ended.signal() }
                    while true {
                        pending.wait()
                        guard let job = jobs.withLock({ $0.stopping ? nil : $0.queue.removeFirst() }) else { return }
                        job.runSynchronously(on: asUnownedTaskExecutor())
                    }
                }
            }
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            jobs.withLock { $0.queue.append(job) }
            pending.signal()
        }

        func shutDown() {
            jobs.withLock { $0.stopping = true }
            for _ in 0..<width { pending.signal() }
            for _ in 0..<width { _ = ended.wait(timeout: .now() + 5) }
        }
    }

    /// Counts the set-ups under way; each waits (up to 5 s) until `expected` run at once.
    final class Barrier: Sendable {
        let arrived = Atomic<Int>(0)
        let expected: Int
        init(expected: Int) { self.expected = expected }

        func arriveAndWait() -> Bool {
            arrived.add(1, ordering: .acquiringAndReleasing)
            let deadline = BootClock.nowSeconds() + 5
            while arrived.load(ordering: .acquiring) < expected {
                if BootClock.nowSeconds() > deadline { return false }
                usleep(1_000)
            }
            return true
        }
    }

    /// Eight starts from tasks on a pool of two threads: their set-ups can only all run at once
    /// when each start suspends its task and lets its thread go (a start that waited on its thread
    /// would leave at most two set-ups under way, and they would give up after 5 s).
    @Test func startsFromAPoolOfTwoThreadsAllRunTheirSetUpsAtOnce() async throws {
        let pool = try SmallPool(width: 2)
        defer { pool.shutDown() }
        let starts = 8
        let barrier = Barrier(expected: starts)
        let met = await withTaskExecutorPreference(pool) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<starts {
                    group.addTask {
                        do {
                            try await OwnThread.start(name: "imukit-test", noThread: { SetUpFailed(reason: $0.description) }) { () throws(SetUpFailed) in
                                guard barrier.arriveAndWait() else { throw SetUpFailed(reason: "not every set-up ran at once") }
                                return Owned(name: OwnThreadTests.threadName())
                            } then: { _ in }
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(met == starts, "\(met) of \(starts) starts saw every set-up under way at once (\(barrier.arrived.load(ordering: .acquiring)) arrived)")
    }

    @Test func runHandsBackTheResultOfWorkOnANamedThreadOfItsOwn() async throws {
        let caller = pthread_self()
        let (name, elsewhere) = try await OwnThread.run(name: "imukit-run") {
            (Self.threadName(), pthread_equal(caller, pthread_self()) == 0)
        }
        #expect(name == "imukit-run")
        #expect(elsewhere, "the work ran on the caller's thread")
        await #expect(throws: SetUpFailed(reason: "no device")) {
            try await OwnThread.run(name: "imukit-run") { () throws -> Int in throw SetUpFailed(reason: "no device") }
        }
    }
}
