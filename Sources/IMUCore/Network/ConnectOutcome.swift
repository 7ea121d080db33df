#if canImport(Glibc)
import Glibc
#endif

/// What became of a TCP connection, in words that say what happened, within `timeout`: libgps and
/// libmosquitto connect blocking, about 2 minutes (the kernel's SYN retries) for an address that
/// never answers, and libgps reports every failure as "can't connect to host/port pair". A
/// connection of this probe's own first says, in seconds, whether the host answers at all, and at
/// which of its addresses (`GPSDClient`, `MosquittoSession`).
public enum ConnectOutcome {
    /// Longest wait for a server to accept, s, shared by all of a host's addresses (they are
    /// tried at once, so a name with an IPv6 and an IPv4 address whose first never answers is
    /// still answered within it). gpsd or a broker on the board or the LAN accepts within
    /// milliseconds; 3 s also covers a retransmitted SYN (Linux resends the first after 1 s) on
    /// a slow Wi-Fi link, and keeps a retry of `GPSSpeedFeed` (every 2 s) short.
    public static let timeout = 3.0

    /// What gives a host's addresses: `resolve` (getaddrinfo), or a test's own list.
    public typealias Resolver = (_ host: String, _ port: String) -> Result<[ResolvedAddress], ResolveFailure>

    /// The addresses `host`:`port` resolves to for a TCP connection, in getaddrinfo's order, or
    /// the resolver's reason, within `timeout` as the connection is (`HostLookup`): getaddrinfo
    /// had no deadline, and a DNS server that never answers held gpsd's and the broker's
    /// connections for resolv.conf's timeouts, 30 s by default.
    public static func resolve(host: String, port: String) -> Result<[ResolvedAddress], ResolveFailure> {
        HostLookup.addresses(host: host, port: port, within: timeout) { lookUp(host: $0, port: $1) }
    }

    /// getaddrinfo, blocking for as long as the resolver takes.
    static func lookUp(host: String, port: String) -> Result<[ResolvedAddress], ResolveFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let first = list else {
            return .failure(ResolveFailure(reason: "no such host: \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let a = entry {
            if let address = ResolvedAddress(a.pointee.ai_addr, length: a.pointee.ai_addrlen) { addresses.append(address) }
            entry = a.pointee.ai_next
        }
        return .success(addresses)
    }

    /// Connects to every one of `addresses` at once and waits up to `timeout` s in all for the
    /// first to accept; its connection is closed at once (it only tells which address answers).
    /// `host` is the name they came from, for the failure's words. The seam tests inject
    /// addresses at.
    public static func reach(_ addresses: [ResolvedAddress], host: String, timeout: Double = timeout) -> Reached {
        var outcomes = [String?](repeating: nil, count: addresses.count)
        var open: [(fd: Int32, index: Int)] = []
        defer { for o in open { close(o.fd) } }
        for (i, address) in addresses.enumerated() {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { outcomes[i] = reason(errno: errno); continue }
            open.append((fd, i))
            if address.connect(fd) == 0 { return Reached(answered: address) }
            if errno != EINPROGRESS { outcomes[i] = reason(errno: errno); close(open.removeLast().fd) }
        }
        let deadline = BootClock.nowSeconds() + timeout
        while !open.isEmpty {
            let left = deadline - BootClock.nowSeconds()
            guard left > 0 else { break }
            var polled = open.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            // poll(2) counts whole milliseconds: round up, so the wait is never cut short.
            let ready = poll(&polled, nfds_t(polled.count), Int32((left * 1000).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            for p in polled where p.revents != 0 {
                let k = open.firstIndex { $0.fd == p.fd }!
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 { error = errno }
                if error == 0 { return Reached(answered: addresses[open[k].index]) }
                outcomes[open[k].index] = reason(errno: error)
                close(open.remove(at: k).fd)
            }
        }
        for o in open { outcomes[o.index] = timedOut }
        return Reached(failure: failure(addresses, outcomes.map { $0 ?? timedOut }, host: host), timedOut: !open.isEmpty)
    }

    /// What happened at each address, in one line: the reason, then the host and every address
    /// tried with its own reason where they differ ("…; tried broker.lan at fd00::5 (timed out…)
    /// and 192.168.1.5 (connection refused…)"). A numeric host tried at itself alone is not
    /// named twice.
    static func failure(_ addresses: [ResolvedAddress], _ outcomes: [String], host: String) -> String {
        guard let first = outcomes.first else { return "no such host: \(host) has no address for a TCP connection" }
        let same = outcomes.allSatisfy { $0 == first }
        if same, addresses.count == 1, addresses[0].text == host { return first }
        let listed = zip(addresses, outcomes).map { same ? $0.text : "\($0.text) (\($1))" }
        let list = listed.count == 1 ? listed[0] : listed.dropLast().joined(separator: ", ") + " and " + listed.last!
        return (same ? first : "no address answered") + "; tried \(host) at \(list)"
    }

    public static let timedOut = "timed out: nothing answered within \(Int(timeout)) s (a host that is off, or a firewall that drops the connection)"

    /// errno of a failed connect as what happened.
    static func reason(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused: nothing listens on that port"
        case ENETUNREACH: "network unreachable: this machine has no route to it"
        case EHOSTUNREACH: "host unreachable: no route to it, or it is off"
        case ETIMEDOUT: timedOut
        default: String(cString: strerror(code))
        }
    }
}

/// What `ConnectOutcome.reach` found: the address that accepted, or why none did.
public struct Reached: Sendable {
    /// The first address that accepted; nil when none did.
    public var answered: ResolvedAddress?
    /// Why none accepted, naming the host and its addresses; nil when one did.
    public var failure: String?
    /// At least one address never answered within `ConnectOutcome.timeout`: a blocking connect
    /// to the host (libmosquitto's, libgps') would hang on it for minutes.
    public var timedOut = false

    init(answered: ResolvedAddress) { self.answered = answered }
    init(failure: String, timedOut: Bool) {
        self.failure = failure
        self.timedOut = timedOut
    }
}

/// The resolver's reason a host has no address ("no such host: Name or service not known").
public struct ResolveFailure: Error, Sendable {
    public var reason: String
    /// No answer within the deadline (`HostLookup`), rather than an answer that the name has none.
    public var timedOut = false

    public init(reason: String, timedOut: Bool = false) {
        self.reason = reason
        self.timedOut = timedOut
    }
}
