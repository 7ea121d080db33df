#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Turns Ctrl-C (SIGINT), Ctrl-\ (SIGQUIT) and SIGTERM into a clean stop: the handler runs once on a dispatch
/// queue (not in signal context), so tools can flush files and print their summary. A second
/// signal while stopping exits at once with 130 (128 + SIGINT, the shell convention).
/// The reader of standard output going away (a closed pipe: SIGPIPE, which `ToolMain` turns into
/// EPIPE) is a stop request too, so `imu-steps --json | head -1` stops instead of running on.
public final class SignalTrap {
    private let sources: [any DispatchSourceSignal]
    private let once = Once()
    /// Where the handlers run: a serial queue has a thread of its own, while a global queue waits
    /// for a thread of the Swift concurrency pool. On a one-core board the pool has one thread,
    /// and a replay or simulation as fast as possible holds it (its batches come without a
    /// suspension): Ctrl-C was seen only when the run had ended (OneCPUSignalTests).
    private static let queue = DispatchQueue(label: "imukit.signals")

    /// Installs handlers for SIGINT, SIGQUIT and SIGTERM, and for standard output's reader going
    /// away, that call `onStop` once.
    public init(onStop: @escaping @Sendable () -> Void) {
        let once = self.once
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGQUIT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: Self.queue)
            source.setEventHandler {
                if once.claim() { onStop() } else { exit(130) }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        Terminal.standardOutput.onReaderGone {
            if once.claim() { onStop() }
        }
    }

    /// Has a stop been requested?
    public var stopRequested: Bool { once.isClaimed }

    deinit {
        for s in sources { s.cancel() }
    }

    /// True for the first caller of `claim()` only.
    private final class Once: Sendable {
        private let claimed = Atomic<Bool>(false)
        func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
        var isClaimed: Bool { claimed.load(ordering: .acquiring) }
    }
}
