import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An address that never answers: a listening socket at a loopback address (127.0.0.x or ::1)
/// with backlog 0, its one queue slot taken by a connection of its own, so the kernel drops every
/// further SYN, as for a host that is off or a firewall that drops the connection. Test support.
public final class SilentListener {
    public let port: Int
    private let listener: Int32
    private let filler: Int32

    /// Nil when `address` is no numeric address, or the socket cannot be made, bound or filled.
    public init?(address: String, port: Int = 0) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address, String(port), &hints, &list) == 0, let a = list?.pointee else { return nil }
        defer { freeaddrinfo(list) }
        let stream = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(a.ai_family, stream, 0)
        guard fd >= 0 else { return nil }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ready = bind(fd, a.ai_addr, a.ai_addrlen) == 0 && listen(fd, 0) == 0
            && withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 } }
        let fill = socket(a.ai_family, stream, 0)
        let filled = ready && fill >= 0
            && withUnsafePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fill, $0, length) == 0 } }
        guard filled else {
            close(fd)
            if fill >= 0 { close(fill) }
            return nil
        }
        listener = fd
        filler = fill
        // sin_port and sin6_port lie at the same offset, right after the family.
        self.port = Int(UInt16(bigEndian: withUnsafeBytes(of: bound) { $0.load(fromByteOffset: 2, as: UInt16.self) }))
    }

    deinit {
        close(filler)
        close(listener)
    }
}
