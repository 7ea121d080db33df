import DaemonGuard
import LoopbackListener
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's gpsd, fed an NMEA log by `gpsfake` (package gpsd-clients), on a port of its own: the
/// real part for the GPS tests. No mock gpsd. Test support, not shipped.
public final class GPSFake {
    /// Why the real gpsd cannot run here, or nil when it can.
    public static var unavailable: String? {
        guard which("gpsfake") != nil, which("gpsd") != nil else {
            return "gpsfake or gpsd is not installed (apt-get install gpsd gpsd-clients; CI installs them)"
        }
        return nil
    }

    public let port: String
    public let logPath: String
    private var daemon: GuardedDaemon?
    private let directory: URL
    /// Sockets of `addWatchingClient`, closed by `stop`.
    private var watchers: [Int32] = []

    /// Starts gpsfake replaying `log` at `cycle` seconds per sentence (a log with two sentences
    /// per fix plays one fix a second at 0.5), on a free port, and returns once gpsd reports
    /// from it to a watching client. gpsfake plays the log over and over (it stops only with
    /// `-1`), so a test sees the log's first fix again after the wait.
    ///
    /// gpsd accepts clients before gpsfake has added its pty to it, and gpsfake's add is a
    /// connect to gpsd's control socket that it silently skips when the connect fails
    /// (gps/fake.py, `DaemonInstance.add_device`): a gpsd with no device. On a loaded CI machine
    /// a test once got no report in 40 s (GPSSpeedFeedTests, CI of 5c55664). So a start counts
    /// only when a report comes through, and a start that brings none in `firstReportPatience`
    /// seconds is stopped and made again, up to `attempts` times.
    public init(log: String, cycle: Double = 0.5, port: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("imukit-gpsfake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logPath = directory.appendingPathComponent("feed.nmea").path
        try log.write(toFile: logPath, atomically: true, encoding: .utf8)
        self.port = port ?? Self.freePort()
        var failures: [String] = []
        for _ in 0..<Self.attempts {
            // In a process group of its own, so that gpsfake and the gpsd it starts stop
            // together, also when the test process dies (`GuardedDaemon`).
            daemon = try GuardedDaemon(Self.which("gpsfake")!, ["-q", "-P", self.port, "-c", String(cycle), logPath])
            if let failure = Self.waitForReport(port: self.port) {
                failures.append(failure)
                stop()
                continue
            }
            return
        }
        throw GPSFakeError(message: "gpsfake on port \(self.port), \(Self.attempts) starts: " + failures.joined(separator: "; "))
    }

    /// Starts of gpsfake tried before a test gives up.
    static let attempts = 3
    /// Seconds a start may take to bring a first report: gpsd's NMEA identification takes about
    /// 2 s here when idle; 20 s covers the loaded CI runs seen (a first report took over 10 s).
    static let firstReportPatience = 20.0

    /// Waits until gpsd on `port` accepts a client and reports to it from the device (a TPV, with
    /// a fix or without: a log may start in a tunnel); nil then, else why not.
    static func waitForReport(port: String) -> String? {
        let deadline = Date().addingTimeInterval(firstReportPatience)
        var fd: Int32?
        while fd == nil, Date() < deadline {
            fd = connected(port: port)
            if fd == nil { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard let fd else { return "gpsd did not accept connections" }
        defer { close(fd) }
        let command = "?WATCH={\"enable\":true,\"json\":true};\n"
        guard command.utf8.withContiguousStorageIfAvailable({ write(fd, $0.baseAddress, $0.count) }) == command.utf8.count else {
            return "cannot send WATCH"
        }
        // Bytes, not a String: gpsd ends its lines with CR LF, one Character to Swift's split.
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 250) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return "gpsd closed the connection before a report" }
            pending += buffer[0..<n]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                if line.contains("\"class\":\"TPV\"") { return nil }
            }
        }
        return "no report from gpsd within \(Int(firstReportPatience)) s"
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// gpsfake's process ID and process group, which gpsd shares; 0 when stopped.
    public var pid: pid_t { daemon?.pid ?? 0 }

    /// Stops gpsfake and its gpsd at once (SIGKILL to their process group: gpsd dies as a crashed
    /// or killed daemon would, and gpsfake ignores SIGINT and SIGTERM while it waits).
    public func stop() {
        for fd in watchers { close(fd) }
        watchers = []
        daemon?.stop()
        daemon = nil
    }

    /// `log` with its made-up 0° N 0° E position moved to `latitude`/`longitude` (NMEA fields,
    /// e.g. "4807.038,N" and "01131.000,E"), checksums recomputed: a position a test can look for.
    public static func relocate(_ log: String, latitude: String, longitude: String) -> String {
        log.split(separator: "\r\n").map { line -> String in
            guard line.hasPrefix("$"), let star = line.lastIndex(of: "*") else { return String(line) }
            let body = line[line.index(after: line.startIndex)..<star]
                .replacingOccurrences(of: "0000.000,N,00000.000,E", with: "\(latitude),\(longitude)")
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + String(format: "*%02X", checksum)
        }.map { $0 + "\r\n" }.joined()
    }

    /// Another client that watches (a navigation app, say): gpsd opens the receiver and keeps
    /// it reporting, as a gpsd in use does. Waits `settle` seconds for the receiver to report.
    public func addWatchingClient(settle: Double = 3) throws {
        guard let fd = Self.connected(port: port) else { throw GPSFakeError(message: "cannot connect to gpsd on \(port)") }
        watchers.append(fd)
        let command = "?WATCH={\"enable\":true,\"json\":true};\n"
        guard command.utf8.withContiguousStorageIfAvailable({ write(fd, $0.baseAddress, $0.count) }) == command.utf8.count else {
            throw GPSFakeError(message: "cannot send WATCH to gpsd on \(port)")
        }
        Thread.sleep(forTimeInterval: settle)
    }

    /// Does something accept TCP connections on 127.0.0.1:`port`?
    public static func accepts(port: String) -> Bool {
        guard let fd = connected(port: port) else { return false }
        close(fd)
        return true
    }

    /// A socket connected to 127.0.0.1:`port`, or nil.
    static func connected(port: String) -> Int32? {
        guard let number = UInt16(port) else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = number.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if ok { return fd }
        close(fd)
        return nil
    }

    /// A port nothing listens on now, from the kernel (bind to port 0).
    public static func freePort() -> String {
        String(LoopbackListener.freePort() ?? Int.random(in: 30000...45000))
    }

    static func which(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        return nil
    }
}

public struct GPSFakeError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
