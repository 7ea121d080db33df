import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Pedometer
import Synchronization

/// gpsd's ground speed for a running tool: a `GPSDClient` on a thread of its own (its calls block
/// on a socket, so they never run on the cooperative pool), sharing only the latest reading and
/// its state with the tool through a mutex. Speed only: no position ever reaches it
/// (docs/gps.md, "Privacy").
///
/// - gpsd absent at the start, or gone mid-run, is a degraded state, not an error: the feed says
///   so once through `notify`, retries every `retryInterval`, and says so again when gpsd is back.
/// - `setWanted` is the power lever (`GPSDemand`): gpsd streams reports (`WATCH` on) only while
///   wanted; gpsd powers a receiver down when no client watches it.
public final class GPSSpeedFeed: Sendable {
    /// Seconds between reconnection attempts while gpsd is absent: a restart of gpsd (systemd
    /// restarts a failed unit after 100 ms by default, a socket-activated one at once) is seen
    /// within this, and a refused connection costs one system call per attempt.
    public static let retryInterval = 2.0
    /// A reading older than this is no fix, s: gpsd reports at 1 Hz, three missed reports are a
    /// dropout (the activity vote's freshness, docs/activity.md).
    public static let freshness = 3.0
    /// Readings kept for the consumer, newest last: 8 s at gpsd's 1 Hz, far more than a hand-over
    /// of samples (`HandOver.seconds`, 1 s, for every source, `imu-stepd` included), so every
    /// reading of a batch's span can be placed among its samples (`GroundSpeedInput.process`),
    /// even when a busy consumer takes a batch a few seconds late.
    static let backlogLimit = 8
    /// Longest a read waits before the thread looks at `wanted` and `stop` again, s.
    static let pollInterval = 0.25

    /// Where the connection stands.
    public enum Connection: Equatable, Sendable {
        /// Not tried yet.
        case starting
        /// Connected to gpsd (reports requested or not).
        case connected
        /// gpsd was never reached since the start (the reason, for the message).
        case unreachable(String)
        /// Something accepted the connection and has not greeted within `greetingPatience`: not
        /// gpsd, or a gpsd that is stuck or slow. The feed keeps waiting on that connection.
        case silent(String)
        /// gpsd was reached, then lost; retrying.
        case lost(String)
    }

    /// A snapshot of the feed, for summaries and capability lines.
    public struct Status: Equatable, Sendable {
        public var connection: Connection = .starting
        /// The newest reading (receive time on `BootClock`), if any.
        public var latest: GroundSpeed?
        /// Readings received since the start (a counter, for the summary).
        public var readings = 0
        /// Reports without a fix received since the start.
        public var noFixReports = 0
        /// Fixes whose speed is no ground speed (negative, or beyond `GroundSpeed.fastestLandSpeed`),
        /// ignored; the first is said once through `notify`. Part of the summary's one count of
        /// ignored ground speeds, `gnss_speed_ignored` (`EventEncoding.addGroundSpeed`).
        public var implausibleReadings = 0
        /// Whether gpsd streams reports to us now.
        public var watching = false
        /// Times gpsd was lost after being reached.
        public var losses = 0
    }

    private struct State {
        var status = Status()
        /// The newest readings (at most `backlogLimit`), oldest first; emptied when gpsd is lost.
        var recent: [GroundSpeed] = []
        var wanted: Bool
        var started = false
    }

    public let host: String
    public let port: String
    private let state: Mutex<State>
    /// Set by `stop()`; also cuts short the wait between attempts to reach gpsd.
    private let stopped = StopSignal()
    private let notify: @Sendable (String) -> Void
    /// How the user names another gpsd or stops asking, said after "not reachable" ("check the
    /// address (--gpsd HOST:PORT), or run without --gps"; the daemon's is its config keys): one
    /// text for every tool named `--gps`, which imu-info does not have, and imu-stepd has no flags.
    public let settings: String

    /// A feed for gpsd at `host:port`; nothing happens before `start()`. `wanted`: whether reports
    /// are requested from the start. `notify` gets one line per change of state (lost, back).
    public init(host: String, port: String, wanted: Bool = true, settings: String,
                notify: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.port = port
        self.settings = settings
        self.notify = notify
        state = Mutex(State(wanted: wanted))
    }

    /// Starts the feed's thread (once; later calls do nothing).
    public func start() {
        guard !state.withLock({ s in defer { s.started = true }; return s.started }) else { return }
        do {
            try OwnThread.start(name: "gpsd") { [self] in run() }
        } catch {
            changeConnection(to: .unreachable("\(error)"))
        }
    }

    /// Stops the thread within `pollInterval` (it does not wait for it).
    public func stop() { stopped.set() }

    /// Requests reports from gpsd (true) or stops them (false); applied by the thread.
    public func setWanted(_ wanted: Bool) { state.withLock { $0.wanted = wanted } }

    public var status: Status { state.withLock { $0.status } }

    /// The newest reading when it is fresh at `now` (`BootClock` seconds), else nil: the speed a
    /// recording's `gnss_speed` column holds, empty without a fix.
    public func currentSpeed(now: Double = BootClock.nowSeconds()) -> GroundSpeed? {
        state.withLock { s in
            guard let r = s.status.latest, s.status.connection == .connected, now - r.time <= Self.freshness else { return nil }
            return r
        }
    }

    /// The readings after the `seen`-th still kept (at most `backlogLimit`), oldest first;
    /// advances `seen`. Nothing while gpsd is not connected.
    public func newReadings(after seen: inout Int) -> [GroundSpeed] {
        state.withLock { s in
            guard s.status.readings > seen, s.status.connection == .connected else { return [] }
            let fresh = s.recent.suffix(min(s.status.readings - seen, s.recent.count))
            seen = s.status.readings
            return Array(fresh)
        }
    }

    // MARK: the thread

    private func run() {
        Self.blockSIGPIPE()
        var client: GPSDClient?
        var lastAttempt = -Double.infinity
        /// When the connection in `client` was made, `BootClock` s: its greeting is awaited from then.
        var accepted = 0.0
        while !stopped.isSet {
            guard let connected = client else {
                let now = BootClock.nowSeconds()
                if now - lastAttempt < Self.retryInterval {
                    stopped.sleep(seconds: Self.pollInterval)
                    continue
                }
                lastAttempt = now
                do {
                    client = try GPSDClient(host: host, port: port)
                    accepted = BootClock.nowSeconds()
                } catch {
                    changeConnection(to: .unreachable("\(error)"))
                }
                continue
            }
            guard connected.reportsRead > 0 else {
                // Not connected until gpsd's greeting: see `awaitGreeting`.
                do {
                    if try awaitGreeting(connected, since: accepted) { changeConnection(to: .connected) }
                } catch {
                    client = nil
                    lastAttempt = BootClock.nowSeconds()
                    changeConnection(to: .unreachable("\(error)"))
                }
                continue
            }
            do {
                try connected.setWatching(state.withLock { $0.wanted })
                state.withLock { $0.status.watching = connected.isWatching }
                switch try connected.next(timeout: Self.pollInterval) {
                case .speed(let reading):
                    state.withLock {
                        $0.status.latest = reading
                        $0.status.readings += 1
                        $0.recent.append(reading)
                        if $0.recent.count > Self.backlogLimit { $0.recent.removeFirst() }
                    }
                case .noFix:
                    state.withLock {
                        $0.status.latest = nil
                        $0.status.noFixReports += 1
                    }
                case .implausible(let speed):
                    let first = state.withLock { s -> Bool in
                        s.status.implausibleReadings += 1
                        return s.status.implausibleReadings == 1
                    }
                    if first { notify(Self.implausibleMessage(speed, address: GPSDClient.display(host: host, port: port))) }
                case .none:
                    break
                }
            } catch {
                client = nil
                lastAttempt = BootClock.nowSeconds()
                changeConnection(to: .lost(error.lostReason))
            }
        }
    }

    /// How long gpsd's greeting may take before the feed says it is missing, s: gpsd sends VERSION
    /// as soon as a client connects: within 0.1 s here at load 7–14 (40 starts of gpsfake beside a
    /// build and the kernel ring's qemu, session 23); the bound is `ConnectOutcome.timeout`'s.
    public static let greetingPatience = ConnectOutcome.timeout

    /// One wait of at most `pollInterval` for gpsd's VERSION report on a connection made at
    /// `accepted` (`BootClock` s); true once it came. A listener that accepts and says nothing
    /// (another service on 2947, a proxy with nothing behind it, a stuck gpsd) was taken for gpsd:
    /// "ground speed from gpsd at …", and the summary said gnss_speed_available true, state
    /// connected, 0 readings. After `greetingPatience` the feed says so (`.silent`), and keeps
    /// waiting on the same connection: a gpsd merely slow to greet (a loaded machine) is used as
    /// soon as it does, where dropping the connection after 3 s and connecting again gave up on
    /// it for the whole run if every greeting took longer. `GPSProbe` (imu-info) asks the same.
    /// Throws `.unreachable` when the connection closes or breaks before the greeting.
    func awaitGreeting(_ client: GPSDClient, since accepted: Double) throws(GPSDError) -> Bool {
        do { _ = try client.next(timeout: Self.pollInterval) } catch {
            // Closed before the greeting: never gpsd, so unreachable (not "lost").
            guard case .lost(let reason) = error else { throw error }
            throw .unreachable(host: client.host, port: client.port, reason: reason)
        }
        if client.reportsRead > 0 { return true }
        if BootClock.nowSeconds() - accepted >= Self.greetingPatience {
            let silent = GPSDError.unreachable(host: client.host, port: client.port, reason: Self.silentReason(host: client.host, port: client.port))
            changeConnection(to: .silent("\(silent)"))
        }
        return false
    }

    /// Why a listener that has not greeted within `seconds` is not used (yet).
    static func silentReason(host: String, port: String, within seconds: Double = greetingPatience) -> String {
        "\(GPSDClient.display(host: host, port: port)) accepted the connection but sent nothing within \(Int(seconds.rounded())) s: "
            + "it is not gpsd, or gpsd is stuck (check the port, systemctl status gpsd)"
    }

    /// Records the new connection state and says what changed, once per change.
    private func changeConnection(to new: Connection) {
        let old = state.withLock { s -> Connection in
            let old = s.status.connection
            // A failed reconnection while lost stays "lost": one message for the whole outage.
            if case .lost = old, case .unreachable = new { return old }
            if case .lost = old, case .silent = new { return old }
            // Said once while the same listener stays silent.
            if case .silent = old, case .silent = new { return old }
            s.status.connection = new
            if case .lost = new { s.status.losses += 1 }
            if new != .connected {
                s.status.latest = nil
                s.recent.removeAll()
                s.status.watching = false
            }
            return old
        }
        guard let line = Self.message(from: old, to: new, address: GPSDClient.display(host: host, port: port), settings: settings) else { return }
        notify(line)
    }

    /// The line for the first implausible speed of a run: a receiver that reported 1e30 m/s (or
    /// -5) had its fixes dropped without a word, the summary showing a connected gpsd and no readings.
    static func implausibleMessage(_ speed: Double, address: String) -> String {
        return "gpsd at \(address) reported a ground speed of \(speed) m/s, which no receiver on the ground measures "
            + "(\(notAGroundSpeed)): such fixes are ignored and counted (gnss_speed_ignored); \(checkTheReceiver)"
    }

    /// imu-info's words for a probe whose fixes within `wait` s all had speeds no receiver on the
    /// ground measures: `count` of them, the first `first` m/s.
    public static func implausibleProbeMessage(count: Int, first: Double, wait: Double) -> String {
        "\(count) \(count == 1 ? "fix" : "fixes") within \(Int(wait.rounded())) s, every one with a ground speed no receiver on the ground measures "
            + "(first \(first) m/s; \(notAGroundSpeed)): ignored; \(checkTheReceiver)"
    }

    /// What imu-info says of `count` fixes ignored before one it used (`GPSAvailability.fix`).
    public static func ignoredBeforeFixMessage(count: Int, first: Double) -> String {
        "\(count) \(count == 1 ? "fix" : "fixes") before it with a ground speed no receiver on the ground measures "
            + "(first \(first) m/s; \(notAGroundSpeed)): ignored; \(checkTheReceiver)"
    }

    /// Which speeds no ground speed has (`GroundSpeed.isPlausible`), for both messages above.
    private static let notAGroundSpeed = "negative, or beyond \(Int(GroundSpeed.fastestLandSpeed)) m/s"
    /// The fix both messages above end with.
    private static let checkTheReceiver = "check the receiver (gpsmon shows what it sends)"

    /// The line for a change of connection, or nil when there is nothing new to say.
    static func message(from old: Connection, to new: Connection, address: String, settings: String) -> String? {
        switch (old, new) {
        case (.starting, .connected):
            return "ground speed from gpsd at \(address) (speed only, never a position)"
        case (.unreachable, .connected), (.lost, .connected):
            return "gpsd at \(address) is back: ground speed resumes"
        case (.silent, .connected):
            return "gpsd at \(address) answered after all: ground speed from now on (speed only, never a position)"
        case (.starting, .unreachable(let reason)), (.silent, .unreachable(let reason)):
            return reason + ", \(settings); working from the IMU alone, retrying every \(Int(retryInterval)) s"
        case (.starting, .silent(let reason)), (.unreachable, .silent(let reason)):
            return reason + ", \(settings); working from the IMU alone, and waiting for it to answer"
        case (.connected, .lost(let reason)):
            return "lost gpsd at \(address) (\(reason)): working from the IMU alone until it returns "
                + "(check that gpsd runs: systemctl status gpsd)"
        default:
            return nil
        }
    }

    /// SIGPIPE from a write to a gpsd that just closed stays pending on this thread (it is
    /// thread-directed): the write fails with EPIPE, which `GPSDClient` reports as lost.
    static func blockSIGPIPE() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}

extension GPSDError {
    /// The reason alone, for the "lost" line.
    var lostReason: String {
        switch self {
        case .lost(let reason): return reason
        case .unreachable(_, _, let reason), .unresolved(_, _, let reason): return reason
        case .badAddress(let text): return "bad address \(text)"
        }
    }
}

extension GPSSpeedFeed.Connection {
    /// One word for summaries: starting, connected, unreachable, lost.
    public var word: String {
        switch self {
        case .starting: return "starting"
        case .connected: return "connected"
        // A listener that has not greeted is no gpsd to the summary's reader either.
        case .unreachable, .silent: return "unreachable"
        case .lost: return "lost"
        }
    }
}
