import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A detached thread of its own for blocking work (gpsd's socket, sd-bus calls and signals), so
/// that it never runs on the Swift concurrency pool. What Foundation's `Thread` gave, without
/// linking full Foundation into the tools (docs/memory.md).
public enum OwnThread {
    /// Starts `body` on a new detached thread called `name` (Linux keeps the first 15 bytes; `ps -L`
    /// and `top -H` show it). Throws when the system gives no thread (EAGAIN: the process's or the
    /// user's thread limit); `body` is then never run. `body` is `sending`: what it captures (a
    /// capture thread's chip drivers, say) moves to the new thread, which the compiler checks.
    public static func start(name: String, _ body: sending @escaping () -> Void) throws(OwnThreadError) {
        let box = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        let r = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.main()
            return nil
        }, box)
        guard r == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw OwnThreadError(name: name, errno: r)
        }
        pthread_detach(thread)
    }

    /// Starts a thread called `name` that first runs `setUp` (opening what the thread will own: a
    /// bus connection, a database), and returns once `setUp` has: throws what it threw, or
    /// `noThread`'s error when the system gives no thread. After a successful `setUp` the thread
    /// goes on with `body`, handed what `setUp` made; that value never leaves the thread, so it
    /// need not be `Sendable`. `finished`, when given, is signalled as the thread ends, after
    /// `body` returns or `setUp` failed, so that a `stop` can wait for it. The calling task is
    /// suspended while `setUp` runs (a continuation the new thread resumes): no thread of the
    /// Swift concurrency pool waits for it.
    public static func start<Resource, Failure: Error>(
        name: String, noThread: (OwnThreadError) -> Failure, finished: DispatchSemaphore? = nil,
        setUp: sending @escaping () throws(Failure) -> Resource,
        then body: sending @escaping (Resource) -> Void
    ) async throws(Failure) {
        try await handOver(name: name, noThread: noThread, finished: finished,
                           setUp: { () throws(Failure) in (try setUp(), ()) }, then: body)
    }

    /// Runs blocking `work` (a D-Bus call, opening a device, drawing and writing a file) on a new
    /// thread called `name` and hands its result back to the calling task, which is suspended
    /// meanwhile. Throws what `work` threw, or `OwnThreadError` when the system gives no thread.
    public static func run<Value: Sendable>(name: String, _ work: sending @escaping () throws -> Value) async throws -> Value {
        try await handOver(name: name, noThread: { $0 }, finished: nil,
                           setUp: { () throws(any Error) in ((), try work()) }, then: { _ in })
    }

    /// The one handshake behind `start` and `run`: `setUp` on a new thread makes what the thread
    /// keeps (handed to `body` there) and what it hands back to the suspended caller.
    private static func handOver<Resource, Value: Sendable, Failure: Error>(
        name: String, noThread: (OwnThreadError) -> Failure, finished: DispatchSemaphore?,
        setUp: sending @escaping () throws(Failure) -> (keep: Resource, give: Value),
        then body: sending @escaping (Resource) -> Void
    ) async throws(Failure) -> Value {
        let handshake = Handshake<Value, Failure>()
        do throws(OwnThreadError) {
            try start(name: name) {
                defer { finished?.signal() }
                let made: (keep: Resource, give: Value)
                do throws(Failure) {
                    made = try setUp()
                } catch {
                    handshake.resolve(.failure(error))
                    return
                }
                handshake.resolve(.success(made.give))
                body(made.keep)
            }
        } catch {
            throw noThread(error)
        }
        return try await handshake.outcome().get()
    }

    /// `setUp`'s outcome, passed from the new thread to the task awaiting it: whichever comes
    /// second (the outcome or the awaiting task) completes the hand-over.
    private final class Handshake<Value: Sendable, Failure: Error>: Sendable {
        private enum State {
            case pending
            case resolved(Result<Value, Failure>)
            case awaited(CheckedContinuation<Result<Value, Failure>, Never>)
        }
        private let state = Mutex(State.pending)

        /// Called once, from the new thread.
        func resolve(_ outcome: Result<Value, Failure>) {
            let waiter = state.withLock { s -> CheckedContinuation<Result<Value, Failure>, Never>? in
                if case .awaited(let c) = s { return c }
                s = .resolved(outcome)
                return nil
            }
            waiter?.resume(returning: outcome)
        }

        /// Suspends the calling task until `resolve`.
        func outcome() async -> Result<Value, Failure> {
            await withCheckedContinuation { c in
                let ready = state.withLock { s -> Result<Value, Failure>? in
                    if case .resolved(let r) = s { return r }
                    s = .awaited(c)
                    return nil
                }
                if let ready { c.resume(returning: ready) }
            }
        }
    }

    /// Carries the closure to the new thread; only that thread calls it.
    private final class Body {
        let name: String
        let run: () -> Void
        init(name: String, _ run: @escaping () -> Void) { self.name = name; self.run = run }

        /// Names the new thread (`ThreadName`), then runs the closure.
        func main() {
            ThreadName.set(name)
            run()
        }
    }
}

/// No thread could be started.
public struct OwnThreadError: DiagnosableError {
    public var name: String
    public var errno: Int32
    public var description: String { "cannot start the \(name) thread: \(String(cString: strerror(errno)))" }
    public var exitStatus: ExitStatus { .runtimeFailure }
    public var fix: String? { "the process or user is at its thread limit (ulimit -u); stop other programs and start again" }
}
