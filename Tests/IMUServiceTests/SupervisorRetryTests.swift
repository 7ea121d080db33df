import Foundation
import IMUSimulation
import Testing
import IMUServiceClient
import IMUCLI
import IMUCalibration
import IMUSensors
@testable import IMUService

/// The supervisor ends its retries on an error that says it is permanent (`RetryableError`) and
/// retries the others (1 s doubling): docs/service.md, Bad things. No bus: an engine with a
/// memory store, fed by a supervisor that replays a recording.
@Suite(.serialized) struct SupervisorRetryTests {
    func supervisor(replaying path: String, into h: EngineHarness) throws -> SensorSupervisor {
        let config = try ServiceConfig.parse("replay = \(path)\nspeed = 1000", path: "test.conf")
        return SensorSupervisor(config: config, engine: h.engine, log: ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"]))
    }

    /// Runs the supervisor until it returns or `seconds` pass (then cancels it); true when it returned.
    func returns(_ supervisor: SensorSupervisor, within seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await supervisor.run(); return !Task.isCancelled }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Polls the engine's published status without holding a thread of the pool.
    func status(_ h: EngineHarness, within seconds: Double, until condition: (ServiceStatus) -> Bool) async -> ServiceStatus {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let s = h.engine.board.current.status
            if condition(s) { return s }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return h.engine.board.current.status
    }

    /// The decision itself, for the sources the daemon opens: what the error says, except with
    /// `source = auto`, where another sensor may appear whatever the first backend said.
    @Test func theErrorDecidesExceptWhileSearching() async throws {
        let h = try await EngineHarness()
        let log = ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"])
        let denied = RecordingError.access("/srv/walk.csv", errno: EACCES, creating: false)
        let missing = RecordingError.access("/srv/walk.csv", errno: ENOENT, creating: false)
        let badLine = RecordingError(file: "/srv/walk.csv", line: 7, message: "bad number")
        struct Unanswered: Error {}
        let named = SensorSupervisor(config: try ServiceConfig.parse("source = i2c:/dev/i2c-1@0x68", path: "x"), engine: h.engine, log: log)
        let auto = SensorSupervisor(config: try ServiceConfig.parse("source = auto", path: "x"), engine: h.engine, log: log)
        #expect(named.givesUp(on: denied) && named.givesUp(on: badLine))
        #expect(!named.givesUp(on: missing) && !named.givesUp(on: Unanswered()), "transient, or no answer at all")
        #expect(!auto.givesUp(on: denied), "with source = auto another sensor may appear")
        #expect(h.engine.stop(waitingUpTo: 5))
    }

    /// The files a person writes beside the sensor: a damaged saved calibration or mount.conf is
    /// permanent until the user mends the file (with `source = auto` too: whichever sensor is
    /// found reads the same file), a read that failed for a moment is not, and no sensor found
    /// is transient (one may be plugged in). Before `CalibrationError`, `CalibrationStoreError`,
    /// `MountConfigError` and `NoSensorError` answered, every one of them was retried every 30 s.
    @Test func damagedFilesArePermanentAndNoSensorIsNot() async throws {
        let h = try await EngineHarness()
        let log = ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"])
        let named = SensorSupervisor(config: try ServiceConfig.parse("source = i2c:/dev/i2c-1@0x68", path: "x"), engine: h.engine, log: log)
        let auto = SensorSupervisor(config: try ServiceConfig.parse("source = auto", path: "x"), engine: h.engine, log: log)
        let saved = "/home/pi/.config/imukit/calibration/i2c-1-0x68-mpu6050.json"
        let mount = "/home/pi/.config/imukit/mount.conf"
        let permanent: [(String, any Error)] = [
            ("malformed calibration", CalibrationError.malformedFile(path: saved, reason: "invalid JSON")),
            ("calibration not readable", CalibrationStoreError.io(path: saved, operation: "read", errno: EACCES)),
            ("calibration is a directory", CalibrationStoreError.io(path: saved, operation: "read", errno: EISDIR)),
            ("calibration over 1 MiB", CalibrationStoreError.io(path: saved, operation: "read", errno: EFBIG)),
            ("mount.conf line", MountConfigError(path: mount, line: 3, text: "mpu6050 = 1, 2, 3")),
        ]
        let transient: [(String, any Error)] = [
            ("calibration read EIO", CalibrationStoreError.io(path: saved, operation: "read", errno: EIO)),
            ("calibration gone between look and read", CalibrationStoreError.io(path: saved, operation: "read", errno: ENOENT)),
            ("no sensor yet", NoSensorError("no sensor found on I²C or IIO", fix: "run imu-info")),
        ]
        for (what, error) in permanent {
            #expect(named.givesUp(on: error) && auto.givesUp(on: error), "\(what) is permanent")
            // What the journal and SensorMessage say names the file and the fix.
            let said = SensorSupervisor.describe(error)
            #expect(said.contains(what.hasPrefix("mount") ? mount : saved) && said.contains("(fix: "), "\(what): \(said)")
        }
        for (what, error) in transient {
            #expect(!named.givesUp(on: error) && !auto.givesUp(on: error), "\(what) is transient")
        }
        #expect(h.engine.stop(waitingUpTo: 5))
    }

    /// A directory named as the recording (EISDIR, permanent): reported lost, not opened again.
    @Test func aPermanentErrorIsNotRetried() async throws {
        let h = try await EngineHarness()
        let directory = try scratch()
        // Before the fix it was opened again after 1, 3, 7 s…: it would still run at 5 s.
        #expect(await returns(try supervisor(replaying: directory, into: h), within: 5), "the supervisor kept retrying")
        let s = await status(h, within: 5) { $0.sensorState == "lost" }
        #expect(s.sensorState == "lost" && s.sensorMessage.contains("is a directory"), "\(s)")
        #expect(h.engine.stop(waitingUpTo: 5))
    }

    /// A recording that is not there yet (ENOENT, transient): lost, retried, and replayed once it
    /// appears, with its steps counted.
    @Test func aTransientErrorIsRetried() async throws {
        let h = try await EngineHarness()
        let path = try scratch() + "/walk.csv"
        let supervisor = try supervisor(replaying: path, into: h)
        async let ran = returns(supervisor, within: 30)
        var s = await status(h, within: 10) { $0.sensorState == "lost" }
        #expect(s.sensorState == "lost" && s.sensorMessage.contains(path), "\(s)")
        let (info, batches) = try await EngineHarness.batches("walk:20")
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: info.capabilities))
        // Stamped as just recorded (the boot clock, as imu-record stamps them): the simulator's
        // times start at 0, which the engine would place at boot, perhaps yesterday.
        let shift = BootClock.nowSeconds() - (batches.last?.last?.time ?? 0)
        for batch in batches {
            for var sample in batch {
                sample.time += shift
                try writer.write(sample)
            }
        }
        try writer.close()
        s = await status(h, within: 20) { $0.today.steps > 10 }
        #expect(s.today.steps > 10, "the recording that appeared was replayed: \(s)")
        // A finite recording ends the supervisor once it is replayed.
        #expect(await ran, "the supervisor did not end after the replay")
        #expect(h.engine.stop(waitingUpTo: 5))
    }
}
