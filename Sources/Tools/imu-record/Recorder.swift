#if canImport(Glibc)
import Glibc
#endif
import IMUCLI
import IMULocation

/// The recording loop: every sample of every batch is written as it arrives, on the consuming
/// task itself (nothing queued behind a slow consumer, so nothing to drop), each batch flushed
/// to the file, and the file fsynced about once a second, so a SIGKILL loses at most that second
/// and leaves only whole lines behind.
struct Recorder {
    var path: String
    var comments: [String]
    /// Stop after this many seconds of sample time; nil = until stopped.
    var duration: Double?
    var progress: RecordProgress
    /// Ground speed from gpsd for the `gnss_speed` column, or nil (docs/gps.md).
    var gps: GPSSpeedFeed?

    /// Seconds between fsyncs (the "about once a second").
    static let syncInterval = 1.0

    struct Summary {
        var gaps: GapDetector
        var path: String
    }

    func run(_ source: any SampleSource) async throws -> Summary {
        let writer: RecordingWriter
        do {
            var capabilities = source.info.capabilities
            if gps != nil { capabilities.gnssSpeed = true }
            writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: capabilities),
                                         comments: comments)
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
        do {
            recording: for try await received in source.batches() {
                do {
                    var batch = received
                    speedColumn?.fill(&batch)
                    for sample in batch {
                        if let duration, let first = gaps.first, sample.time - first >= duration { break recording }
                        try writer.write(sample)
                        if sample.gnssSpeed != nil { speedRows += 1 }
                        if let gap = gaps.add(sample.time) { progress.report(gap) }
                    }
                    try writer.flush()
                    let now = BootClock.nowSeconds()
                    if now - lastSync >= Self.syncInterval {
                        try writer.sync()
                        lastSync = now
                    }
                } catch let error as RecordingError {
                    throw RecordWriteError(underlying: error, rowsWritten: writer.rowsWritten)
                }
                progress.update(gaps, losses: source.losses)
            }
        } catch let error as RecordWriteError {
            try? writer.close()
            progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, written: error.rowsWritten, blanked: writer.blankedReadings)
            throw error
        } catch {
            // The source failed (a sensor lost, a malformed line in a replayed file): keep what
            // was recorded and say how much, then report the error with its own exit status.
            // With nothing recorded, a file that was at --out (with --force) stays as it was.
            if gaps.count == 0 { writer.discard() } else { try? writer.close() }
            progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, blanked: writer.blankedReadings)
            throw error
        }
        // A replayed file with a header and no sample was "recorded 0 samples", exit 0, leaving
        // a recording of nothing at --out: a bad file, said as imu-steps and imu-plot say it.
        if gaps.count == 0, !Task.isCancelled, let replayed = source as? RecordingSource {
            writer.discard()
            throw EmptyRecording(path: replayed.path, purpose: "record")
        }
        // Cancelled (Ctrl-C, SIGTERM), duration reached or source finished: everything is written.
        do { try writer.close() } catch let error as RecordingError {
            throw RecordWriteError(underlying: error, rowsWritten: writer.rowsWritten)
        }
        progress.finish(gaps, path: path, losses: source.losses, gnssRows: gnss ? speedRows : nil, blanked: writer.blankedReadings)
        return Summary(gaps: gaps, path: path)
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
        if underlying.file == "-" {
            return "standard output: \(underlying.message); everything before this point was written, in whole lines"
        }
        if toStreamSink {
            return underlying.description + "; \(underlying.file.escapedForTerminal) is a device or pipe, not a file on disk: \(rowsWritten) samples went to it before this point, in whole lines"
        }
        return underlying.description + "; everything before this point is on disk, in whole lines"
    }
    var exitStatus: ExitStatus { .runtimeFailure }
    var fix: String? {
        if let readerGone { return readerGone.fix }
        return toStreamSink ? "record to a file (--out FILE)" : "free space on the disk or record to another one (--out)"
    }
}
