import Dispatch
import Foundation

/// Runs every libiio call of one context on one serial queue and waits for it with a deadline.
///
/// libiio 0.24 can block forever on a dropped `ip:` link (analogdevicesinc/libiio issue 1359:
/// a read that never returns despite `iio_context_set_timeout`). A call that misses its deadline
/// marks the gate broken: the caller gets `IIOError.timedOut` at once, and so does every later
/// call, because the stuck call still holds the queue. The stuck thread is abandoned; the tool
/// exits with status 1 and the process takes it down.
final class IIOCallGate: @unchecked Sendable {
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var brokenBy: String?
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
        lock.lock()
        if let stuck = brokenBy {
            lock.unlock()
            throw IIOError.timedOut(uri: uri, what: stuck, seconds: timeout)
        }
        lock.unlock()
        // The box carries the closure and its result across the queue; only one thread touches
        // it at a time (the queue until `done` signals, then the caller).
        let box = ResultBox<T>(body)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            box.result = Result { try box.body() }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            lock.lock()
            brokenBy = what
            lock.unlock()
            throw IIOError.timedOut(uri: uri, what: what, seconds: timeout)
        }
        return try box.result!.get()
    }

    private final class ResultBox<T>: @unchecked Sendable {
        let body: () throws -> T
        var result: Result<T, any Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
    }
}
