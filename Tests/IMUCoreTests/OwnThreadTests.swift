import Dispatch
import Synchronization
import Testing
@testable import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// `OwnThread.start(name:noThread:finished:setUp:then:)`: the start handshake of the service's
/// threads (bus, name watch, engine).
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

    @Test func theBodyRunsAfterASuccessfulSetUpOnTheSameNamedThread() throws {
        let setUpDone = Atomic<Bool>(false)
        let seen = Mutex<(setUpName: String, sameThread: Bool, callerThread: Bool)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        try OwnThread.start(name: "imukit-test", noThread: { $0 }, finished: finished) { () throws(OwnThreadError) in
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

    @Test func aFailedSetUpIsThrownToTheCallerAndTheBodyNeverRuns() {
        let bodyRan = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        var thrown: SetUpFailed?
        do {
            try OwnThread.start(name: "imukit-test", noThread: { _ in SetUpFailed(reason: "no thread") },
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
}
