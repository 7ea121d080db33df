import Testing
@testable import IMUSensors

/// Snapshots shaped like what libiio reports for the drivers in the kernel test ring.
enum Snapshots {
    typealias Ch = IIODeviceDescription.Channel
    static let identity = "1, 0, 0; 0, 1, 0; 0, 0, 1"
    static let rotated = "0, 1, 0; -1, 0, 0; 0, 0, 1"

    static func axes(_ stem: String, scale: String, extra: [String: String] = [:]) -> [Ch] {
        ["x", "y", "z"].map { Ch(id: "\(stem)_\($0)", attributes: ["raw": "", "scale": scale].merging(extra) { $1 }) }
    }

    /// mpu6050: in_accel_mount_matrix / in_anglvel_mount_matrix (per type), temp with offset.
    static let mpu6050 = IIODeviceDescription(
        id: "iio:device2", name: "mpu6050", attributes: ["sampling_frequency": "50"],
        channels: axes("accel", scale: "0.000598", extra: ["mount_matrix": rotated])
            + axes("anglvel", scale: "0.001064724", extra: ["mount_matrix": identity])
            + [Ch(id: "temp", attributes: ["raw": "", "offset": "12420", "scale": "2.941176"])])
    /// bmi160: in_mount_matrix (libiio: channel "mount", attribute "matrix"), buffer capable.
    static let bmi160 = IIODeviceDescription(
        id: "iio:device3", name: "bmi160",
        channels: axes("anglvel", scale: "0.001065").enumerated().map { var c = $1; c.scanIndex = 4 + $0; c.scanType = IIOScanType(kernelText: "le:s16/16>>0"); return c }
            + axes("accel", scale: "0.000598").enumerated().map { var c = $1; c.scanIndex = 7 + $0; c.scanType = IIOScanType(kernelText: "le:s16/16>>0"); return c }
            + [Ch(id: "timestamp", scanIndex: 10, scanType: IIOScanType(kernelText: "le:s64/64>>0")),
               Ch(id: "mount", attributes: ["matrix": rotated])],
        bufferCapable: true)
    /// st_lsm6dsx splits one chip into two devices; the accel one has a plain mount_matrix.
    static let lsmGyro = IIODeviceDescription(id: "iio:device6", name: "lsm6dsl_gyro", channels: axes("anglvel", scale: "0.000152716"))
    static let lsmAccel = IIODeviceDescription(id: "iio:device7", name: "lsm6dsl_accel", attributes: ["mount_matrix": rotated],
                                               channels: axes("accel", scale: "0.000598205"))
    /// bmp280: processed channels only (in_pressure_input in kPa, in_temp_input in m°C).
    static let bmp280 = IIODeviceDescription(id: "iio:device0", name: "bmp280",
                                             channels: [Ch(id: "temp", attributes: ["input": "", "oversampling_ratio": ""]),
                                                        Ch(id: "pressure", attributes: ["input": "", "oversampling_ratio": ""])])
    static let trigger = IIODeviceDescription(id: "trigger0", name: "imukit-tick", isTrigger: true)
    static let all = [bmp280, mpu6050, bmi160, lsmGyro, lsmAccel, trigger]
}

@Suite struct IIODiscoveryTests {
    @Test func convertsUnitsPerTheABI() throws {
        let set = IIODiscovery.select(from: Snapshots.all, names: ["mpu6050", "bmp280"])
        let a = try #require(set.accelerometer)
        // 16384 counts × 0.000598 m/s² per count = 9.797632 m/s² = 0.99908 g.
        #expect(abs(a.channels[2].convert(16384) - 16384 * 0.000598 / 9.80665) < 1e-12)
        let g = try #require(set.gyroscope)
        #expect(abs(g.channels[0].convert(1000) - 1.064724) < 1e-12)  // rad/s stays rad/s
        let p = try #require(set.barometer)
        #expect(p.channels[0].attribute == "input")
        #expect(abs(p.channels[0].convert(100.653253906) - 1006.53253906) < 1e-9)  // kPa → hPa
        let t = try #require(set.thermometer)
        #expect(t.deviceName == "bmp280")  // the barometer's thermometer is preferred
        #expect(abs(t.channels[0].convert(25080) - 25.08) < 1e-12)  // m°C → °C
    }

    @Test func offsetIsAddedBeforeScaling() throws {
        let set = IIODiscovery.select(from: [Snapshots.mpu6050])
        let t = try #require(set.thermometer)
        // mpu6050 temperature: (raw + 12420) × 2.941176 m°C; raw 0 → 36.53 °C.
        #expect(abs(t.channels[0].convert(0) - 12420 * 2.941176 / 1000) < 1e-9)
    }

    @Test func findsEveryMountMatrixVariant() throws {
        let mpu = IIODiscovery.select(from: [Snapshots.mpu6050])
        #expect(mpu.accelerometer?.mountMatrixSource == "in_accel_mount_matrix")
        #expect(mpu.accelerometer?.mountMatrix == MountMatrix(kernelText: Snapshots.rotated))
        #expect(mpu.gyroscope?.mountMatrixSource == "in_anglvel_mount_matrix")
        #expect(mpu.gyroscope?.mountMatrix == .identity)
        let bmi = IIODiscovery.select(from: [Snapshots.bmi160])
        #expect(bmi.accelerometer?.mountMatrixSource == "in_mount_matrix")
        #expect(bmi.gyroscope?.mountMatrix == MountMatrix(kernelText: Snapshots.rotated))
        let lsm = IIODiscovery.select(from: [Snapshots.lsmAccel, Snapshots.lsmGyro])
        #expect(lsm.accelerometer?.mountMatrixSource == "mount_matrix")
        #expect(lsm.gyroscope?.mountMatrixSource == "none")
        var plain = Snapshots.lsmGyro
        plain.attributes["in_anglvel_mount_matrix"] = Snapshots.rotated
        #expect(IIODiscovery.select(from: [plain]).gyroscope?.mountMatrixSource == "in_anglvel_mount_matrix")
    }

    @Test func mountMatrixMapsChipToDevice() throws {
        // "0, 1, 0; -1, 0, 0; 0, 0, 1": device x = chip y, device y = −chip x.
        let m = try #require(MountMatrix(kernelText: Snapshots.rotated))
        #expect(m.apply(Vector3(1, 0, 0)) == Vector3(0, -1, 0))
        #expect(m.apply(Vector3(0, 1, 0)) == Vector3(1, 0, 0))
    }

    @Test func pairsSplitIMUByStem() throws {
        let set = IIODiscovery.select(from: [Snapshots.lsmGyro, Snapshots.lsmAccel], names: ["lsm6dsl"])
        #expect(set.accelerometer?.deviceName == "lsm6dsl_accel")
        #expect(set.gyroscope?.deviceName == "lsm6dsl_gyro")
        #expect(set.deviceNames == ["lsm6dsl_accel", "lsm6dsl_gyro"])
        #expect(IIODiscovery.stem("lsm6dsl_gyro") == "lsm6dsl" && IIODiscovery.stem("mpu6050") == "mpu6050")
    }

    @Test func defaultPrefersAnIMUWithGyroscopeAndAddsTheBarometer() {
        let accelOnly = IIODeviceDescription(id: "iio:device9", name: "lis3dh", channels: Snapshots.axes("accel", scale: "0.009806"))
        let set = IIODiscovery.select(from: [accelOnly] + Snapshots.all)
        #expect(set.accelerometer?.deviceName == "mpu6050")
        #expect(set.barometer?.deviceName == "bmp280")
        #expect(set.capabilities == SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true, thermometer: true))
        #expect(IIODiscovery.select(from: [accelOnly]).gyroscope == nil)
    }

    @Test func unknownNameSelectsNothingAndIncompleteAxesAreNoSensor() {
        #expect(IIODiscovery.select(from: Snapshots.all, names: ["adxl345"]).isEmpty)
        let twoAxes = IIODeviceDescription(id: "d", name: "half", channels: Array(Snapshots.axes("accel", scale: "1").prefix(2)))
        #expect(IIODiscovery.select(from: [twoAxes]).isEmpty)
    }

    @Test func captureModeSaysWhy() {
        let spec = IIOSourceSpec()
        let mpu = IIODiscovery.select(from: Snapshots.all, names: ["mpu6050"])
        #expect(IIOCaptureMode.choose(mpu, devices: Snapshots.all, spec: spec).reason.hasPrefix("no buffer"))
        let bmi = IIODiscovery.select(from: Snapshots.all, names: ["bmi160"])
        let none = IIOCaptureMode.choose(bmi, devices: Snapshots.all, spec: spec)
        #expect(none.kind == .polled && none.reason.hasPrefix("no trigger"))
        let withTrigger = IIOCaptureMode.choose(bmi, devices: Snapshots.all, spec: IIOSourceSpec(trigger: "imukit-tick"))
        #expect(withTrigger.kind == .buffered && withTrigger.attachTrigger == "imukit-tick")
        let missing = IIOCaptureMode.choose(bmi, devices: Snapshots.all, spec: IIOSourceSpec(trigger: "nope"))
        #expect(missing.kind == .polled && missing.reason == "trigger nope not found")
        let forced = IIOCaptureMode.choose(bmi, devices: Snapshots.all, spec: IIOSourceSpec(trigger: "imukit-tick", forcePolled: true))
        #expect(forced.kind == .polled)
        let lsm = IIODiscovery.select(from: Snapshots.all, names: ["lsm6dsl"])
        #expect(IIOCaptureMode.choose(lsm, devices: Snapshots.all, spec: spec).kind == .polled)
    }
}
