import Foundation
import Testing
import IMUSensors
import ChipEmulators

/// Whether a source that failed is worth opening again later (`RetryableError`, the rule in
/// Sources/IMUCore/Sample/RetryableError.swift): what imu-stepd's supervisor decides by.
@Suite("Permanent and transient source errors")
struct RetryableErrorTests {
    /// Opening through the I²C backend, on an emulated bus: each failure as the supervisor meets it.
    @Test("I²C opens: a kernel-owned address, a wrong chip and a bad spec are permanent; permission, nothing answering and a missing adapter are not")
    func i2cOpens() {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1")
        bus.setKernelOwned(0x68, driver: "inv-mpu6050-i2c", iioDevice: "iio:device0 (mpu6050)")
        bus.attach(at: 0x77) { EmulatedChip(motion: Motions.still) }   // answers, with no known chip ID
        let backend = I2CBackend(environment: I2CBackendTests().environment(["/dev/i2c-1": bus], denied: ["/dev/i2c-5"]))
        let expected: [(spec: String, permanent: Bool)] = [
            ("5@0x68", false),     // EACCES on /dev/i2c-5: udev may not have given it to group i2c yet
            ("1@0x68", true),      // a kernel driver owns the address
            ("1@0x77", true),      // a chip with another ID: wrong chip
            ("1@0x1ff", true),     // not a 7-bit address
            ("1@0x69", false),     // nothing answers: a loose wire, a sensor not powered yet
            ("7@0x68", false),     // no /dev/i2c-7: an adapter that may be plugged in or loaded
        ]
        for (spec, permanent) in expected {
            do {
                _ = try backend.open(spec: spec, options: SourceOptions())
                Issue.record("\(spec) should fail")
            } catch let e as any RetryableError {
                #expect(e.isPermanent == permanent, "\(spec): \(e)")
            } catch {
                Issue.record("\(spec): \(error) does not say whether it is permanent")
            }
        }
    }

    /// Failures mid-run end in `I2CSourceError(.lost)`: the sensor may come back.
    @Test("I²C mid-run: a stuck bus and a gone adapter are transient")
    func i2cMidRun() throws {
        for fault in [BusFault.timeout, .adapterGone] {
            let rig = try PollerRig()
            _ = try rig.run(0.1)
            rig.bus.inject(fault, count: 1000)
            do {
                _ = try rig.run(0.5)
                Issue.record("\(fault): expected the source to fail")
            } catch let e as I2CSourceError {
                #expect(e.reason == .lost && !e.isPermanent, "\(fault): \(e)")
            }
        }
    }

    /// The supervisor's answer (reopen later) and the transfer retry's (again at once) differ
    /// where an adapter went away: neither retries the transfer, both reopen it later.
    @Test("I²C errnos: permanent only for EBUSY and EOPNOTSUPP")
    func i2cErrnos() {
        let table: [(Int32, permanent: Bool, transient: Bool)] = [
            (EACCES, false, false), (EPERM, false, false), (EBUSY, true, false), (EOPNOTSUPP, true, false),
            (ENXIO, false, true), (EREMOTEIO, false, true), (ETIMEDOUT, false, true), (EIO, false, true),
            (ENODEV, false, false), (ENOENT, false, false),
        ]
        for (code, permanent, transient) in table {
            let e = I2CError(errno: code, bus: "/dev/i2c-1", address: 0x68, operation: "read")
            #expect(e.isPermanent == permanent && e.isTransient == transient, "errno \(code): \(e.kind)")
        }
        #expect(!I2CError(kind: .badResponse, bus: "/dev/i2c-1", address: 0x76, operation: "read calibration").isPermanent)
    }

    @Test("IIO: a bad spec and no libiio are permanent; the rest, permission denied included, may mend")
    func iio() {
        do {
            _ = try IIOSourceSpec(parsing: "ip:")
            Issue.record("a spec without a host was accepted")
        } catch let e as IIOError {
            #expect(e.isPermanent, "\(e)")
        } catch {
            Issue.record("\(error)")
        }
        let permanent: [IIOError] = [
            .badSpec("local:/", reason: "r"), .libraryMissing(detail: "d"),
        ]
        let transient: [IIOError] = [
            .permissionDenied(uri: "local:", what: "/sys/bus/iio/devices"),
            .noContext(uri: "local:", errno: ENOENT), .noContext(uri: "ip:board", errno: ECONNREFUSED),
            .timedOut(uri: "ip:board", what: "reading", seconds: 5), .linkLost(uri: "ip:board", what: "reading", errno: EPIPE),
            .noDevice(uri: "local:", name: "mpu6050", found: []), .deviceLost(device: "mpu6050", samplesDelivered: 9, waitedSeconds: 0),
            .ioFailed(device: "mpu6050", what: "read in_accel_x_raw", errno: EIO),
            .badScan(device: "mpu6050", detail: "libiio scan size 14 bytes, scan types give 16"),
        ]
        for e in permanent { #expect(e.isPermanent, "\(e)") }
        for e in transient { #expect(!e.isPermanent, "\(e)") }
    }
}
