import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket on 127.0.0.1 at a port the kernel picks (bind to port 0): a stand-in at an address
/// a tool or a client is pointed at (a listener that is not gpsd, not a broker, or never accepts),
/// and the source of free ports for the daemons the tests start. Test support, not shipped.
public final class LoopbackListener {
    /// The socket (close-on-exec: a tool the test spawns does not hold it).
    public let descriptor: Int32
    public let port: Int

    /// Binds 127.0.0.1:0 and, when `backlog` is given, listens with it (backlog 0: one connection
    /// waits, the kernel drops the SYN of the next). Nil when the socket cannot be made or bound.
    public init?(backlog: Int32? = 8) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true) && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { close(fd); return nil }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// Accepts each connection and closes it at once, on a thread of its own (accept blocks),
    /// until the listener is shut down (`shutDown`): a server that is reached and says nothing.
    public func closeEveryConnection() {
        let fd = descriptor
        Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                close(client)
            }
        }.start()
    }

    /// Ends the accept loop of `closeEveryConnection` (accept returns an error on a shut socket).
    public func shutDown() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// A port nothing listens on now (bound, read and released at once).
    public static func freePort() -> Int? { LoopbackListener(backlog: nil)?.port }

    /// 127.0.0.1:`port` as a socket address.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
