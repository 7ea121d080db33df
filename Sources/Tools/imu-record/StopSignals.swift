#if canImport(Glibc)
import Glibc
#endif
import Dispatch

// Temporary until the lead's SignalTrap lands in main.
final class StopSignals: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    init(onStop: @escaping @Sendable () -> Void) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler(handler: onStop)
            s.resume()
            sources.append(s)
        }
    }
}
