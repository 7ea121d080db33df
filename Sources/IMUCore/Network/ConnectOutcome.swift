#if canImport(Glibc)
import Glibc
#endif

/// What became of a TCP connection, in words that say what happened, within `timeout`: libgps and
/// libmosquitto connect blocking, about 2 minutes (the kernel's SYN retries) for an address that
/// never answers, and libgps reports every failure as "can't connect to host/port pair". A
/// connection of this probe's own first says, in seconds, whether the address answers at all
/// (`GPSDClient`, `MosquittoSession`).
public enum ConnectOutcome {
    /// Longest wait for a server to accept, s. gpsd or a broker on the board or the LAN accepts
    /// within milliseconds; 3 s also covers a retransmitted SYN (Linux resends the first after
    /// 1 s) on a slow Wi-Fi link, and keeps a retry of `GPSSpeedFeed` (every 2 s) short.
    public static let timeout = 3.0

    /// The error of the connection on `fd` once it settles (at most `timeout`): nil when it is
    /// connected, else the reason.
    static func settle(_ fd: Int32) -> String? {
        guard fd >= 0 else { return nil }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&p, 1, Int32(timeout * 1000)) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return ready == 0 ? timedOut : nil }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return nil }
        return error == 0 ? nil : reason(errno: error)
    }

    /// Tries a connection of its own to `host`:`port`, at most `timeout` per address; nil when it
    /// connects, else what happened (the last address's outcome when there are several).
    public static func probe(host: String, port: String) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, port, &hints, &list)
        guard status == 0, let first = list else { return "no such host: \(String(cString: gai_strerror(status)))" }
        defer { freeaddrinfo(list) }
        var lastReason: String?
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let a = entry {
            defer { entry = a.pointee.ai_next }
            let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), a.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0 { return nil }
            guard errno == EINPROGRESS else { lastReason = reason(errno: errno); continue }
            guard let failure = settle(fd) else { return nil }
            lastReason = failure
        }
        return lastReason
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
