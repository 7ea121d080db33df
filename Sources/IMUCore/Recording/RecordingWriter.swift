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
    /// The name written under until the file is renamed to `path`; nil once renamed (or for stdout).
    private var temporaryPath: String?
    /// Bytes in the file: every one of them belongs to a whole line.
    private var bytesInFile: Int64 = 0
    /// Samples (rows after the header) that reached the file or pipe whole.
    public private(set) var rowsWritten = 0
    /// Pressure and temperature readings left empty because they lie outside `RecordingLimits`:
    /// a barometer's read glitch (a register read mid-update), which the reader would refuse and
    /// with it the whole rest of the file. Motion and speed cannot: the drivers' 16-bit registers
    /// times their scale stay within the limits, and gpsd's speed is checked on arrival.
    public private(set) var blankedReadings = 0
    /// Samples in `pending`.
    private var pendingRows = 0
    /// Whether the column line is in `pending` or the file: after it only rows may come.
    private var headerEnded = false

    /// Creates `path` ("-" for standard output) and writes the comments and header.
    ///
    /// A regular file is written under a temporary name in the same directory and renamed into
    /// place at the first `sync()` (about a second in) or at `close()`, so a recording that fails
    /// at once never wipes what was at `path` (with `--force`), and a reader never sees a file
    /// without its header. Devices, FIFOs and symbolic links are written in place.
    ///
    /// `comments` are written at once, so an unwritable file, a full disk or a closed pipe fails
    /// here. With `headerEndsLater` the column line waits for `endHeader(comments:)`, which adds
    /// comments known only once samples come (how they were timed, `SampleTiming`); the first
    /// `write`, `sync` or `close` ends the header without them when the caller did not.
    public init(path: String, columns: [RecordingColumn], comments: [String] = [], headerEndsLater: Bool = false) throws {
        precondition(columns.first == .t, "the first column is the time")
        self.path = path
        self.columns = columns
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
            temporaryPath = nil
        } else if Self.existsAsOtherThanRegularFile(path) {
            // A device, FIFO or symbolic link is written in place: renaming over it would
            // replace the node itself (/dev/full, /dev/stdout, a link to elsewhere).
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw RecordingError.access(path, errno: errno, creating: true)
            }
            fd = opened
            ownsDescriptor = true
            temporaryPath = nil
        } else {
            let (opened, temporary) = try Self.createTemporary(beside: path)
            fd = opened
            ownsDescriptor = true
            temporaryPath = temporary
        }
        pending.reserveCapacity(Self.flushThreshold * 2)
        appendComments(comments)
        if !headerEndsLater { endHeader() }
        do { try flush() } catch {
            discard()
            throw error
        }
    }

    /// Ends the header: `comments`, then the column line. Only the first call writes; it goes out
    /// with the next `flush()`.
    public func endHeader(comments: [String] = []) {
        guard !headerEnded else { return }
        headerEnded = true
        appendComments(comments)
        pending.append(contentsOf: (columns.map(\.rawValue).joined(separator: ",") + "\n").utf8)
    }

    private func appendComments(_ comments: [String]) {
        for c in comments {
            for line in c.split(separator: "\n", omittingEmptySubsequences: false) {
                pending.append(contentsOf: "# \(line)\n".utf8)
            }
        }
    }

    private static func existsAsOtherThanRegularFile(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) != S_IFREG
    }

    /// Opens a new file `.NAME.imukit-PID-N` beside `path` (O_EXCL: never an existing one).
    private static func createTemporary(beside path: String) throws -> (Int32, String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var attempt = 0
        while true {
            let temporary = "\(directory).\(base).imukit-\(getpid())-\(attempt)"
            let opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if opened >= 0 { return (opened, temporary) }
            if errno == EEXIST && attempt < 100 { attempt += 1; continue }
            throw RecordingError.access(path, errno: errno, creating: true)
        }
    }

    /// Gives up a file that was never renamed into place: closes and removes it.
    public func discard() {
        guard !closed else { return }
        closed = true
        if ownsDescriptor { _ = Glibc.close(fd) }
        if let temporaryPath { unlink(temporaryPath) }
    }

    deinit { try? close() }

    /// Appends one sample. Sensors the sample lacks leave their fields empty.
    public func write(_ s: MotionSample) throws {
        if !headerEnded { endHeader() }
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
            case .p: value = plausible(s.pressure, within: RecordingLimits.pressure)
            case .temp: value = plausible(s.temperature, within: RecordingLimits.temperature)
            case .gnssSpeed: value = s.gnssSpeed
            }
            if let value { Self.appendFixed(value, decimals: column.decimals, to: &pending) }
        }
        pending.append(UInt8(ascii: "\n"))
        pendingRows += 1
        if pending.count >= Self.flushThreshold { try flush() }
    }

    /// `value`, or nil (an empty field, counted) when it lies outside `range` or is not a number.
    private func plausible(_ value: Double?, within range: ClosedRange<Double>) -> Double? {
        guard let value else { return nil }
        if range.contains(value) { return value }
        blankedReadings += 1
        return nil
    }

    /// Writes buffered rows to the file (no fsync). When a write fails part-way (disk full, file
    /// size limit), the file is cut back to its last whole line, so it always parses, and the rows
    /// not written are dropped from the buffer.
    public func flush() throws {
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                var error = RecordingError(file: path, line: 0, message: "write failed: \(String(cString: strerror(errno)))")
                error.writeErrorNumber = errno
                cutBackToWholeLine(written: offset)
                throw error
            }
            offset += n
        }
        bytesInFile += Int64(offset)
        rowsWritten += pendingRows
        pendingRows = 0
        pending.removeAll(keepingCapacity: true)
    }

    /// After `written` bytes of `pending` reached the file: truncates to the last newline among them.
    private func cutBackToWholeLine(written: Int) {
        var keep = written
        while keep > 0 && pending[keep - 1] != UInt8(ascii: "\n") { keep -= 1 }
        // The whole lines kept are the last rows of `pending` (comments and header come first).
        rowsWritten += min(pendingRows, pending[..<keep].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        pendingRows = 0
        pending.removeAll(keepingCapacity: true)
        guard ownsDescriptor else { bytesInFile += Int64(written); return }   // a pipe cannot be cut
        if keep < written { _ = ftruncate(fd, off_t(bytesInFile + Int64(keep))) }
        bytesInFile += Int64(keep)
        _ = lseek(fd, off_t(bytesInFile), SEEK_SET)
    }

    /// Flushes and fsyncs, so the data survives a crash or power loss; the first time, also
    /// renames the file into place (and fsyncs its directory, so the rename survives too).
    public func sync() throws {
        endHeader()
        try flush()
        // EINVAL/EROFS: a FIFO or a device (/dev/null) that has nothing to synchronise (fsync(2));
        // `imu-record -o FIFO` failed there after every sample had gone through.
        if ownsDescriptor && fsync(fd) != 0 && errno != EINVAL && errno != EROFS {
            var error = RecordingError(file: path, line: 0, message: "fsync failed: \(String(cString: strerror(errno)))")
            error.writeErrorNumber = errno
            throw error
        }
        try publish()
    }

    private func publish() throws {
        guard let temporary = temporaryPath else { return }
        guard rename(temporary, path) == 0 else {
            throw RecordingError(file: path, line: 0, message: "cannot rename \(temporary) into place: \(String(cString: strerror(errno)))")
        }
        temporaryPath = nil
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? "."
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); _ = Glibc.close(dfd) }
    }

    /// Syncs and closes; safe to call twice. What was written before a failed write stays
    /// (whole lines only) and is renamed into place.
    public func close() throws {
        guard !closed else { return }
        closed = true
        defer { if ownsDescriptor { _ = Glibc.close(fd) } }
        do { try sync() } catch {
            try? publish()
            throw error
        }
    }

    /// Appends `value` with exactly `decimals` places, in C-locale form ("-0.01230").
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        // Below Int64.max (9.22 × 10¹⁸) with margin: the digits loop runs on a UInt64; a larger
        // value is written as Swift prints it.
        guard value.isFinite, scaled < 9.0e18 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var n = UInt64(scaled)
        if value < 0 && n != 0 { out.append(UInt8(ascii: "-")) }
        // Digits from the last, appended to `out` and then turned around in place.
        let first = out.count
        var written = 0
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(n % 10))
            n /= 10
            written += 1
            if written == decimals { out.append(UInt8(ascii: ".")) }
        } while n > 0 || written <= decimals
        out[first...].reverse()
    }
}
