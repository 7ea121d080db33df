#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import IMUCLI
import IMULocation
import Synchronization

/// The recording loop: every sample of every batch is written as it arrives (nothing queued
/// behind a slow disk, so nothing to drop), each batch flushed to the file, and the file fsynced
/// about once a second, so a SIGKILL loses at most that second and leaves only whole lines behind.
/// The file's calls block (an fsync takes tens of ms on an SD card; `--out -` waits for its
/// reader): they run on the file's own serial queue (`RecordingFile`) while the consuming task is
/// suspended, never on the Swift concurrency pool (docs/concurrency.md).
///
/// The file is created and the comments known at the start are written before the capture
/// starts, so a file that cannot be written, a full disk or a closed pipe is reported before any
/// sample is taken. The `clock:` line and the column line follow with the first batch: how the
/// samples are timed (`SampleTiming`) is settled only as the capture starts.
struct Recorder {
    var path: String
    var comments: [String]
    /// Stop after this many seconds of sample time; nil = until stopped.
    var duration: Double?
    var progress: RecordProgress
    /// Ground speed from gpsd for the `gnss_speed` column, or nil (docs/gps.md).
    var gps: GPSSpeedFeed?

    /// Seconds between fsyncs (the issue's "about once a second").
    static let syncInterval = 1.0

    struct Summary {
        var gaps: GapDetector
        var path: String
    }

    func run(_ source: any SampleSource) async throws -> Summary {
        let file: RecordingFile
        do {
            var capabilities = source.info.capabilities
            if gps != nil { capabilities.gnssSpeed = true }
            let path = self.path, columns = RecordingColumn.columns(for: capabilities), comments = self.comments
            file = try await RecordingFile.create(path: path, columns: columns, comments: comments)
        } catch let error as RecordingError where error.errorNumber == 0 {   // not an open(2) failure
            throw RecordWriteError(underlying: error)   // created, but the header could not be written
        }
        var gaps = GapDetector()
        // Rows with a ground speed, for the summary, when the file has the column.
        var speedRows = 0
        let gnss = gps != nil || source.info.capabilities.gnssSpeed
        var lastSync = BootClock.nowSeconds()
        // gpsd's readings, each from its own time on while fresh; empty without one.
        var speedColumn = gps.map(GroundSpeedColumn.init)
        // The header's end, once: the clock line as the source has it by its first batch.
        var headerEnd: [String]? = nil
        func endOfHeader() -> [String] {
            if let headerEnd { return headerEnd }
            let lines = (source.timing?.clockLine).map { ["clock: " + OriginHeader.plain($0)] } ?? []
            headerEnd = lines
            return lines
        }
        do {
            recording: for try await received in source.batches() {
                var batch = received
                speedColumn?.fill(&batch)
                // Samples from --duration on are not written, and end the recording.
                let first = gaps.first ?? batch.first?.time
                let kept = duration.flatMap { d in first.map { f in Array(batch.prefix { $0.time - f < d }) } } ?? batch
                let now = BootClock.nowSeconds()
                let sync = now - lastSync >= Self.syncInterval
                let written = await file.write(kept, sync: sync, endingHeader: endOfHeader())
                for sample in kept.prefix(written.accepted) {
                    if sample.gnssSpeed != nil { speedRows += 1 }
                    if let gap = gaps.add(sample.time) { progress.report(gap) }
                }
                if let failure = written.failure as? RecordingError { throw RecordWriteError(underlying: failure, rowsWritten: file.rowsWritten) }
                if let failure = written.failure { throw failure }
                if sync { lastSync = now }
                if kept.count < batch.count { break recording }
                progress.update(gaps, losses: source.losses)
            }
        } catch let error as RecordWriteError {
            try? await file.close(endingHeader: endOfHeader())
            progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, written: error.rowsWritten, blanked: file.blankedReadings)
            throw error
        } catch {
            // The source failed (a sensor lost, a malformed line in a replayed file): keep what
            // was recorded and say how much, then report the error with its own exit status.
            // With nothing recorded, a file that was at --out (with --force) stays as it was.
            if gaps.count == 0 { await file.discard() } else { try? await file.close(endingHeader: endOfHeader()) }
            progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, blanked: file.blankedReadings)
            throw error
        }
        // A replayed file with a header and no sample was "recorded 0 samples", exit 0, leaving
        // a recording of nothing at --out: a bad file, said as imu-steps and imu-plot say it.
        if gaps.count == 0, !Task.isCancelled, let replayed = source as? RecordingSource {
            await file.discard()
            throw EmptyRecording(path: replayed.path, purpose: "record")
        }
        // Cancelled (Ctrl-C, SIGTERM), duration reached or source finished: everything is written.
        do { try await file.close(endingHeader: endOfHeader()) } catch let error as RecordingError {
            throw RecordWriteError(underlying: error, rowsWritten: file.rowsWritten)
        }
        progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, blanked: file.blankedReadings)
        return Summary(gaps: gaps, path: path)
    }
}

/// The recording's writer on a serial dispatch queue of its own, as `HistoryWriter` keeps its
/// SQLite store: the queue's thread is not one of the Swift concurrency pool's (Dispatch gives a
/// serial queue a thread of its own; its global queues are the pool), so its writes, fsyncs and
/// a pipe that waits for its reader never hold the pool, and a batch costs no thread start
/// (docs/concurrency.md). Every call is awaited before the next, so the lock around the writer is
/// never contended: it makes the hand-over between threads one the compiler checks.
final class RecordingFile: Sendable {
    private let queue: DispatchQueue
    private let writer: Mutex<RecordingWriter>

    private init(_ writer: sending RecordingWriter, queue: DispatchQueue) {
        self.writer = Mutex(writer)
        self.queue = queue
    }

    /// Creates the file and writes `comments` (`RecordingWriter.init`), on the queue; the header
    /// ends with the first `write` or the `close`.
    static func create(path: String, columns: [RecordingColumn], comments: [String]) async throws -> RecordingFile {
        let queue = DispatchQueue(label: "imukit.record.file")
        return try await run(on: queue) {
            Result { RecordingFile(try RecordingWriter(path: path, columns: columns, comments: comments, headerEndsLater: true), queue: queue) }
        }.get()
    }

    /// Writes `batch`, flushes it, and fsyncs when `sync`: how many samples the writer took, and
    /// the error that stopped it (a sample it refused, or a failed flush or fsync). The first
    /// call ends the header with `endingHeader` (`RecordingWriter.endHeader`).
    func write(_ batch: [MotionSample], sync: Bool, endingHeader: [String]) async -> (accepted: Int, failure: (any Error)?) {
        await Self.run(on: queue) { [self] in
            writer.withLock { w -> (accepted: Int, failure: (any Error)?) in
                var accepted = 0
                w.endHeader(comments: endingHeader)
                do {
                    for sample in batch {
                        try w.write(sample)
                        accepted += 1
                    }
                    try w.flush()
                    if sync { try w.sync() }
                    return (accepted, nil)
                } catch {
                    return (accepted, error)
                }
            }
        }
    }

    /// Ends the header with `endingHeader` when no batch did, then closes (`RecordingWriter.close`).
    func close(endingHeader: [String]) async throws {
        try await Self.run(on: queue) { [self] in
            Result { try writer.withLock { $0.endHeader(comments: endingHeader); try $0.close() } }
        }.get()
    }

    func discard() async {
        await Self.run(on: queue) { [self] in writer.withLock { $0.discard() } }
    }

    var rowsWritten: Int { writer.withLock { $0.rowsWritten } }
    var blankedReadings: Int { writer.withLock { $0.blankedReadings } }

    /// Runs `body` on `queue`; the calling task is suspended meanwhile.
    private static func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in queue.async { c.resume(returning: body()) } }
    }
}

/// Writing the recording failed mid-way (disk full, medium removed, the reader of `--out -`
/// gone): an I/O error, exit 1 (docs/CONTRACTS.md §4), not a bad file given by the user.
struct RecordWriteError: DiagnosableError {
    var underlying: RecordingError
    /// Samples that reached the file or pipe, in whole lines.
    var rowsWritten = 0
    /// `--out -` and the program reading it ended (`| head`): said as `ReaderGone` says it.
    private var readerGone: ReaderGone? {
        guard underlying.file == "-", underlying.writeErrorNumber == EPIPE else { return nil }
        return ReaderGone(written: rowsWritten, unit: "samples", keepAll: "record to a file (--out FILE)")
    }
    /// `--out` names a FIFO, /dev/null or /dev/full: what went there is on no disk, and no free
    /// space would help (/dev/full is full by design).
    private var toStreamSink: Bool { underlying.file != "-" && OutputGuard.isStreamSink(underlying.file) }
    var description: String {
        if let readerGone { return readerGone.description }
        // The count, not "everything before this point": when the header could not be written
        // (`> /dev/full`), nothing was, and the words must not suggest a partial recording.
        let kept = rowsWritten == 0 ? "no sample was written" : "\(counted(rowsWritten, "sample")) went before it, in whole lines"
        if underlying.file == "-" {
            return "standard output: \(underlying.message); \(kept)"
        }
        if toStreamSink {
            return underlying.description + "; \(underlying.file.escapedForTerminal) is a device or pipe, not a file on disk: \(rowsWritten) samples went to it before this point, in whole lines"
        }
        return underlying.description + (rowsWritten == 0 ? "; no sample was written" : "; \(counted(rowsWritten, "sample")) before this point are on disk, in whole lines")
    }
    var exitStatus: ExitStatus { .runtimeFailure }
    var fix: String? {
        if let readerGone { return readerGone.fix }
        if toStreamSink { return "record to a file (--out FILE)" }
        guard underlying.file == "-" else { return "free space on the disk or record to another one (--out)" }
        // "Free space" only where space is what is missing: `-o - >&-` is a closed descriptor.
        switch underlying.writeErrorNumber {
        case ENOSPC, EDQUOT, EFBIG:
            // `-o - > /dev/full` was told to free space on a disk it never reached.
            if let device = OutputGuard.standardOutputDevice() { return OutputGuard.fullDeviceFix(device, alternative: "record to a file (--out FILE)") }
            return "free space on the disk standard output goes to, or record to a file on another one (--out FILE)"
        case EBADF: return "run it with standard output open (no >&-), or record to a file (--out FILE)"
        default: return "record to a file (--out FILE)"
        }
    }
}
