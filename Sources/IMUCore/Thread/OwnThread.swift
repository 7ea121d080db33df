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
