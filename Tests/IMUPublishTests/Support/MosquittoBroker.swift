import DaemonGuard
import Foundation
import LoopbackListener
import Synchronization

/// A real Mosquitto broker on 127.0.0.1, on a free port, with a config the test writes. Killed by
/// `stop()`, when released, or when the test process dies (`GuardedDaemon`).
final class MosquittoBroker {
    static let binary = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let subscriber = "/usr/bin/mosquitto_sub"
    static var available: Bool { binary != nil && FileManager.default.isExecutableFile(atPath: subscriber) }
    static let skipMessage = "Debian's mosquitto and mosquitto-clients are not installed (apt-get install mosquitto mosquitto-clients)"

    let directory: URL
    let port: Int
    private let extraConfig: String
    private var daemon: GuardedDaemon?

    /// `extraConfig` is appended to the listener's block (TLS files, password file).
    init(extraConfig: String = "allow_anonymous true", port: Int? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.port = port ?? Self.freePort()
        self.extraConfig = extraConfig
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func start() throws {
        let config = directory.appendingPathComponent("mosquitto.conf")
        try """
        per_listener_settings true
        persistence false
        log_dest stderr
        listener \(port) 127.0.0.1
        \(extraConfig)
        """.write(to: config, atomically: true, encoding: .utf8)
        daemon = try GuardedDaemon(Self.binary!, ["-c", config.path])
        // Ready when the port accepts a connection (at most 5 s).
        for _ in 0..<100 where !Self.accepts(port: port) { usleep(50_000) }
    }

    /// The broker's process ID and process group, 0 when stopped.
    var pid: pid_t { daemon?.pid ?? 0 }

    /// Kills the broker (SIGKILL: a broker that vanishes is the point) and waits for it.
    func stop() {
        daemon?.stop()
        daemon = nil
    }

    /// Runs mosquitto_sub on `topics` until `count` messages arrived or `seconds` passed; returns
    /// "topic payload" lines.
    func receive(_ topics: [String], count: Int, seconds: Int = 5, extra: [String] = []) throws -> [String] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.subscriber)
        p.arguments = ["-h", extra.contains("--cafile") ? "localhost" : "127.0.0.1", "-p", "\(port)", "-v", "-q", "1",
                       "-C", "\(count)", "-W", "\(seconds)"] + topics.flatMap { ["-t", $0] } + extra
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = try out.fileHandleForReading.readToEnd() ?? Data()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func freePort() -> Int { LoopbackListener.freePort() ?? 0 }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// Collects log lines from the publisher's thread.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Waits up to `seconds` for `condition`.
func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}
