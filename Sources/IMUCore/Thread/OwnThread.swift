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
    /// `body` returns or `setUp` failed, so that a `stop` can wait for it. The caller's thread
    /// blocks while `setUp` runs.
    public static func start<Resource, Failure: Error>(
        name: String, noThread: (OwnThreadError) -> Failure, finished: DispatchSemaphore? = nil,
        setUp: sending @escaping () throws(Failure) -> Resource,
        then body: sending @escaping (Resource) -> Void
    ) throws(Failure) {
        let outcome = Mutex<Result<Void, Failure>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        do throws(OwnThreadError) {
            try start(name: name) {
                defer { finished?.signal() }
                let resource: Resource
                do throws(Failure) {
                    resource = try setUp()
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                    ready.signal()
                    return
                }
                outcome.withLock { $0 = .success(()) }
                ready.signal()
                body(resource)
            }
        } catch {
            throw noThread(error)
        }
        ready.wait()
        try outcome.withLock { $0 }?.get()
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
