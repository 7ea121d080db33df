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
/// Sharing with iio-sensor-proxy: when another reader holds an IIO device's buffer (EBUSY), the
/// supervisor polls the same device at `polledFallbackHz` and tries the buffer again every
/// `bufferRetrySeconds`. The engine's pedometer carries on across the switch: no count is lost.
public struct SensorSupervisor: Sendable {
    let config: ServiceConfig
    let engine: StepEngine
    let log: ServiceLog
    /// How often a polled fallback tries the buffer again, in seconds (one failed open costs
    /// a few sysfs writes).
    static let bufferRetrySeconds = 30.0
    /// Seconds of samples handed to the engine at once, in sample time: the engine's wake-ups
    /// per second are 1 / this (issue #16: at most 10 wake-ups a second in all); the totals on
    /// D-Bus change at most once a second anyway.
    static let handOverSeconds = 1.0
    /// Backoff after a failure: 1 s doubling to 30 s.
    static let firstRetrySeconds = 1.0, longestRetrySeconds = 30.0

    public init(config: ServiceConfig, engine: StepEngine, log: ServiceLog) {
        self.config = config
        self.engine = engine
        self.log = log
    }

    enum Outcome { case ended, retryBuffered }

    /// Runs until cancelled (or until a finite source ends).
    public func run() async {
        var retry = Self.firstRetrySeconds
        var polledFallback = false
        while !Task.isCancelled {
            do {
                let (source, mode) = try await open(polledFallback: polledFallback)
                engine.send(.sensor(.running(source.info, captureMode: mode)))
                retry = Self.firstRetrySeconds
                switch try await consume(source, retryBufferAfter: polledFallback ? Self.bufferRetrySeconds : nil) {
                case .ended:
                    // Cancelled (Reset, stop): the stream ended because of that; a new supervisor
                    // may already be running, so say nothing.
                    if !Task.isCancelled { engine.send(.sensor(.ended)) }
                    return
                case .retryBuffered:
                    polledFallback = false
                    continue
                }
            } catch is CancellationError {
                return
            } catch let IIOError.ioFailed(device, _, code) where code == EBUSY && !polledFallback {
                log.notice("the IIO buffer of \(device) is held by another reader (iio-sensor-proxy?): polling it at \(config.polledFallbackHz) Hz meanwhile")
                polledFallback = true
                continue
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

    /// Opens on a Dispatch thread: device probing blocks.
    private func open(polledFallback: Bool) async throws -> (any SampleSource, String) {
        let config = self.config
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    var options = config.sourceOptions
                    var source = try SourceSelection.open(config.source, options: options, backends: CLIBackends.hardware)
                    if polledFallback, let iio = source as? IIOSource, iio.mode.kind == .buffered {
                        var spec = iio.spec
                        spec.forcePolled = true
                        options.rateHz = config.polledFallbackHz
                        source = try IIOSource(spec: spec, options: options)
                    }
                    let mode = (source as? IIOSource)?.mode.kind.rawValue ?? (source.info.isSimulated ? "simulated" : "")
                    if config.applyCalibration { source = try SavedCalibration.apply(to: source).source }
                    return (source, mode)
                })
            }
        }
    }

    /// Forwards batches until the source ends or fails; with `retryBufferAfter`, stops after that
    /// many seconds so that the buffer is tried again.
    private func consume(_ source: any SampleSource, retryBufferAfter: Double?) async throws -> Outcome {
        let engine = self.engine
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask {
                // Batches are handed over about once a second (Self.handOverSeconds): the engine
                // thread then wakes once a second rather than once per FIFO read.
                var pending: [MotionSample] = []
                defer { if !pending.isEmpty { engine.send(.samples(pending)) } }
                for try await batch in source.batches() {
                    pending += batch
                    if let first = pending.first, let last = pending.last, last.time - first.time >= Self.handOverSeconds {
                        engine.send(.samples(pending))
                        pending.removeAll(keepingCapacity: true)
                    }
                }
                return .ended
            }
            if let retryBufferAfter {
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(retryBufferAfter * 1e9))
                    return .retryBuffered
                }
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }
}
