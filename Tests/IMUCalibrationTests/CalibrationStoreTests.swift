import Testing
import Foundation
@testable import IMUCalibration

@Suite struct CalibrationStoreTests {
    func sample(key: String = "mpu6050@/dev/i2c-1:0x68") -> Calibration {
        var q = CalibrationQuality()
        q.gravityErrorBefore = 0.005
        q.gravityErrorAfter = 0.00004
        q.faceMeans[.zUp] = Vector3(0.004, -0.006, 1.015)
        return Calibration(key: key, sourceName: "mpu6050 on /dev/i2c-1 @0x68", created: "2026-11-30T19:00:00Z",
                           accelerometerBias: Vector3(0.004, -0.006, 0.01), accelerometerScale: Vector3(1.002, 0.997, 1.005),
                           misalignment: Matrix3(rows: Vector3(1, 0.01, 0), Vector3(0, 1, 0), Vector3(0, -0.02, 1)),
                           gyroscopeBias: Vector3(0.002, -0.001, 0.003), quality: q)
    }

    func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func jsonRoundTrip() throws {
        let c = sample()
        for pretty in [false, true] {
            let back = try Calibration(jsonData: Data(c.jsonText(pretty: pretty).utf8), path: "x.json")
            #expect(back == c)
        }
    }

    @Test func jsonHasContractKeys() throws {
        let object = try JSONSerialization.jsonObject(with: Data(sample().jsonText().utf8)) as! [String: Any]
        for key in ["accel_bias_g", "accel_scale", "accel_misalignment", "gyro_bias_rad_s",
                    "gravity_error_before_g", "gravity_error_after_g"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect((object["accel_misalignment"] as? [[Double]])?[2][1] == -0.02)
    }

    @Test func malformedFilesAreErrorsNamingTheFile() {
        let cases = ["{", "[]", "{\"accel_bias_g\":[0,0,0]}", "{\"accel_bias_g\":[0,0],\"accel_scale\":[1,1,1]}",
                     "{\"accel_bias_g\":[0,0,0],\"accel_scale\":[1,1,1],\"version\":99}",
                     "{\"accel_bias_g\":[0,0,0],\"accel_scale\":[0,1,1]}",
                     "{\"accel_bias_g\":[true,0,0],\"accel_scale\":[1,1,1]}"]
        for text in cases {
            do {
                _ = try Calibration(jsonData: Data(text.utf8), path: "/tmp/bad.json")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains("/tmp/bad.json"))
            }
        }
    }

    /// `sample()` as a JSON object with `key` replaced by `value`.
    func sampleJSON(_ key: String, _ value: Any) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: Data(sample().jsonText().utf8)) as! [String: Any]
        object[key] = value
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Issue #10 item 6: values no working sensor gives are refused, naming the file and the fix.
    @Test(arguments: [
        ("accel_misalignment", "[[100,0,0],[0,100,0],[0,0,100]]"),
        ("accel_misalignment", "[[-1,0,0],[0,-1,0],[0,0,-1]]"),
        ("gyro_bias_rad_s", "[1e308,0,0]"),
        ("gyro_bias_rad_s", "[0,0.9,0]"),
        ("accel_scale", "[1.15,1,1]"),
        ("version", "\"1\""),
        ("version", "0"),
        ("version", "-1"),
        ("version", "1.5"),
        ("samples", "1e19"),
        ("samples", "-3"),
    ])
    func implausibleCalibrationIsRefused(key: String, value: String) throws {
        let data = try sampleJSON(key, try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed))
        do {
            _ = try Calibration(jsonData: data, path: "/tmp/bad.json")
            Issue.record("accepted \(key) = \(value)")
        } catch {
            #expect(error.description.contains("/tmp/bad.json"))
            #expect(error.fix?.contains("imu-calibrate --reset") == true)
            #expect(error.exitStatus == .usage)
        }
    }

    @Test func missingVersionIsRefused() throws {
        var object = try JSONSerialization.jsonObject(with: Data(sample().jsonText().utf8)) as! [String: Any]
        object["version"] = nil
        #expect(throws: CalibrationError.self) {
            try Calibration(jsonData: try JSONSerialization.data(withJSONObject: object), path: "x.json")
        }
    }

    @Test func plausibleEdgeValuesAreAccepted() throws {
        _ = try Calibration(jsonData: try sampleJSON("gyro_bias_rad_s", [0.3, -0.3, 0.1]), path: "x.json")
        _ = try Calibration(jsonData: try sampleJSON("accel_scale", [1.08, 0.93, 1]), path: "x.json")
        _ = try Calibration(jsonData: try sampleJSON("samples", 3010), path: "x.json")
    }

    /// Issue #10 item 17: the fix for a damaged file in the system store names --system.
    @Test func damagedSystemFileFixNamesSystem() {
        let system = CalibrationError.malformedFile(path: CalibrationStore.standard().systemDirectory + "/calibration/x.json", reason: "r")
        #expect(system.fix?.contains("--reset --system") == true)
        let user = CalibrationError.malformedFile(path: "/home/pi/.config/imukit/calibration/x.json", reason: "r")
        #expect(user.fix?.contains("--system") == false)
    }

    @Test func applyCorrectsBothSensors() {
        let c = sample()
        let truth = Vector3(0.1, -0.2, 0.97)
        let raw = c.accelerometerScale * c.misalignment.apply(truth) + c.accelerometerBias
        let out = c.apply(MotionSample(time: 1, acceleration: raw, rotationRate: Vector3(0.002, -0.001, 0.003), pressure: 1000))
        #expect(simdLength(out.acceleration! - truth) < 1e-12)
        #expect(simdLength(out.rotationRate!) < 1e-12)
        #expect(out.pressure == 1000 && out.time == 1)
    }

    @Test func userStoreWinsOverSystemAndResetRemoves() throws {
        let root = try temporaryDirectory()
        let env = ["XDG_CONFIG_HOME": root + "/user", "IMUKIT_SYSTEM_CONFIG_DIR": root + "/etc"]
        let systemStore = CalibrationStore.standard(system: true, environment: env)
        let userStore = CalibrationStore.standard(environment: env)
        var systemCal = sample()
        systemCal.sourceName = "system one"
        let systemPath = try systemStore.save(systemCal)
        #expect(systemPath == root + "/etc/calibration/mpu6050__dev_i2c-1_0x68.json")
        #expect(try userStore.load(key: systemCal.key)?.path == systemPath)
        let userPath = try userStore.save(sample())
        #expect(userPath.hasPrefix(root + "/user/imukit/calibration/"))
        let found = try #require(try userStore.load(key: systemCal.key))
        #expect(found.path == userPath && found.calibration == sample())
        #expect(try userStore.reset(key: systemCal.key) == userPath)
        #expect(try userStore.load(key: systemCal.key)?.path == systemPath)
        #expect(try userStore.reset(key: systemCal.key) == nil)
        #expect(try userStore.load(key: "other") == nil)
    }

    @Test func saveLeavesNoTemporaryFilesAndReplacesAtomically() throws {
        let root = try temporaryDirectory()
        let store = CalibrationStore(userDirectory: root)
        var c = sample()
        try store.save(c)
        c.accelerometerBias = Vector3(0.001, 0.002, 0.003)
        let path = try store.save(c)
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/calibration")
        #expect(files == [(path as NSString).lastPathComponent])
        #expect(try store.load(key: c.key)?.calibration.accelerometerBias == Vector3(0.001, 0.002, 0.003))
    }

    @Test func homeFallbackAndFileNames() {
        let s = CalibrationStore.standard(environment: ["HOME": "/home/pi", "XDG_CONFIG_HOME": "relative"])
        #expect(s.userDirectory == "/home/pi/.config/imukit")
        #expect(s.systemDirectory == "/etc/imukit")
        #expect(CalibrationStore.fileName(for: "iio:local:mpu6050") == "iio_local_mpu6050.json")
        #expect(CalibrationStore.fileName(for: "../..") == "_...json")   // no way out of the directory
    }

    @Test func unwritableStoreIsAPermissionError() throws {
        guard getuid() != 0 else { return }   // root can write anywhere; nothing to check
        let store = CalibrationStore(userDirectory: "/proc/imukit-test")
        #expect(throws: CalibrationStoreError.self) { try store.save(sample()) }
    }
}

/// The bad-input audit: a saved calibration path that is not a readable file.
@Suite struct CalibrationStoreBadInputTests {
    /// A directory and an unbounded device were both "Permission denied" (and the device could
    /// have been read until memory ran out).
    @Test func aDirectoryOrADeviceAtTheSavedPathIsNamed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-store-\(UUID().uuidString)").path
        let store = CalibrationStore(userDirectory: base)
        try FileManager.default.createDirectory(atPath: base + "/calibration/dir.json", withIntermediateDirectories: true)
        #expect(throws: CalibrationStoreError.io(path: base + "/calibration/dir.json", operation: "read", errno: EISDIR)) {
            try store.load(key: "dir")
        }
        try FileManager.default.createSymbolicLink(atPath: base + "/calibration/zero.json", withDestinationPath: "/dev/zero")
        #expect(throws: CalibrationStoreError.notARegularFile(path: base + "/calibration/zero.json", kind: "a character device")) {
            try store.load(key: "zero")
        }
    }

    /// docs/CONTRACTS.md §4 gives 2 to a bad file: a saved path that is no small regular file (a
    /// directory, over 1 MiB, a FIFO or device, a path through a file) exited 1, as if an I/O error,
    /// while the same file with damaged content (WalkerProfileError) exits 2. Permission stays 3,
    /// an I/O error 1.
    @Test(arguments: [(EISDIR, IMUCore.ExitStatus.usage), (EFBIG, .usage), (ENOTDIR, .usage), (ELOOP, .usage), (ENAMETOOLONG, .usage),
                      (EACCES, .noSensor), (EIO, .runtimeFailure), (ENOENT, .runtimeFailure)])
    func aDamagedSavedPathIsABadFile(errno code: Int32, status: IMUCore.ExitStatus) {
        for path in ["/home/u/.config/imukit/profile.json", "/home/u/.config/imukit/calibration/k.json"] {
            #expect(CalibrationStoreError.io(path: path, operation: "read", errno: code).exitStatus == status, "\(path) errno \(code)")
        }
        #expect(CalibrationStoreError.notARegularFile(path: "/p/profile.json", kind: "a named pipe (FIFO)").exitStatus == .usage)
    }

    /// A failed save keeps AtomicFile's path, step and errno in the store's own error (and its fix).
    @Test func aFailedSaveIsAStoreErrorWithTheStepThatFailed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-store-\(UUID().uuidString)").path
        let store = CalibrationStore(userDirectory: base)
        let path = try #require(store.path(for: "k"))
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: CalibrationStoreError.io(path: path, operation: "rename", errno: EISDIR)) {
            try store.save(CalibrationStoreTests().sample(key: "k"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/calibration") == ["k.json"])
        let denied = CalibrationStoreError.io(path: path, operation: "create", errno: EACCES)
        #expect(denied.fix?.contains("XDG_CONFIG_HOME") == true && denied.exitStatus == .noSensor)
    }

    /// imu-stepd's supervisor asks whether to try again (`RetryableError`): a saved file that is
    /// a directory, too large, damaged or unreadable stays so until the user acts (the fix names
    /// the file); a read that failed with EIO may not.
    @Test func aDamagedSavedFileIsPermanentAndNamesTheFileInItsFix() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let store = CalibrationStore(userDirectory: base)
        try FileManager.default.createDirectory(atPath: base + "/calibration/dir.json", withIntermediateDirectories: true)
        try Data("{\"version\": 1".utf8).write(to: URL(fileURLWithPath: base + "/calibration/cut.json"))
        for (key, path) in [("dir", base + "/calibration/dir.json"), ("cut", base + "/calibration/cut.json")] {
            do {
                _ = try store.load(key: key)
                Issue.record("\(key) loaded")
            } catch let e as any RetryableError & DiagnosableError {
                #expect(e.isPermanent, "\(key): \(e)")
                #expect(e.description.contains(path) && e.fix?.contains(path) == true, "\(key): \(e) fix: \(e.fix ?? "none")")
            }
        }
        #expect(CalibrationStoreError.io(path: base, operation: "read", errno: EACCES).isPermanent)
        #expect(!CalibrationStoreError.io(path: base, operation: "read", errno: EIO).isPermanent)
        #expect(!CalibrationStoreError.io(path: base, operation: "read", errno: ENOENT).isPermanent)
    }

    @Test func anUnreadableFileSaysReadableNotWritable() {
        let e = CalibrationStoreError.io(path: "/home/u/.config/imukit/calibration/k.json", operation: "read", errno: EACCES)
        #expect(e.fix?.contains("readable by you") == true)
        #expect(e.exitStatus == .noSensor)
    }
}
