import FoundationEssentials
import IMUCLI
import IMUServiceClient
import Pedometer

/// Live `imu-steps` when imu-stepd already owns the sensor: rather than fail to open the device a
/// second time, it shows the daemon's today totals as they change (PropertiesChanged, at most once
/// a second) until Ctrl-C. Only for the automatic source: a named --source is opened as asked.
enum DaemonFollow {
    /// `gps`: `--gps` was given; the daemon's counts are shown as it makes them, so it does not apply.
    static func runIfDaemonOwnsSensor(_ request: SourceRequest, json: Bool, gps: Bool = false,
                                      client: StepServiceClient = StepServiceClient()) async throws -> ExitStatus? {
        guard case .automatic = request, await client.isRunning() else { return nil }
        if gps {
            // The daemon names the file it read; an older one does not, and then its usual place is said.
            let config = (try? await client.status().configPath).flatMap { $0.isEmpty ? nil : $0 }
            Terminal.standardError.write("imu-steps: --gps does not apply while following the step daemon: its activity is its own "
                                         + "(set gps = in \(config?.escapedOnOneLine ?? "the daemon's config, usually /etc/imukit/stepd.conf"); docs/gps.md)\n")
            // Said now, not at Ctrl-C: standard error to a file or a pipe is collected until flushed.
            Terminal.standardError.flush()
        }
        let out = Terminal.standardOutput
        let display = json ? nil : StatusDisplay()
        let started = BootClock.nowSeconds()
        let updates = Task { () -> (any Error)? in
            do {
                var first = true
                for try await s in client.updates() {
                    if first {
                        first = false
                        let caps = SensorCapabilities(accelerometer: s.sensorCapabilities.contains("accelerometer"),
                                                      gyroscope: s.sensorCapabilities.contains("gyroscope"),
                                                      barometer: s.sensorCapabilities.contains("barometer"))
                        display?.start(source: SourceInfo(name: "imu-stepd (\(s.sensor.escapedValue)), today's totals",
                                                          calibrationKey: "", capabilities: caps),
                                       capabilities: Pedometer.capabilities(for: caps))
                        if !json {
                            Terminal.standardError.write("imu-steps: the step daemon owns the sensor; following it (Ctrl-C to stop)\n")
                        }
                        if !s.clockSynchronized { Terminal.standardError.write(DaemonReport.unsetClockWarning(config: s.configPath)) }
                        Terminal.standardError.flush()
                    }
                    if json {
                        var line = JSONLine(type: "daemon")
                        line.add("steps", s.today.steps)
                        line.add("distance_m", s.today.distanceMeters, decimals: 2)
                        line.add("floors_ascended", s.today.floorsAscended)
                        line.add("floors_descended", s.today.floorsDescended)
                        line.add("activity", s.activity)
                        line.add("cadence", s.cadence, decimals: 2)
                        line.add("sensor_state", s.sensorState)
                        out.write(line.text + "\n")
                        out.flush()
                    } else {
                        display?.update(snapshot(s, elapsed: BootClock.nowSeconds() - started))
                        if s.sensorState == "lost" { Terminal.standardError.write("imu-steps: the daemon lost the sensor: \(s.sensorMessage.escapedOnOneLine)\n") }
                    }
                }
                return nil
            } catch is CancellationError {
                return nil
            } catch {
                return error
            }
        }
        let trap = SignalTrap { updates.cancel() }
        let failure = await updates.value
        _ = trap
        Terminal.standardError.flush()
        if let failure { throw failure }
        return .success
    }

    static func snapshot(_ s: ServiceStatus, elapsed: Double) -> PedometerSnapshot {
        var p = PedometerSnapshot()
        p.time = BootClock.nowSeconds()
        p.duration = elapsed
        p.steps = s.today.steps
        p.distanceMeters = s.today.distanceMeters
        p.floorsAscended = s.today.floorsAscended
        p.floorsDescended = s.today.floorsDescended
        p.currentCadence = s.cadence > 0 ? s.cadence : nil
        p.activity = ActivityClass(rawValue: s.activity) ?? .unknown
        p.confidence = ActivityConfidence(rawValue: s.activityConfidence) ?? .low
        p.activeDuration = s.today.activeSeconds
        return p
    }
}
