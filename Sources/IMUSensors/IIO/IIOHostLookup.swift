#if canImport(Glibc)
import Glibc
#endif

/// Looks up the host of an `ip:` context before libiio is asked for it. libiio answers a name
/// that does not resolve by trying Avahi, and when avahi-daemon is not running it prints
/// "ERROR: Unable to create Avahi DNS-SD client :Daemon not running" twice, then fails with
/// ENXIO ("No such device or address"): a user who typed a board's name wrong read about Avahi
/// and a missing device. A name that does not resolve is now said as such (`IIOError.unknownHost`)
/// and libiio is not asked. A `.local` name is still handed to libiio, whose Avahi lookup can
/// find a board that the system's resolver cannot (no libnss-mdns), but only while avahi-daemon
/// runs: without it that lookup can only print its error.
enum IIOHostLookup {
    /// The host of "ip:HOST" or "ip:HOST:PORT" (an IPv6 literal has several colons and no port,
    /// as `IIOSourceSpec` reads it); nil for other URIs.
    static func host(ofURI uri: String) -> String? {
        guard uri.hasPrefix("ip:") else { return nil }
        let hostPort = uri.dropFirst("ip:".count)
        let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
        return String(parts.count == 2 ? parts[0] : hostPort)
    }

    /// Whether `host` needs multicast DNS (RFC 6762: names under `.local`).
    static func isMulticastName(_ host: String) -> Bool {
        host.lowercased().hasSuffix(".local") || host.lowercased().hasSuffix(".local.")
    }

    /// avahi-daemon's client socket (avahi-client's AVAHI_SOCKET, /run on Debian): present while
    /// the daemon runs.
    static let avahiSocket = "/run/avahi-daemon/socket"

    /// Whether libiio's own Avahi lookup can answer for `host`: a `.local` name while
    /// avahi-daemon runs.
    static func avahiMayResolve(_ host: String) -> Bool {
        isMulticastName(host) && access(avahiSocket, F_OK) == 0
    }

    /// nil when the system's resolver knows `host`; else its reason (gai_strerror). Blocks up to
    /// the resolver's timeout: call it off the Swift pool (inside `IIOCallGate`).
    static func failure(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        guard code != 0 else { return nil }
        if code == EAI_SYSTEM { return String(cString: strerror(errno)) }
        return String(cString: gai_strerror(code))
    }
}
