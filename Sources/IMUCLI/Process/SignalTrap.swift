#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Turns Ctrl-C (SIGINT), Ctrl-\ (SIGQUIT) and SIGTERM into a clean stop: the handler runs once on a dispatch
/// queue (not in signal context), so tools can flush files and print their summary. A second
/// signal while stopping exits at once with 130 (128 + SIGINT, the shell convention).
public final class SignalTrap: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLockLite()
    private var fired = false

    /// Installs handlers for SIGINT, SIGQUIT and SIGTERM that call `onStop` once.
    public init(onStop: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGQUIT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                let first = self.lock.withLock { () -> Bool in
                    defer { self.fired = true }
                    return !self.fired
                }
                if first { onStop() } else { exit(130) }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Has a stop been requested?
    public var stopRequested: Bool { lock.withLock { fired } }

    deinit {
        for s in sources { s.cancel() }
    }
}
