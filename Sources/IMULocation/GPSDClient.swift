import CGPS
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Pedometer

/// Reads ground speed from gpsd through libgps. Speed only: the client never reads, keeps or
/// passes on a position (docs/activity.md, "Privacy").
///
/// Every call blocks (socket reads): use the client from one thread of its own, never from the
/// cooperative pool. It is not `Sendable` on purpose: it owns libgps' connection state.
public final class GPSDClient {
    /// gpsd's registered port.
    public static let defaultPort = "2947"

    public let host: String
    public let port: String
    /// libgps' connection state, at a fixed address for the library.
    private let data: UnsafeMutablePointer<gps_data_t>
    /// Whether gpsd streams reports to us now (`setWatching`).
    public private(set) var isWatching = false
    /// Reports (of any class: VERSION, DEVICES, TPV, …) read so far. gpsd sends VERSION as soon as
    /// a client connects, so none within a wait means the listener at this address is not gpsd.
    public private(set) var reportsRead = 0

    /// Parses `HOST:PORT`, `HOST` or `:PORT` (defaults: localhost, 2947); an IPv6 address goes in
    /// brackets, `[::1]:2947` or `[::1]`, as in a URL. A malformed one throws `.badAddress`, whose
    /// description says what is wrong (`parse`).
    public static func address(_ text: String) throws(GPSDError) -> (host: String, port: String) {
        switch parse(text) {
        case let .address(host, port): return (host, port)
        case .problem: throw .badAddress(text)
        }
    }

    enum Parsed: Equatable {
        case address(host: String, port: String)
        /// What is wrong, in words.
        case problem(String)
    }

    /// The one parser of an address: the brackets of an IPv6 address, the colons, the port (TCP's
    /// 1–65535, digits only), the host (no host name or address holds a space, a control character
    /// or a slash: `gps = yes please` was looked up as the host "yes please").
    static func parse(_ text: String) -> Parsed {
        let host: Substring, port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .problem("the '[' of an IPv6 address is not closed by ']'") }
            host = text[text.index(after: text.startIndex)..<close]
            if host.isEmpty { return .problem("no address between '[' and ']'") }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return .problem("only ':PORT' may follow the ']'") }
            port = rest.isEmpty ? nil : rest.dropFirst()
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                return .problem("it holds \(parts.count - 1) ':' where HOST:PORT has one; an IPv6 address goes in brackets")
            }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        if let port {
            if port.isEmpty { return .problem("no port after ':'") }
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .problem("the port '\(port)' is not a number") }
            guard let number = Int(port), (1...65535).contains(number) else {
                return .problem("the port \(port) is outside 1–65535 (TCP's port numbers)")
            }
        }
        if host.contains(where: { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) }) {
            return .problem("the host holds a control character, which no host name or address has")
        }
        if host.contains(where: \.isWhitespace) { return .problem("the host '\(host)' holds a space, which no host name or address has") }
        if host.contains("/") { return .problem("the host '\(host)' holds a '/', which no host name or address has (give the host alone, not a URL)") }
        return .address(host: host.isEmpty ? "localhost" : String(host), port: port.map(String.init) ?? defaultPort)
    }

    /// `host:port` as a user writes it (`[::1]:2947` for an IPv6 address), for messages.
    public static func display(host: String, port: String) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Connects to gpsd. Does not ask for reports yet (`setWatching(true)`). `resolve` gives the
    /// host's addresses (getaddrinfo; tests inject their own).
    public init(host: String = "localhost", port: String = GPSDClient.defaultPort,
                resolve: ConnectOutcome.Resolver = ConnectOutcome.resolve) throws(GPSDError) {
        self.host = host
        self.port = port
        // libgps' gps_open resolves the name and connects to its addresses in turn, blocking, with
        // no deadline: about 2 min on an address that never answers (a host that is off, a
        // firewall that drops), and it reports every failure as "can't connect to host/port pair".
        // Connections of our own first, to every address at once within ConnectOutcome.timeout in
        // all, find the one that answers or say of each what happened; libgps then gets that
        // address's digits, so it neither resolves again nor tries an address that did not answer.
        // (It was given the name after the probe: a name whose first address never answered held
        // the thread for minutes after the probe had found the one that did.)
        // The lookup has a deadline too, the connection's (`ConnectOutcome.resolve`): getaddrinfo
        // blocked for as long as the resolver liked, 30 s by default on a DNS server that never
        // answers, before the deadline of the connection began.
        let addresses: [ResolvedAddress]
        switch resolve(host, port) {
        case let .success(found): addresses = found
        case let .failure(failure) where failure.timedOut: throw .unresolved(host: host, port: port, reason: failure.reason)
        case let .failure(failure): throw .unreachable(host: host, port: port, reason: failure.reason)
        }
        let reached = ConnectOutcome.reach(addresses, host: host)
        guard let answered = reached.answered else {
            throw .unreachable(host: host, port: port, reason: reached.failure ?? ConnectOutcome.timedOut)
        }
        let state = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        state.initialize(to: gps_data_t())
        errno = 0
        let status = gps_open(answered.text, String(answered.port), state)
        guard status == 0 else {
            // libgps returns -1 and leaves netlib's code (negative: no host, no connection, …) in errno.
            let code = errno < 0 ? errno : status
            state.deallocate()
            throw .unreachable(host: host, port: port, reason: "\(answered.text) answered, then libgps could not connect to it: " + String(cString: gps_errstr(code)))
        }
        // libgps makes its socket without SOCK_CLOEXEC (seen with strace on Debian 12's libgps28):
        // set it at once, so a child spawned from now on does not hold the connection to gpsd.
        _ = fcntl(state.pointee.gps_fd, F_SETFD, FD_CLOEXEC)
        data = state
    }

    /// Whether the peer of `fd` has not closed it: bytes wait to be read, or none yet (a closed
    /// connection reads 0 bytes at once).
    static func isOpen(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n > 0 || n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// Waits until `fd` has bytes to read (or is closed or failed, which the next read reports) or
    /// `deadline` (`BootClock` seconds) passes; false when it passed.
    static func waitForBytes(on fd: Int32, until deadline: Double) -> Bool {
        while true {
            let left = deadline - BootClock.nowSeconds()
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            // Rounded up to a whole millisecond: 0 would return at once and spin.
            let ready = poll(&p, 1, Int32((left * 1000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    /// The socket of the connection to gpsd (libgps' gps_fd), for tests that look at this
    /// connection alone (GPSDInheritanceTests).
    var descriptor: Int32 { data.pointee.gps_fd }

    deinit {
        gps_close(data)
        data.deallocate()
    }

    /// Asks gpsd to stream reports (true) or to stop (false): gpsd powers a receiver down when no
    /// client watches it, which is the power policy's lever (`GPSDemand`).
    public func setWatching(_ on: Bool) throws(GPSDError) {
        guard on != isWatching else { return }
        let flags = on ? UInt32(WATCH_ENABLE | WATCH_JSON) : UInt32(WATCH_DISABLE)
        errno = 0
        guard gps_stream(data, flags, nil) == 0 else {
            let e = errno
            throw .lost(reason: e > 0 ? "cannot send the WATCH request: " + String(cString: strerror(e)) : "cannot send the WATCH request")
        }
        isWatching = on
    }

    /// What one wait for gpsd brought.
    public enum Report: Equatable, Sendable {
        /// A fix with a speed, stamped with the receive time on `BootClock` (the samples' clock).
        case speed(GroundSpeed)
        /// A report without a 2-D fix (no satellites: a tunnel, a car park).
        case noFix
        /// A fix whose speed no ground speed has (`GroundSpeed.isPlausible`: negative, or faster
        /// than any land vehicle), m/s as reported: not used, but counted and said
        /// (`GPSSpeedFeed.Status.implausibleReadings`), never dropped without a word.
        case implausible(Double)
        /// Nothing arrived within the timeout, or a report without speed (satellite lists, …).
        case none
    }

    /// Waits up to `timeout` seconds for one report.
    public func next(timeout: Double) throws(GPSDError) -> Report {
        let seconds = max(0, min(timeout, 60))
        let deadline = BootClock.nowSeconds() + seconds
        guard gps_waiting(data, Int32(seconds * 1_000_000)) else { return .none }
        var status: Int32
        while true {
            // libgps leaves the bits of an earlier report in `set` when a read brings a report of
            // another class (SKY, DEVICE) or no whole line: each SKY of a receiver then repeated the
            // last TPV's speed as a new reading (seen with a scripted gpsd, GPSDReportTests).
            data.pointee.set = 0
            errno = 0
            status = gps_read(data, nil, 0)
            guard status == 0 else { break }
            // 0: part of a line, the rest not here yet. gps_waiting says "ready" at once while libgps
            // holds part of a line, so asking it again spun at full speed (about 200 000 reads a
            // second) until the rest came: wait for the socket itself, within the timeout.
            guard Self.waitForBytes(on: data.pointee.gps_fd, until: deadline) else { return .none }
        }
        guard status >= 0 else {
            // -1 with errno 0 is an orderly end of the stream: gpsd stopped or closed us.
            let e = errno
            if e > 0 { throw .lost(reason: String(cString: strerror(e))) }
            // libgps also returns -1 with errno 0 when a line fills its buffer without ending: the
            // connection is open, and "gpsd closed the connection" was false. The socket says which.
            if Self.isOpen(data.pointee.gps_fd) {
                throw .lost(reason: "\(Self.display(host: host, port: port)) sent a line longer than libgps reads without its end: "
                                + "not gpsd's JSON (a gpsd of another protocol, or another service on its port)")
            }
            // gpsd greets every client with a VERSION report: a listener that closes first is not gpsd.
            throw .lost(reason: reportsRead > 0 ? "gpsd closed the connection"
                            : "\(Self.display(host: host, port: port)) accepted the connection and closed it without a word: it is not gpsd, or a proxy with nothing behind it")
        }
        if status > 0 { reportsRead += 1 }
        let received = BootClock.nowSeconds()
        let report = data.pointee
        if report.set & cgps_mode_set != 0, report.fix.mode < MODE_2D { return .noFix }
        guard report.set & cgps_speed_set != 0, report.fix.mode >= MODE_2D else { return .none }
        let speed = report.fix.speed
        // gpsd's eps is a 95 % bound; the filter wants one sigma (≈ eps / 2 for a Gaussian).
        let eps = report.fix.eps
        let reading = GroundSpeed(time: received, metersPerSecond: speed,
                                  accuracy: eps.isFinite && eps > 0 ? eps / 2 : nil)
        return reading.isPlausible ? .speed(reading) : .implausible(speed)
    }
}
