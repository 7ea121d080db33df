import IMUCLI
import IMUSensors

/// Reads N samples from a source, giving up with a clear error when none arrive in time.
struct SampleReader: Sendable {
    let printer: InventoryPrinter

    struct NoSamples: DiagnosableError {
        var name: String
        var seconds: Double
        var description: String { "no samples from \(name) in \(Int(seconds)) s" }
        var exitStatus: ExitStatus { .runtimeFailure }
        var fix: String? { "check that the chip is powered and wired; try --no-fifo" }
    }

    func read(_ count: Int, from source: any SampleSource) async throws {
        // Generous: 10 s to start (reset and start-up times, the source's own bounded recovery
        // attempts, a slow emulated machine) plus twice the nominal duration.
        let seconds = 10 + 2 * Double(count) / (source.info.nominalRateHz ?? 10)
        let printer = self.printer
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                var printed = 0
                for try await batch in source.batches() {
                    for s in batch where printed < count {
                        printer.print(sample: s)
                        printed += 1
                    }
                    if printed >= count { break }
                    // Each batch's lines go out within 0.1 s, written on the output's own thread;
                    // this task suspends only while the reader lags 1 MiB behind (OutputStream.flushed).
                    await Terminal.standardOutput.flushed()
                }
                return true
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return false
            }
            let finished = try await group.next() ?? false
            group.cancelAll()
            LossReport.write(source.losses, tool: "imu-info")
            if !finished { throw NoSamples(name: source.info.name, seconds: seconds) }
        }
    }
}
