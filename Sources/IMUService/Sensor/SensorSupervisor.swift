import Foundation
import IMUCLI
import IMUCalibration
import IMUSensors
#if canImport(Glibc)
import Glibc
#endif

/// Keeps a source open and feeds the engine: opens the configured source (or the first found),
/// applies the saved calibration, forwards batches, and when the source fails reports "lost" and
/// tries again with backoff (1 s doubling to 30 s), so a sensor that comes back is used again;
/// an error that says it is permanent (`RetryableError`, `givesUp(on:)`) ends the retries until Reset.
///
/// Sharing the IIO buffer (docs/service.md, Sharing). Three ways to read an IIO IMU, chosen anew
/// at every (re)open; the engine's pedometer and totals carry on across every switch:
/// - buffered, the usual way;
/// - polled at `polledFallbackHz` while the owner of `yieldTo` (iio-sensor-proxy) is on the bus,
///   so the buffer is always free for it: it neither waits for a busy buffer nor falls back to
///   polling once it has chosen its buffered driver. Back to buffered when the name goes;
/// - polled while an unknown reader holds the buffer (EBUSY, found before anything is written to
///   the device), with a read-only probe every `bufferProbeSeconds` for the buffer to free;
/// - none ("waiting") while polled reads are refused because another reader's buffer runs
///   (inv_mpu6050 and st_sensors claim direct mode: EBUSY): `buffer/enable` is read every
///   `waitProbeSeconds` and polling resumes once it is 0.
public struct SensorSupervisor: Sendable {
    let config: ServiceConfig
    let engine: StepEngine
    let log: ServiceLog
    /// The owner of `config.yieldTo` on the bus; nil when nothing is watched.
    let yieldTo: BusNameWatch?
    /// Seconds between read-only probes of a held buffer: each opens a context and reads
    /// `buffer/enable` (a few milliseconds of sysfs reads locally), so a user who turns screen
    /// rotation off gets buffered capture back within this.
    static let bufferProbeSeconds = 10.0
    /// Seconds between reads of `buffer/enable` while direct reads are refused: one sysfs read
    /// each (no context), so steps count again within a second of the screen turning off
    /// (phosh releases the accelerometer on blank: iio-sensor-proxy then stops its buffer).
    static let waitProbeSeconds = 1.0
    /// Backoff after a failure: 1 s doubling to 30 s.
    static let firstRetrySeconds = 1.0, longestRetrySeconds = 30.0

    public init(config: ServiceConfig, engine: StepEngine, log: ServiceLog, yieldTo: BusNameWatch? = nil) {
        self.config = config
        self.engine = engine
        self.log = log
        self.yieldTo = yieldTo
    }

    enum Outcome { case ended, bufferFree, yieldNow, yieldOver, watchLost }

    /// Why a capture that could be buffered is polled.
    enum PolledBecause: Equatable {
        /// The owner of the watched name (iio-sensor-proxy) is on the bus.
        case yielding
        /// Another reader held the buffer of this device at the last buffered open.
        case held(String)
    }

    /// What `open` made: the source, its capture mode for D-Bus, and its IIO spec when it is one.
    struct Opened {
        var source: any SampleSource
        var mode: String
        var iio: IIOSourceSpec?
        /// The samples carry another machine's clock (buffered capture through iiod: the board's
        /// kernel stamps them on its CLOCK_BOOTTIME): shifted onto this machine's boot clock.
        var remoteClock: Bool
        /// The source would be buffered but is polled because it was asked to be.
        var polledInstead = false
    }

    /// Runs until cancelled (or until a finite source ends).
    public func run() async {
        var retry = Self.firstRetrySeconds
        var held: String?
        var iio: IIOSourceSpec?
        while !Task.isCancelled {
            let because: PolledBecause? = yieldTo?.isPresent == true ? .yielding : held.map { .held($0) }
            do {
                let opened = try await open(polled: because != nil)
                iio = opened.iio
                let reason = opened.polledInstead ? because.map(polledReason) ?? "" : ""
                engine.send(.sensor(.running(opened.source.info, captureMode: opened.mode, reason: reason)))
                retry = Self.firstRetrySeconds
                let yieldTo = self.yieldTo
                var until: (@Sendable () async -> Outcome)?
                if opened.mode == "buffered", let yieldTo {
                    // A watch that lost its bus takes the name as absent: buffered stays right,
                    // so this capture goes on and waits for the watch to see the name again.
                    until = {
                        while !Task.isCancelled { if await yieldTo.waitUntil(present: true) { return .yieldNow } }
                        return .ended
                    }
                } else if opened.polledInstead, because == .yielding, let yieldTo {
                    until = { await yieldTo.waitUntil(present: false) ? .yieldOver : .watchLost }
                } else if opened.polledInstead, let spec = opened.iio {
                    until = { await waitUntilFree(spec); return .bufferFree }
                }
                switch try await consume(opened, until: until) {
                case .ended:
                    // Cancelled (Reset, stop): the stream ended because of that; a new supervisor
                    // may already be running, so say nothing.
                    if !Task.isCancelled { engine.send(.sensor(.ended)) }
                    return
                case .bufferFree:
                    log.notice("the IIO buffer is free again: back to buffered capture")
                    held = nil
                case .yieldNow:
                    log.notice("\(yieldName) appeared on the bus: leaving the IIO buffer to it and polling at \(config.polledFallbackHz) Hz")
                case .yieldOver:
                    log.notice("\(yieldName) left the bus: back to buffered capture")
                    held = nil
                case .watchLost:
                    log.notice("\(yieldName) is not watched while the watch connects again: back to buffered capture meanwhile")
                    held = nil
                }
            } catch is CancellationError {
                return
            } catch let IIOError.ioFailed(device, _, code) where code == EBUSY && because == nil {
                log.notice("the IIO buffer of \(device) is held by another reader: polling it at \(config.polledFallbackHz) Hz meanwhile")
                held = device
            } catch let IIOError.ioFailed(device, _, code) where code == EBUSY {
                // Polled reads refused: the driver claims direct mode while a buffer runs.
                engine.send(.sensor(.waiting(waitingReason(device))))
                await waitForDirectReads(iio, yielding: because == .yielding)
            } catch {
                if Task.isCancelled { return }
                held = nil
                let permanent = givesUp(on: error)
                engine.send(.sensor(.lost(Self.describe(error), retrying: !permanent)))
                if permanent {
                    log.error("the source is not opened again, since it would fail the same way: fix it, then call Reset (docs/service.md) or restart imu-stepd")
                    return
                }
                try? await Task.sleep(nanoseconds: UInt64(retry * 1e9))
                retry = min(retry * 2, Self.longestRetrySeconds)
            }
        }
    }

    /// Seconds to wait for an earlier capture to let go of its device: it reads the block it is
    /// in (one hand-over, `HandOver.seconds`) and destroys its buffer; twice that plus a second
    /// for a slow machine (a TCG guest reads an i2c-stub block in about that).
    static var releaseSeconds: Double { 2 * HandOver.seconds + 1 }

    /// Waits until no capture thread of this process runs (the one a cancelled supervisor left,
    /// still reading its last block), up to `releaseSeconds`; then says so and goes on (a
    /// buffer still held is then polled meanwhile, as another reader's would be).
    func waitForEarlierCaptures() async {
        let deadline = BootClock.nowSeconds() + Self.releaseSeconds
        while CaptureThread.runningCount > 0 {
            if Task.isCancelled { return }
            guard BootClock.nowSeconds() < deadline else {
                log.warning("the previous capture did not end within \(Self.hz(Self.releaseSeconds)) s: opening the sensor anyway")
                return
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// "iio-sensor-proxy (net.hadess.SensorProxy)" for its name, the name alone otherwise.
    var yieldName: String {
        let name = yieldTo?.name ?? config.yieldTo
        return name == "net.hadess.SensorProxy" ? "iio-sensor-proxy (\(name))" : name
    }

    /// SensorMessage while polled instead of buffered.
    func polledReason(_ because: PolledBecause) -> String {
        switch because {
        case .yielding:
            "\(yieldName) is running: the IIO buffer is left to it (screen rotation); polling at \(Self.hz(config.polledFallbackHz)) Hz, buffered again when it leaves the bus"
        case let .held(device):
            "the IIO buffer of \(device) is held by another reader: polling at \(Self.hz(config.polledFallbackHz)) Hz, buffered again when it frees (checked every \(Int(Self.bufferProbeSeconds)) s)"
        }
    }

    /// SensorMessage while polled reads are refused.
    func waitingReason(_ device: String) -> String {
        "\(device) refuses direct reads while another reader's buffer runs (iio-sensor-proxy streams for screen rotation while the screen is on): not counting until that buffer stops (screen off or rotation locked; checked every \(Int(Self.waitProbeSeconds)) s)"
    }

    /// Whether `error` ends the retries: it does not mend itself (`RetryableError`: a malformed
    /// recording, whose samples before the bad line would be counted again at every replay, a
    /// permission, a wrong chip, a damaged saved calibration or mount.conf). With `source = auto`
    /// only a damaged file does (`isFileProblem`): any other error only says why no sensor was
    /// found yet (the first backend's problem, `SourceSelection`), and another may appear (an IIO
    /// driver bound again while an I²C adapter refuses this user).
    func givesUp(on error: any Error) -> Bool {
        guard (error as? any RetryableError)?.isPermanent == true else { return false }
        if case .automatic = config.source { return Self.isFileProblem(error) }
        return true
    }

    /// A file a person writes and only a person mends: the saved calibration of the sensor that
    /// opened (`CalibrationError`, `CalibrationStoreError`) or mount.conf (`MountConfigError`).
    /// Whichever sensor `auto` finds next reads the same file.
    static func isFileProblem(_ error: any Error) -> Bool {
        error is CalibrationError || error is CalibrationStoreError || error is MountConfigError
    }

    static func hz(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    static func describe(_ error: any Error) -> String {
        guard let d = error as? any DiagnosableError else { return "\(error)" }
        return d.fix.map { "\(d.description) (fix: \($0))" } ?? d.description
    }

    /// The thread that blocking work (device probing, context creation) runs on (`OwnThread.run`),
    /// never the cooperative pool (on Linux, Dispatch's global queues share their threads with it).
    static let openThread = "imukit-open"

    private func open(polled: Bool) async throws -> Opened {
        let config = self.config
        return try await OwnThread.run(name: Self.openThread) {
            var options = config.sourceOptions
            var source = try SourceSelection.open(config.source, options: options, backends: CLIBackends.hardware)
            var polledInstead = false
            if polled, let iio = source as? IIOSource, iio.mode.kind == .buffered {
                var spec = iio.spec
                spec.forcePolled = true
                options.rateHz = config.polledFallbackHz
                source = try IIOSource(spec: spec, options: options)
                polledInstead = true
            }
            let iio = source as? IIOSource
            let mode = iio?.mode.kind.rawValue ?? (source.info.isSimulated ? "simulated" : "")
            let remote = iio.map { $0.mode.kind == .buffered && $0.spec.uri.hasPrefix("ip:") } ?? false
            if config.applyCalibration { source = try SavedCalibration.apply(to: source).source }
            return Opened(source: source, mode: mode, iio: iio.map { s in var spec = s.spec; spec.forcePolled = false; return spec },
                          remoteClock: remote, polledInstead: polledInstead)
        }
    }

    /// Sleeps until polled reads may work again: the IMU's `buffer/enable` reads 0, or the
    /// yielded-to name left the bus (then the next open decides). Where the buffer cannot be
    /// seen (an `ip:` context), one `bufferProbeSeconds` and try again.
    private func waitForDirectReads(_ spec: IIOSourceSpec?, yielding: Bool) async {
        let id: String? = if let spec { (try? await OwnThread.run(name: Self.openThread) { try IIOSource.localIMUDeviceID(spec: spec) }) ?? nil } else { nil }
        guard let id else {
            try? await Task.sleep(nanoseconds: UInt64(Self.bufferProbeSeconds * 1e9))
            return
        }
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(Self.waitProbeSeconds * 1e9))
            if yielding && yieldTo?.isPresent != true { return }
            if (try? await OwnThread.run(name: Self.openThread, { IIOSource.bufferRunning(deviceID: id) })) == false { return }
        }
    }

    /// Sleeps until a read-only probe finds the buffer of `spec` free (or the task is cancelled).
    /// The IMU's device is found once (one IIO context); each probe then reads `buffer/enable`
    /// and tries to open its /dev node. No IMU any more also returns (the reopen decides).
    /// Through iiod (`ip:`) no probe can tell, and trying the buffer would stop the other reader's
    /// capture (iiod disables the buffer before it finds it busy): it stays polled until Reset.
    private func waitUntilFree(_ spec: IIOSourceSpec) async {
        var id: String?
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(Self.bufferProbeSeconds * 1e9))
            guard spec.uri == "local:" else { continue }
            if id == nil {
                do {
                    guard let found = try await OwnThread.run(name: Self.openThread, { try IIOSource.localIMUDeviceID(spec: spec) }) else { return }
                    id = found
                } catch {
                    continue   // no context now: tried again at the next probe
                }
            }
            if let id, (try? await OwnThread.run(name: Self.openThread, { IIOSource.bufferHeldByAnotherReader(deviceID: id) })) == false { return }
        }
    }

    /// Forwards batches until the source ends or fails, or until `until` returns (a sharing
    /// change: the capture is stopped and the caller reopens the source the other way).
    private func consume(_ opened: Opened, until: (@Sendable () async -> Outcome)?) async throws -> Outcome {
        let engine = self.engine
        let source = opened.source, remoteClock = opened.remoteClock
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask {
                // Each batch goes to the engine as it comes: sources hand over every
                // HandOver.seconds (the one place that decides it), so the engine thread wakes
                // that often.
                var offset: Double?
                // What the source lost goes to the engine as it grows, and once more when the
                // capture ends (its last block), as imu-steps prints it at the end of a run.
                var reported = SampleLosses()
                func reportLosses() {
                    let now = source.losses
                    let grown = now.since(reported)
                    guard grown != SampleLosses() else { return }
                    engine.send(.losses(grown))
                    reported = now
                }
                defer { reportLosses() }
                for try await batch in source.batches() {
                    var batch = batch
                    if remoteClock, let last = batch.last {
                        // Fixed at the first block, so the kernel's spacing of the scans is kept.
                        let shift = offset ?? BootClock.nowSeconds() - last.time
                        offset = shift
                        for i in batch.indices { batch[i].time += shift }
                    }
                    engine.send(.samples(batch))
                    reportLosses()
                }
                return .ended
            }
            if let until {
                group.addTask {
                    let outcome = await until()
                    if Task.isCancelled { throw CancellationError() }
                    return outcome
                }
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }
}
