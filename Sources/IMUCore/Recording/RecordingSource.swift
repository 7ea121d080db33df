#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A recording played back as a sample source: as fast as possible (for `--replay FILE`), or paced
/// in real time by its own timestamps (`--replay FILE --realtime`), so the live view can be shown on it.
///
/// The file is opened once: the reader that read the header in `init` is the one `batches()`
/// continues with, so pipes, FIFOs, `/dev/stdin` and `-` work (they can be read only once).
public struct RecordingSource: SampleSource {
    public let path: String
    /// Playback speed: `.infinity` = as fast as possible; 1 = real time.
    public let speed: Double
    public let info: SourceInfo
    /// The recording's `#` comment lines (without the `#`), in file order.
    public let comments: [String]
    /// Receives the reader's note when the file has been read to its end (samples dropped for a
    /// repeated `t`, docs/CONTRACTS.md §2). By default it goes to standard error.
    public let report: @Sendable (String) -> Void
    /// The reader opened by `init`, handed to the first `batches()`.
    private let opened: ReaderHandOff
    /// Samples per batch when reading as fast as possible: large enough that per-batch costs
    /// vanish, small enough (1024 × 144 bytes) that malloc reuses the memory of the batch before
    /// instead of mapping fresh pages for each (page faults were 5 % of a replay at 4096).
    static let fastBatch = 1024

    /// Opens the file and reads its header now, so a missing or malformed header fails before any output.
    public init(path: String, speed: Double = .infinity,
                report: @escaping @Sendable (String) -> Void = RecordingSource.reportOnStandardError) throws {
        let reader = try RecordingReader(path: path)
        self.path = path
        self.speed = speed
        self.report = report
        comments = reader.comments
        let label = reader.comments.first(where: { $0.hasPrefix("sensor:") }).map { " (\($0))" } ?? ""
        info = SourceInfo(name: "recording \(path)\(label)", calibrationKey: "replay:\(path)",
                          capabilities: reader.capabilities)
        opened = ReaderHandOff(reader)
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let path = self.path, speed = self.speed, report = self.report, opened = self.opened
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    // A second playback reopens the file: fine for a regular file; a pipe is
                    // empty by then and says so ("missing header line").
                    let reader = try opened.take() ?? RecordingReader(path: path)
                    if speed.isInfinite {
                        try Self.fast(reader, continuation)
                    } else {
                        try await Self.pace(reader, speed: speed, continuation)
                    }
                    if !Task.isCancelled, let note = reader.endNote { report(note) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Yields large batches as fast as the consumer takes them. The samples read before a
    /// malformed line are yielded before its error, so a tool can keep them.
    private static func fast(_ reader: RecordingReader,
                             _ continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation) throws {
        while !Task.isCancelled {
            var batch: [MotionSample] = []
            batch.reserveCapacity(Self.fastBatch)
            do {
                guard try reader.read(into: &batch, maximum: Self.fastBatch) > 0 else { return }
            } catch {
                if !batch.isEmpty { continuation.yield(batch) }
                throw error
            }
            continuation.yield(batch)
        }
    }

    /// Longest single sleep, s: a gap of years in a recording's clock must not overflow the
    /// nanosecond count (UInt64 holds 584 years); the loop sleeps again if the gap is longer.
    static let longestSleep = 3600.0

    /// Yields samples in half-second (recording time) batches, sleeping so that recording time advances
    /// at `speed` × wall time.
    private static func pace(_ reader: RecordingReader, speed: Double,
                             _ continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation) async throws {
        let batchSeconds = 0.5   // two hand-overs a second, the cadence of the live sources (issue 11: <= 10 wake-ups/s)
        let wallStart = BootClock.nowSeconds()
        var firstTime: Double?
        var batch: [MotionSample] = []
        do {
            while let s = try reader.next() {
                if Task.isCancelled { return }
                let t0 = firstTime ?? s.time
                firstTime = t0
                batch.append(s)
                if s.time - batch[0].time >= batchSeconds {
                    let due = wallStart + (s.time - t0) / speed
                    var wait = due - BootClock.nowSeconds()
                    while wait > 0 {
                        try await Task.sleep(nanoseconds: UInt64(min(wait, longestSleep) * 1e9))
                        wait = due - BootClock.nowSeconds()
                    }
                    continuation.yield(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch let error as RecordingError {
            if !batch.isEmpty { continuation.yield(batch) }
            throw error
        }
        if !batch.isEmpty { continuation.yield(batch) }
    }

    /// Writes `note` and a newline to standard error.
    public static let reportOnStandardError: @Sendable (String) -> Void = { note in
        let bytes = Array((note + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(STDERR_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

/// Hands the reader opened by `RecordingSource.init` to the task that plays it, once.
private final class ReaderHandOff: Sendable {
    private let slot: Mutex<RecordingReader?>
    init(_ reader: consuming sending RecordingReader) { slot = Mutex(reader) }
    func take() -> sending RecordingReader? {
        slot.withLock { value -> sending RecordingReader? in
            let reader = value.take()
            return reader
        }
    }
}
