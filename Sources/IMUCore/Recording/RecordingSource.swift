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
    /// vanish (1024 × 88 bytes, 90 kB).
    static let fastBatch = 1024
    /// Batches of a regular file read as fast as possible that wait before a consumer is woken
    /// (`PacedStream.make(gather:)`): the pedometer takes a batch in less time than the reader
    /// makes one, so it would otherwise wait, and be woken, for every batch (350 an hour at
    /// 100 Hz; a wake-up costs both threads a context switch). With 4, up to 8 batches wait and
    /// about 11 exist (`ReplayPlayer.reused`): 1 MB. A pipe or FIFO hands each batch over at
    /// once (its writer may be slow, and its reader would see samples late).
    static let fastGather = 4

    /// Opens the file and reads its header now, so a missing or malformed header fails before any output.
    public init(path: String, speed: Double = .infinity,
                report: @escaping @Sendable (String) -> Void = RecordingSource.reportOnStandardError) throws {
        let reader = try RecordingReader(path: path)
        self.path = path
        self.speed = speed
        self.report = report
        comments = reader.comments
        let label = reader.comments.first(where: { $0.hasPrefix("sensor:") }).map { " (\($0))" } ?? ""
        // `reader.name`: "standard input" for "-", as the reader's errors and the tools' notes call it.
        info = SourceInfo(name: "recording \(reader.name)\(label)", calibrationKey: "replay:\(path)",
                          capabilities: reader.capabilities)
        opened = ReaderHandOff(reader)
    }

    /// The samples the file's repeated times dropped (docs/CONTRACTS.md §2), as `nonIncreasingTime`:
    /// the JSON summary's `dropped_time_not_increasing` and imu-record's summary count them.
    public var losses: SampleLosses { counter.snapshot }

    /// The recording's own times, as its `clock:` line says (none invented where it has none).
    public var timing: SampleTiming? {
        .recording(clock: comments.first { $0.hasPrefix("clock:") }.map { String($0.dropFirst("clock:".count).drop { $0 == " " }) })
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let path = self.path, opened = self.opened, counter = self.counter, report = self.report
        // A thread of its own reads (and, paced, sleeps until each batch is due): file and pipe
        // reads block, so they never run on the Swift pool (`PacedStream`). As fast as possible,
        // the thread reads a bounded number of batches ahead of the consumer (`fastGather`), so
        // parsing and the pedometer overlap on two cores in constant memory. A second playback reopens
        // the file: fine for a regular file; a pipe is empty by then and says so ("missing
        // header line").
        let reader = opened.take()
        // A second playback reopens by path: a regular file (a pipe is empty by then, above).
        let gather = speed.isInfinite && reader?.isRegularFile ?? true ? Self.fastGather : 1
        let player = ReplayPlayer(speed: speed, open: { try reader ?? RecordingReader(path: path) }, report: { note, dropped in
            counter.add(nonIncreasingTime: dropped)
            report(note)
        })
        return PacedStream.make(source: info.name, gather: gather) { try player.next() }
    }

    /// Writes `note` and a newline to standard error (`StandardErrorLine`).
    public static let reportOnStandardError: @Sendable (String) -> Void = { note in StandardErrorLine.write(note + "\n") }
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

/// A recording read on `PacedStream`'s thread. Paced, in batches of `HandOver.seconds` of
/// recording time, each due when the wall clock has advanced by its last sample's time / `speed`;
/// as fast as possible (`speed` infinite), in batches of `RecordingSource.fastBatch` samples
/// through the reader's bulk path, due at once.
private final class ReplayPlayer {
    let open: () throws -> RecordingReader
    /// Receives the reader's end note and the samples it dropped.
    let report: @Sendable (String, Int) -> Void
    private var reader: RecordingReader?
    /// nil: as fast as possible.
    private var pace: PaceClock?
    /// The error that ended the file, thrown after the samples before it.
    private var failure: (any Error)?
    private var ended = false
    /// The last batches handed over as fast as possible, by `handedOver % reused.count`: when
    /// the slot comes round again the consumer has usually dropped its copy, and the batch's
    /// storage is refilled in place (`removeAll(keepingCapacity:)` keeps it when this is the only
    /// reference, else starts a new one). Without it each batch was fresh memory, freed on the
    /// consumer's thread: glibc gave the pages back and the next batch faulted them in again
    /// (about 7 % of a replay's CPU in page faults, `perf`). Slots: the most batches that can
    /// be out at once, queued (`2 × RecordingSource.fastGather`), with the consumer and being read.
    private var reused = [[MotionSample]](repeating: [], count: 2 * RecordingSource.fastGather + 3)
    private var handedOver = 0
    /// In real time: the first sample after a gap, kept for the next batch (`next`).
    private var afterGap: MotionSample?
    /// A pause in the recording that holds a paced replay this long (s of wall time) or longer is
    /// said, once: five hand-overs (`HandOver.seconds`) without a sample looks like a hang, and
    /// `imu-record -d` counts the recording's time, so it waits the pause out before it ends.
    static let saidPauseSeconds = 5.0
    private var pauseSaid = false

    init(speed: Double, open: @escaping () throws -> RecordingReader, report: @escaping @Sendable (String, Int) -> Void) {
        pace = speed.isInfinite ? nil : PaceClock(speed: speed)
        self.open = open
        self.report = report
    }

    func next() throws -> (batch: [MotionSample], dueNs: Int64?)? {
        if let failure { self.failure = nil; throw failure }
        if ended { return nil }
        let reader = try self.reader ?? open()
        self.reader = reader
        guard var pace else { return try fast(reader) }
        defer { self.pace = pace }
        var batch: [MotionSample] = afterGap.map { [$0] } ?? []
        afterGap = nil
        do {
            while let s = try reader.next() {
                // A pause in the recording ends the batch before it: the samples before a gap are
                // due at their own time. In one batch with the sample after it they waited for
                // that sample (a t that jumped 10⁷ s held two samples back for 115 days, and
                // imu-record wrote neither, even on Ctrl-C).
                if let last = batch.last, s.time - last.time >= HandOver.seconds {
                    afterGap = s
                    sayPause(from: last.time, to: s.time, speed: pace.speed, file: reader.name)
                    return (batch, pace.dueNs(first: batch[0].time, last: last.time))
                }
                batch.append(s)
                if s.time - batch[0].time >= HandOver.seconds { return (batch, pace.dueNs(first: batch[0].time, last: s.time)) }
            }
        } catch let error as RecordingError {
            guard let last = batch.last else { throw error }
            failure = error
            return (batch, pace.dueNs(first: batch[0].time, last: last.time))
        }
        end(reader)
        guard let last = batch.last else { return nil }
        return (batch, pace.dueNs(first: batch[0].time, last: last.time))
    }

    /// Up to `RecordingSource.fastBatch` samples, due at once; nil at the end.
    private func fast(_ reader: RecordingReader) throws -> (batch: [MotionSample], dueNs: Int64?)? {
        let slot = handedOver % reused.count
        var batch = reused[slot]
        reused[slot] = []
        batch.removeAll(keepingCapacity: true)
        batch.reserveCapacity(RecordingSource.fastBatch)
        defer {
            reused[slot] = batch
            handedOver += 1
        }
        do {
            try reader.read(into: &batch, maximum: RecordingSource.fastBatch)
        } catch {
            guard !batch.isEmpty else { throw error }
            failure = error
            return (batch, nil)
        }
        guard !batch.isEmpty else {
            end(reader)
            return nil
        }
        return (batch, nil)
    }

    /// The first pause that holds the replay `saidPauseSeconds` or longer, in words, with the way
    /// to shorten it.
    private func sayPause(from: Double, to: Double, speed: Double, file: String) {
        let wait = (to - from) / speed
        guard !pauseSaid, wait >= Self.saidPauseSeconds else { return }
        pauseSaid = true
        // Said in the unit it holds two or more of (2 min, 2 h, 2 days), so "90 s", not "2 min".
        let words = wait < 120 ? String(cFormat: "%.0f s", wait) : wait < 7200 ? String(cFormat: "%.0f min", wait / 60)
            : wait < 172_800 ? String(cFormat: "%.1f h", wait / 3600) : String(cFormat: "%.0f days", wait / 86_400)
        report("\(file.escapedOnOneLine): t jumps from \(String(cFormat: "%.3f", from)) s to \(String(cFormat: "%.3f", to)) s, a pause in the recording: "
               + "played at its pace\(speed == 1 ? "" : " × " + speed.asWritten), nothing comes for \(words) (said once); "
               + "a higher --speed shortens it, and a replay without --realtime or --speed reads the file at once", 0)
    }

    /// The file was read to its end: the reader's note, once.
    private func end(_ reader: RecordingReader) {
        ended = true
        if let note = reader.endNote { report(note, reader.repeatedTimes) }
    }
}
