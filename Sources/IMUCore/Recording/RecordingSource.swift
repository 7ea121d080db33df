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
    /// Samples dropped for a repeated `t`, counted once the file has been read (`losses`).
    private let counter = LossCounter()
    /// Samples per batch when reading as fast as possible: large enough that per-batch costs
    /// vanish (1024 × 160 bytes); at most three batches exist at a time (`ReadAhead`).
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

    /// The samples the file's repeated times dropped (docs/CONTRACTS.md §2), as `nonIncreasingTime`:
    /// the JSON summary's `dropped_time_not_increasing` and imu-record's summary count them.
    public var losses: SampleLosses { counter.snapshot }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let path = self.path, speed = self.speed, report = self.report, opened = self.opened, counter = self.counter
        if speed.isInfinite {
            // As fast as the consumer takes them, one batch read ahead (`ReadAhead`): the stream
            // asks for each batch, so memory stays constant however slow the consumer is.
            let ahead = ReadAhead(path: path, opened: opened)
            return AsyncThrowingStream(unfolding: {
                if let batch = try await ahead.next() { return batch }
                counter.add(nonIncreasingTime: ahead.repeatedTimes)
                if !Task.isCancelled, let note = ahead.endNote { report(note) }
                return nil
            })
        }
        // Paced: a thread of its own reads and sleeps until each batch is due (`PacedStream`).
        // A second playback reopens the file: fine for a regular file; a pipe is empty by then
        // and says so ("missing header line").
        let player = PacedReplay(speed: speed, open: { try opened.take() ?? RecordingReader(path: path) }, report: { note, dropped in
            counter.add(nonIncreasingTime: dropped)
            report(note)
        })
        return PacedStream.make(source: info.name) { try player.next() }
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

/// Reads a recording for `RecordingSource`'s fast playback, batch by batch on demand: while the
/// consumer works on one batch, the next is read on another task, so parsing and the pedometer
/// overlap on two cores. Nothing more is read ahead, so at most three batches exist at a time
/// (the one read ahead, the consumer's, and the one it just dropped): constant memory for any
/// file length and consumer speed, and malloc reuses the same few blocks (no fresh pages).
private final class ReadAhead: Sendable {
    /// A batch, and the error that ended it early (its samples come first).
    private struct Chunk: Sendable {
        var samples: [MotionSample]
        var error: (any Error)?
    }

    private let path: String
    private let opened: ReaderHandOff
    /// Opened on the first read: the reader `RecordingSource.init` opened, or the file again.
    private let reader = Mutex<RecordingReader?>(nil)
    /// The read in flight for the next batch.
    private let pending = Mutex<Task<Chunk, Never>?>(nil)
    /// An error to throw once the samples before it have been handed over.
    private let failure = Mutex<(any Error)?>(nil)

    init(path: String, opened: ReaderHandOff) {
        self.path = path
        self.opened = opened
    }

    /// The reader's note at the end of the file (repeated times), if any.
    var endNote: String? { reader.withLock { $0?.endNote } }
    /// Samples the reader dropped for a repeated time so far.
    var repeatedTimes: Int { reader.withLock { $0?.repeatedTimes ?? 0 } }

    /// The next batch, nil at the end of the file.
    func next() async throws -> [MotionSample]? {
        if let error = failure.withLock({ $0.take() }) { throw error }
        if Task.isCancelled { return nil }
        let read = pending.withLock { $0.take() } ?? Task { self.read() }
        let chunk = await read.value
        if let error = chunk.error {
            if chunk.samples.isEmpty { throw error }
            failure.withLock { $0 = error }
        } else if !chunk.samples.isEmpty {
            pending.withLock { $0 = Task { self.read() } }
        }
        return chunk.samples.isEmpty ? nil : chunk.samples
    }

    private func read() -> Chunk {
        reader.withLock { reader -> Chunk in
            var batch: [MotionSample] = []
            do {
                let source = try reader ?? opened.take() ?? RecordingReader(path: path)
                reader = source
                batch.reserveCapacity(RecordingSource.fastBatch)
                try source.read(into: &batch, maximum: RecordingSource.fastBatch)
                return Chunk(samples: batch, error: nil)
            } catch {
                return Chunk(samples: batch, error: error)
            }
        }
    }
}

/// A recording read on `PacedStream`'s thread, in batches of `HandOver.seconds` of recording
/// time, each due when the wall clock has advanced by its last sample's time / `speed`.
private final class PacedReplay {
    let open: () throws -> RecordingReader
    /// Receives the reader's end note and the samples it dropped.
    let report: @Sendable (String, Int) -> Void
    private var reader: RecordingReader?
    private var pace: PaceClock
    /// The error that ended the file, thrown after the samples before it.
    private var failure: (any Error)?
    private var ended = false

    init(speed: Double, open: @escaping () throws -> RecordingReader, report: @escaping @Sendable (String, Int) -> Void) {
        pace = PaceClock(speed: speed)
        self.open = open
        self.report = report
    }

    func next() throws -> (batch: [MotionSample], dueNs: Int64?)? {
        if let failure { self.failure = nil; throw failure }
        if ended { return nil }
        let reader = try self.reader ?? open()
        self.reader = reader
        var batch: [MotionSample] = []
        do {
            while let s = try reader.next() {
                batch.append(s)
                if s.time - batch[0].time >= HandOver.seconds { return (batch, pace.dueNs(first: batch[0].time, last: s.time)) }
            }
        } catch let error as RecordingError {
            guard let last = batch.last else { throw error }
            failure = error
            return (batch, pace.dueNs(first: batch[0].time, last: last.time))
        }
        ended = true
        if let note = reader.endNote { report(note, reader.repeatedTimes) }
        guard let last = batch.last else { return nil }
        return (batch, pace.dueNs(first: batch[0].time, last: last.time))
    }
}
