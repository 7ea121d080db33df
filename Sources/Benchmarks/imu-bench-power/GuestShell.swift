import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The kernel ring guest's command shell (busybox `nc -ll -p 2323 -e /bin/sh`, forwarded to a host
/// port by Tests/kernel/vm.sh): runs one command in the guest and returns what it printed, so a
/// capture on the guest's `local:` context (the path a phone's daemon polls) is measured where it
/// runs. Nil when the shell cannot be reached.
enum GuestShell {
    /// Output marker, followed by the command's exit status.
    private static let marker = "__IMUKIT_RC__"

    static func run(_ command: String, port: UInt16) -> (status: Int32, output: String)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let line = Array("( \(command) ) 2>&1; echo \(marker)$?\n".utf8)
        guard line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received += chunk[0..<n]
            let text = String(decoding: received, as: UTF8.self)
            if let range = text.range(of: marker, options: .backwards),
               let status = Int32(text[range.upperBound...].prefix { $0.isNumber }), text[range.upperBound...].contains("\n") {
                return (status, String(text[..<range.lowerBound]))
            }
        }
        return nil
    }
}
