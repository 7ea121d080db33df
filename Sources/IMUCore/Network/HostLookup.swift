import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A host's addresses within a deadline. getaddrinfo blocks for as long as the resolver likes: a
/// DNS server that never answers holds it for resolv.conf's `timeout` (5 s) × `attempts` (2) ×
/// servers (up to 3), 30 s, while the connection that follows had 3 s (`ConnectOutcome.timeout`).
/// The lookup runs on a thread of its own (`OwnThread`), and the caller waits for it up to the
/// deadline (the callers are threads of their own too, never the cooperative pool: `GPSProbe`,
/// `GPSSpeedFeed`'s thread, `MQTTPublisher`'s). A lookup that misses it is not abandoned: it goes
/// on, and the next lookup of the same host and port waits for that one, not a second, so retries
/// (`GPSSpeedFeed` tries every 2 s) never pile up threads, and a resolver that answers after the
/// deadline (a dead first server, the second answering after its 5 s) answers the retry.
enum HostLookup {
    typealias Answer = Result<[ResolvedAddress], ResolveFailure>

    /// How long a lookup's late answer is kept for the next lookup of its host and port, s:
    /// longer than any retry's pace (`GPSSpeedFeed` 2 s, the broker's backoff up to 60 s), short
    /// enough that an address from the cache is not much older than one from the resolver.
    static let keptFor = 120.0

    /// One lookup: its answer once it has one, and when (`BootClock` s).
    final class Pending: Sendable {
        let finished = DispatchGroup()
        let answer = Mutex<(answer: Answer, at: Double)?>(nil)
        init() { finished.enter() }
    }

    /// The lookups not yet taken by a caller, by host and port.
    static let pending = Mutex<[String: Pending]>([:])

    /// `host`:`port`'s addresses by `lookup` (blocking), or within `timeout` s the reason there
    /// are none yet, naming the host, the deadline and the fix.
    static func addresses(host: String, port: String, within timeout: Double,
                          lookup: @escaping @Sendable (String, String) -> Answer) -> Answer {
        let key = host + "\u{0}" + port
        let now = BootClock.nowSeconds()
        let (entry, isNew) = pending.withLock { table -> (Pending, Bool) in
            if let e = table[key], e.answer.withLock({ $0.map { now - $0.at < keptFor } ?? true }) { return (e, false) }
            let e = Pending()
            table[key] = e
            return (e, true)
        }
        if isNew {
            do {
                try OwnThread.start(name: "imu-lookup") {
                    let answer = lookup(host, port)
                    entry.answer.withLock { $0 = (answer, BootClock.nowSeconds()) }
                    entry.finished.leave()
                }
            } catch {
                pending.withLock { if $0[key] === entry { $0[key] = nil } }
                return .failure(ResolveFailure(reason: "no thread for the lookup of \(host): \(error)"))
            }
        }
        guard entry.finished.wait(timeout: .now() + timeout) == .success, let done = entry.answer.withLock({ $0 }) else {
            return .failure(timedOut(host: host, within: timeout))
        }
        pending.withLock { if $0[key] === entry { $0[key] = nil } }
        return done.answer
    }

    /// Why `host` has no address yet, and what to do.
    static func timedOut(host: String, within timeout: Double) -> ResolveFailure {
        ResolveFailure(reason: "the lookup of \(host.escapedOnOneLine) found no address within \(Int(timeout)) s: the resolver did not answer "
                       + "(DNS: the nameserver lines of /etc/resolv.conf); fix: check DNS, or give the host's address instead of its name",
                       timedOut: true)
    }
}
