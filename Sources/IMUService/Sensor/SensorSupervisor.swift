import Dispatch
import Foundation
import IMUCLI
import IMUCalibration
import IMUSensors
#if canImport(Glibc)
import Glibc
#endif

/// Keeps a source open and feeds the engine: opens the configured source (or the first found),
/// applies the saved calibration, forwards batches, and when the source fails reports "lost" and
/// tries again with backoff (1 s doubling to 30 s), so a sensor that comes back is used again.
///
/// Sharing with iio-sensor-proxy (docs/service.md): when another reader holds an IIO device's
/// buffer (EBUSY, found before anything is written to the device, so the other reader's capture
/// goes on), the supervisor polls the same device at `polledFallbackHz` and asks every
/// `bufferProbeSeconds`, read-only and beside the running poll, whether the buffer is free; when
/// it is, it goes back to buffered capture. The engine's pedometer carries on across each switch.
/// A driver that also refuses direct reads while its buffer runs (inv_mpu6050, st_sensors) leaves
/// nothing to poll: the sensor is reported lost with that reason until the buffer frees.
public struct SensorSupervisor: Sendable {
    let config: ServiceConfig
    let engine: StepEngine
    let log: ServiceLog
    /// Seconds between read-only probes of a held buffer: each opens a context and reads
    /// `buffer/enable` (a few milliseconds of sysfs reads locally), so a user who turns screen
    /// rotation off gets buffered capture back within this.
    static let bufferProbeSeconds = 10.0
    /// Backoff after a failure: 1 s doubling to 30 s.
    static let firstRetrySeconds = 1.0, longestRetrySeconds = 30.0

    public init(config: ServiceConfig, engine: StepEngine, log: ServiceLog) {
        self.config = config
        self.engine = engine
        self.log = log
    }

    enum Outcome { case ended, bufferFree }

    /// What `open` made: the source, its capture mode for D-Bus, and its IIO spec when it is one.
    struct Opened {
        var source: any SampleSource
        var mode: String
        var iio: IIOSourceSpec?
        /// The samples carry another machine's clock (buffered capture through iiod: the board's
        /// kernel stamps them on its CLOCK_BOOTTIME): shifted onto this machine's boot clock.
        var remoteClock: Bool
    }

    /// Runs until cancelled (or until a finite source ends).
    public func run() async {
        var retry = Self.firstRetrySeconds
        var polledFallback = false
        var iio: IIOSourceSpec?
        while !Task.isCancelled {
            do {
                let opened = try await open(polledFallback: polledFallback)
                iio = opened.iio
                engine.send(.sensor(.running(opened.source.info, captureMode: opened.mode)))
                retry = Self.firstRetrySeconds
                switch try await consume(opened, probe: polledFallback ? opened.iio : nil) {
                case .ended:
                    // Cancelled (Reset, stop): the stream ended because of that; a new supervisor
                    // may already be running, so say nothing.
                    if !Task.isCancelled { engine.send(.sensor(.ended)) }
                    return
                case .bufferFree:
                    log.notice("the IIO buffer is free again: back to buffered capture")
                    polledFallback = false
                    continue
                }
            } catch is CancellationError {
                return
            } catch let IIOError.ioFailed(device, _, code) where code == EBUSY && !polledFallback {
                log.notice("the IIO buffer of \(device) is held by another reader (iio-sensor-proxy?): polling it at \(config.polledFallbackHz) Hz meanwhile")
                polledFallback = true
                continue
            } catch let IIOError.ioFailed(device, _, code) where code == EBUSY && polledFallback {
                // The driver refuses direct reads while the other reader's buffer runs.
                engine.send(.sensor(.lost("\(device) is held by another reader (iio-sensor-proxy?) and its driver refuses direct reads while that reader's buffer runs; counting resumes when it frees the buffer")))
                if let iio { await waitUntilFree(iio) }
                polledFallback = false
            } catch {
                if Task.isCancelled { return }
                polledFallback = false
                engine.send(.sensor(.lost(Self.describe(error))))
                try? await Task.sleep(nanoseconds: UInt64(retry * 1e9))
                retry = min(retry * 2, Self.longestRetrySeconds)
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let d = error as? any DiagnosableError else { return "\(error)" }
        return d.fix.map { "\(d.description) (fix: \($0))" } ?? d.description
    }

    /// Runs blocking work (device probing, context creation) on a Dispatch thread, never the
    /// cooperative pool.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    private func open(polledFallback: Bool) async throws -> Opened {
        let config = self.config
        return try await Self.blocking {
            var options = config.sourceOptions
            var source = try SourceSelection.open(config.source, options: options, backends: CLIBackends.hardware)
            if polledFallback, let iio = source as? IIOSource, iio.mode.kind == .buffered {
                var spec = iio.spec
                spec.forcePolled = true
                options.rateHz = config.polledFallbackHz
                source = try IIOSource(spec: spec, options: options)
            }
            let iio = source as? IIOSource
            let mode = iio?.mode.kind.rawValue ?? (source.info.isSimulated ? "simulated" : "")
            let remote = iio.map { $0.mode.kind == .buffered && $0.spec.uri.hasPrefix("ip:") } ?? false
            if config.applyCalibration { source = try SavedCalibration.apply(to: source).source }
            return Opened(source: source, mode: mode, iio: iio.map { s in var spec = s.spec; spec.forcePolled = false; return spec },
                          remoteClock: remote)
        }
    }

    /// Sleeps until a read-only probe finds the buffer of `spec` free (or the task is cancelled).
    /// Through iiod (`ip:`) no probe can tell, and trying the buffer would stop the other reader's
    /// capture (iiod disables the buffer before it finds it busy): it stays polled until Reset.
    private func waitUntilFree(_ spec: IIOSourceSpec) async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(Self.bufferProbeSeconds * 1e9))
            if case .some(.some(false)) = try? await Self.blocking({ try IIOSource.bufferHeldByAnotherReader(spec: spec) }) { return }
        }
    }

    /// Forwards batches until the source ends or fails; with `probe`, also until the buffer of
    /// that IIO source is found free (the polled capture runs on meanwhile).
    private func consume(_ opened: Opened, probe: IIOSourceSpec?) async throws -> Outcome {
        let engine = self.engine
        let source = opened.source, remoteClock = opened.remoteClock
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask {
                // Each batch goes to the engine as it comes: sources hand over every
                // HandOver.seconds (the one place that decides it), so the engine thread wakes
                // that often.
                var offset: Double?
                for try await batch in source.batches() {
                    var batch = batch
                    if remoteClock, let last = batch.last {
                        // Fixed at the first block, so the kernel's spacing of the scans is kept.
                        let shift = offset ?? BootClock.nowSeconds() - last.time
                        offset = shift
                        for i in batch.indices { batch[i].time += shift }
                    }
                    engine.send(.samples(batch))
                }
                return .ended
            }
            if let probe {
                group.addTask {
                    await waitUntilFree(probe)
                    if Task.isCancelled { throw CancellationError() }
                    return .bufferFree
                }
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }
}
