import IMULocation
import Pedometer

/// The one pipeline: source (already calibrated, see `applySavedCalibration`) → pedometer → events and display. Live sensors,
/// recordings and the simulator all run through here.
public struct PedometerRunner {
    public var configuration: PedometerConfiguration
    public var json: Bool
    public var display: StatusDisplay?
    /// Ground speed from gpsd (`--gps`), or nil: the IMU alone (docs/gps.md).
    public var gps: GPSSpeedFeed?
    /// The recording being replayed, when this run reads one: a recording that ends without a
    /// single sample (a header only) is then a bad file (`EmptyRecording`), not "0 steps".
    public var recordingPath: String?

    public init(configuration: PedometerConfiguration, json: Bool, display: StatusDisplay?, gps: GPSSpeedFeed? = nil) {
        self.configuration = configuration
        self.json = json
        self.display = display
        self.gps = gps
    }

    /// Runs until the source ends or Ctrl-C/SIGTERM. The summary is always printed, also after a
    /// sensor failure (the totals so far are kept); the failure is then rethrown for the exit code.
    public func run(_ source: any SampleSource) async throws -> PedometerSnapshot {
        let out = Terminal.standardOutput
        let caps = Pedometer.capabilities(for: source.info.capabilities)
        let config = configuration, json = self.json, display = self.display, gps = self.gps
        display?.start(source: source.info, capabilities: caps)
        gps?.start()   // after the header: its lines follow it

        let work = Task { () -> (Pedometer, GroundSpeedInput?, (any Error)?, Int) in
            var samples = 0
            var pedometer = Pedometer(configuration: config, capabilities: source.info.capabilities)
            var groundSpeed = gps.map(GroundSpeedInput.init)
            var events: [PedometerEvent] = []
            do {
                for try await batch in source.batches() {
                    if let first = batch.first, samples == 0 { display?.begin(at: first.time) }
                    samples += batch.count
                    if groundSpeed != nil {
                        groundSpeed!.process(batch, pedometer: &pedometer, into: &events)
                    } else {
                        pedometer.process(contentsOf: batch, into: &events)
                    }
                    if !events.isEmpty {
                        Self.emit(events, json: json, display: display, out: out)
                        events.removeAll(keepingCapacity: true)
                        // Live consumers see each event within 0.1 s, written on the output's
                        // own thread; this task suspends only while the reader lags 1 MiB behind
                        // (OutputStream.flushed).
                        await out.flushed()
                    }
                    display?.update(pedometer.snapshot)
                }
                return (pedometer, groundSpeed, nil, samples)
            } catch is CancellationError {
                return (pedometer, groundSpeed, nil, samples)
            } catch {
                return (pedometer, groundSpeed, error, samples)
            }
        }
        let trap = SignalTrap { work.cancel() }
        var (pedometer, groundSpeed, failure, samples) = await work.value
        _ = trap
        if failure == nil, samples == 0, !trap.stopRequested, let recordingPath { failure = EmptyRecording(path: recordingPath) }
        gps?.stop()
        var events: [PedometerEvent] = []
        pedometer.finish(into: &events)
        Self.emit(events, json: json, display: display, out: out)
        let snapshot = pedometer.snapshot
        // A bad input file is a usage error: no results. A failing sensor keeps its totals.
        if let failure = failure as? any DiagnosableError, failure.exitStatus == .usage { throw failure }
        let losses = source.losses
        if json {
            out.write(EventEncoding.summary(snapshot, capabilities: caps, source: source.info, losses: losses,
                                            groundSpeed: groundSpeed, samples: samples,
                                            ignoredGroundSpeeds: pedometer.ignoredGroundSpeeds.count) + "\n")
        }
        // One sample is a single instant: "steps 0" and "duration_s":0 from it are no measurement.
        // The JSON says so in `too_few_samples`; people read it here.
        if (1..<EventEncoding.fewestSamples).contains(samples) {
            Terminal.standardError.write("imu-steps: \(source.info.name.escapedForTerminal) gave only \(counted(samples, "sample")), a single instant: "
                + "too few to count steps, floors or activity from; a recording needs some seconds of samples at 25 Hz or more (docs/CONTRACTS.md §2)\n")
            Terminal.standardError.flush()
        }
        if let note = IgnoredSpeedNote.text(pedometer) {
            Terminal.standardError.write("imu-steps: \(note)\n")
            Terminal.standardError.flush()
        }
        display?.finish(snapshot)
        LossReport.write(losses, tool: "imu-steps")
        out.flush()
        if let failure { throw failure }
        return snapshot
    }

    private static func emit(_ events: [PedometerEvent], json: Bool, display: StatusDisplay?, out: OutputStream) {
        if json {
            for e in events { out.write(EventEncoding.json(e) + "\n") }
        }
        if let display { for e in events { display.event(e) } }
    }
}
