import Dispatch
import Synchronization

/// Runs every libiio call of one network (`ip:`) context on one serial queue and waits for it
/// with a deadline (`local:` calls run on their caller's thread: `IIOContext`).
///
/// libiio 0.24 can block forever on a dropped `ip:` link (analogdevicesinc/libiio issue 1359:
/// a read that never returns despite `iio_context_set_timeout`). A call that misses its deadline
/// marks the gate broken: the caller gets `IIOError.timedOut` at once, and so does every later
/// call, because the stuck call still holds the queue. The stuck thread is abandoned; the tool
/// exits with status 1 and the process takes it down.
final class IIOCallGate: Sendable {
    private let queue: DispatchQueue
    /// The call that missed its deadline, once one has.
    private let brokenBy = Mutex<String?>(nil)
    let uri: String
    /// Seconds any one call may take.
    let timeout: Double

    init(uri: String, timeout: Double) {
        self.uri = uri
        self.timeout = timeout
        queue = DispatchQueue(label: "imukit.iio.\(uri)")
    }

    /// Runs `body` on the gate's queue; throws `IIOError.timedOut` when it takes longer than the bound.
    func run<T>(_ what: String, _ body: @escaping () throws -> T) throws -> T {
        if let stuck = brokenBy.withLock({ $0 }) {
            throw IIOError.timedOut(uri: uri, what: stuck, seconds: timeout)
        }
        let job = Job<T>(body)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            job.run()
            done.signal()
        }
        // The bound is waited in two halves, and a half counts for no more than its own length:
        // a process that was stopped (Ctrl-Z, SIGSTOP) or starved meanwhile finds its deadline
        // long past on waking, though the call itself may be done a moment later.
        let half = timeout / 2
        var waited = 0.0
        while done.wait(timeout: .now() + half) == .timedOut {
            waited += half
            if waited >= timeout {
                brokenBy.withLock { $0 = $0 ?? what }
                throw IIOError.timedOut(uri: uri, what: what, seconds: timeout)
            }
        }
        return try job.result()
    }

    /// Carries one call to the queue and its result back: an immutable wrapper (`@unchecked`
    /// only because the closure is not `Sendable`). The hand-over is ordered all the same: the
    /// caller makes the job, the queue runs it once, and the caller reads the result only after
    /// the semaphore says the run is over (or never, after a timeout).
    private final class Job<T>: @unchecked Sendable {
        private let body: () throws -> T
        private let outcome = Mutex<Delivered<T>?>(nil)
        init(_ body: @escaping () throws -> T) { self.body = body }
        func run() {
            let r = Delivered(result: Result { try body() })
            outcome.withLock { $0 = r }
        }
        func result() throws -> T { try outcome.withLock { $0.take() }!.result.get() }
    }

    /// A finished call's result, immutable, crossing from the queue to the caller once.
    private struct Delivered<T>: @unchecked Sendable {
        let result: Result<T, any Error>
    }
}
