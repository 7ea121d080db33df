#if canImport(Glibc)
import Glibc
#endif

/// One TCP address of a host (IPv4 or IPv6, with its port), as getaddrinfo gives it.
public struct ResolvedAddress: Sendable, Equatable {
    /// AF_INET or AF_INET6.
    public let family: Int32
    /// The address as digits ("127.0.0.1", "fd00::5"), without the port.
    public let text: String
    public let port: Int
    /// The socket address's bytes (a sockaddr_in or sockaddr_in6).
    private let bytes: [UInt8]

    /// The address at `address` (`length` bytes); nil when it is neither IPv4 nor IPv6.
    public init?(_ address: UnsafePointer<sockaddr>?, length: socklen_t) {
        guard let address, [AF_INET, AF_INET6].contains(Int32(address.pointee.sa_family)) else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        guard getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                          NI_NUMERICHOST | NI_NUMERICSERV) == 0, let port = Int(String(cString: service)) else { return nil }
        family = Int32(address.pointee.sa_family)
        text = String(cString: host)
        self.port = port
        bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// `text`:`port` as a socket address (tests make their own addresses with it).
    public init?(_ text: String, port: Int) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(text, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        self.init(first.pointee.ai_addr, length: first.pointee.ai_addrlen)
    }

    /// connect(2) of `fd` to this address: its result, errno set on failure.
    func connect(_ fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }
}
