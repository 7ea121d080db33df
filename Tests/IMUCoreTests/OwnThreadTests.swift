import Dispatch
import Synchronization
import Testing
@testable import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// `OwnThread.start(name:noThread:finished:setUp:then:)`: the start handshake of the service's
/// threads (bus, name watch, engine), and `OwnThread.run`, blocking work handed to a thread.
@Suite struct OwnThreadTests {
    /// What the new thread owns; not `Sendable`, so it must stay on that thread.
    final class Owned {
        let thread = pthread_self()
        let name: String
        init(name: String) { self.name = name }
    }

    struct SetUpFailed: Error, Equatable { var reason: String }

    /// The calling thread's name as the kernel shows it.
    static func threadName() -> String {
        guard let file = fopen("/proc/thread-self/comm", "r") else { return "" }
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

    /// Whether the task that starts a thread is suspended while `setUp` runs, rather than holding
    /// its thread of the concurrency pool: an actor's next call can only run meanwhile when the
    /// actor's thread was let go.
    actor Starter {
        /// Starts a thread whose set-up waits (up to 5 s) for `gate`, which the test opens only
        /// once `ping` has run on this actor.
        func start(_ gate: Gate) async throws(SetUpFailed) {
            try await OwnThread.start(name: "imukit-test", noThread: { SetUpFailed(reason: $0.description) }) { () throws(SetUpFailed) in
                gate.setUpRunning.store(true, ordering: .releasing)
                guard gate.open.wait(timeout: .now() + 5) == .success else {
                    throw SetUpFailed(reason: "the starting actor stayed busy while the set-up ran: start blocked its thread")
                }
                return Owned(name: OwnThreadTests.threadName())
            } then: { _ in }
        }

        func ping() {}
    }

    final class Gate: Sendable {
        let setUpRunning = Atomic<Bool>(false)
        let open = DispatchSemaphore(value: 0)
        var isSetUpRunning: Bool { setUpRunning.load(ordering: .acquiring) }
    }

    @Test func theStartingTaskIsSuspendedWhileTheSetUpRuns() async throws {
        let starter = Starter()
        let gate = Gate()
        async let started: Void = starter.start(gate)
        let deadline = BootClock.nowSeconds() + 5
        while !gate.isSetUpRunning && BootClock.nowSeconds() < deadline {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(gate.isSetUpRunning, "the set-up never ran")
        // Runs at once when `start` suspended the actor's task; only after the set-up gave up
        // (5 s) when `start` held the actor's thread.
        let before = BootClock.nowSeconds()
        await starter.ping()
        let waited = BootClock.nowSeconds() - before
        gate.open.signal()
        try await started
        #expect(waited < 2, "the actor was busy for \(waited) s while the set-up ran")
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
