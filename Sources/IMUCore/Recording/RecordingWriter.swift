#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a recording (docs/CONTRACTS.md §2). Formatting is locale-independent and done by hand
/// (no printf), so a 1 kHz source costs microseconds per line.
///
/// Rows are buffered in memory and written by `flush()`; `sync()` also fsyncs, which is what
/// `imu-record` does about once a second so that a SIGKILL loses at most that second.
public final class RecordingWriter {
    public let path: String
    public let columns: [RecordingColumn]
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var pending: [UInt8] = []
    /// Bytes buffered before an automatic flush (64 KiB keeps write(2) calls rare).
    private static let flushThreshold = 1 << 16
    private var closed = false

    /// Creates (or truncates) `path` ("-" for standard output) and writes the comments and header.
    public init(path: String, columns: [RecordingColumn], comments: [String] = []) throws {
        precondition(columns.first == .t, "the first column is the time")
        self.path = path
        self.columns = columns
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw RecordingError(file: path, line: 0, message: "cannot create recording: \(String(cString: strerror(errno)))")
            }
            fd = opened
            ownsDescriptor = true
        }
        pending.reserveCapacity(Self.flushThreshold * 2)
        for c in comments {
            for line in c.split(separator: "\n", omittingEmptySubsequences: false) {
                pending.append(contentsOf: "# \(line)\n".utf8)
            }
        }
        pending.append(contentsOf: (columns.map(\.rawValue).joined(separator: ",") + "\n").utf8)
        try flush()
    }

    deinit { try? close() }

    /// Appends one sample. Sensors the sample lacks leave their fields empty.
    public func write(_ s: MotionSample) throws {
        for (i, column) in columns.enumerated() {
            if i > 0 { pending.append(UInt8(ascii: ",")) }
            let value: Double?
            switch column {
            case .t: value = s.time
            case .ax: value = s.acceleration?.x
            case .ay: value = s.acceleration?.y
            case .az: value = s.acceleration?.z
            case .gx: value = s.rotationRate?.x
            case .gy: value = s.rotationRate?.y
            case .gz: value = s.rotationRate?.z
            case .p: value = s.pressure
            case .temp: value = s.temperature
            case .gnssSpeed: value = s.gnssSpeed
            }
            if let value { Self.appendFixed(value, decimals: column.decimals, to: &pending) }
        }
        pending.append(UInt8(ascii: "\n"))
        if pending.count >= Self.flushThreshold { try flush() }
    }

    /// Writes buffered rows to the file (no fsync).
    public func flush() throws {
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RecordingError(file: path, line: 0, message: "write failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes and fsyncs, so the data survives a crash or power loss.
    public func sync() throws {
        try flush()
        if ownsDescriptor && fsync(fd) != 0 {
            throw RecordingError(file: path, line: 0, message: "fsync failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Syncs and closes. Safe to call twice.
    public func close() throws {
        guard !closed else { return }
        closed = true
        defer { if ownsDescriptor { _ = Glibc.close(fd) } }
        try sync()
    }

    /// Appends `value` with exactly `decimals` places, in C-locale form ("-0.01230").
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard value.isFinite, scaled < 9.0e18 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var n = UInt64(scaled)
        if value < 0 && n != 0 { out.append(UInt8(ascii: "-")) }
        var digits: [UInt8] = []
        var written = 0
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(n % 10))
            n /= 10
            written += 1
            if written == decimals { digits.append(UInt8(ascii: ".")) }
        } while n > 0 || written <= decimals
        out.append(contentsOf: digits.reversed())
    }
}
