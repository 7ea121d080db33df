import Testing
import IMUSensors
import ChipEmulators
import Synchronization

/// Records waits instead of sleeping, and can run an action at the n-th wait.
///
/// The action is `@Sendable`, so it cannot capture the `PollerRig` holding this recorder (the rig's
/// poller is not Sendable): rig → recorder → action → rig was a reference cycle that kept two
/// tests' rigs (bus, chips, poller, drivers: 9.6 kB in 95 allocations) alive until exit, found by
/// LeakSanitizer in `make test-sanitize`. The action captures the bus instead.
final class WaitRecorder: Sendable {
    private struct State {
        var waits: [Double] = []
        var onWait: (@Sendable (Int) -> Void)?
    }
    private let state = Mutex(State())

    /// Every wait so far, in s.
    var waits: [Double] { state.withLock { $0.waits } }
    /// Runs `action` with the count of waits so far at every later wait.
    func onWait(_ action: @escaping @Sendable (Int) -> Void) { state.withLock { $0.onWait = action } }
    /// Records one wait of `seconds`, then runs the action (outside the lock: it may touch the bus).
    func record(_ seconds: Double) {
        let (count, action) = state.withLock { s in
            s.waits.append(seconds)
            return (s.waits.count, s.onWait)
        }
        action?(count)
    }
    /// A sleep function for `RetryPolicy` and `I2CPoller` that records instead of sleeping.
    var sleep: @Sendable (Double) -> Void { { self.record($0) } }
}

/// An IMU (and optionally a barometer) on an emulated bus, behind a poller with recorded waits.
struct PollerRig {
    let bus: EmulatedI2CBus
    let clock: EmulatorClock
    let poller: I2CPoller
    let waits: WaitRecorder

    init(imu: String? = "mpu6050", barometer: String? = nil, fifo: Bool = false,
         motion: @escaping MotionScript = Motions.walk, mount: MountMatrix = .identity) throws {
        let clock = EmulatorClock(start: 50)
        let bus = EmulatedI2CBus(clock: clock)
        let waits = WaitRecorder()
        let retry = RetryPolicy(attempts: 4, initialBackoffSeconds: 0.001, sleep: waits.sleep)
        func driver(_ name: String?) -> (any ChipDriver)? {
            guard let name else { return nil }
            let address = EmulatorCatalog.attach(name, to: bus, motion: motion)
            return ChipCatalog.model(named: name)!.makeDriver(I2CDevice(bus: bus, address: address, retry: retry))
        }
        let poller = I2CPoller(imu: driver(imu), barometer: driver(barometer), mount: mount)
        poller.sleep = waits.sleep
        self.clock = clock
        self.bus = bus
        self.waits = waits
        self.poller = poller
        poller.warn = { _ in }
        try poller.configure(imuRateHz: 100, barometerRateHz: 10, useFIFO: fifo)
    }

    /// Steps the poller over `seconds` of emulator time, at its own schedule.
    func run(_ seconds: Double) throws -> [MotionSample] {
        var out: [MotionSample] = []
        let end = clock.nowNanoseconds + Int64(seconds * 1e9)
        while clock.nowNanoseconds < end {
            out += try poller.step(nowNs: clock.nowNanoseconds)
            let next = max(poller.nextDueNs, clock.nowNanoseconds + 1_000_000)
            clock.advance(Double(min(next, end) - clock.nowNanoseconds) * 1e-9 + 1e-9)
        }
        return out
    }
}

@Suite("I²C fault injection")
struct I2CFaultTests {
    @Test("a NACK burst shorter than the retries is absorbed with backoff; no sample is lost")
    func nackBurst() throws {
        let rig = try PollerRig()
        _ = try rig.run(0.1)
        let waitsBefore = rig.waits.waits.count
        rig.bus.inject(.nack, count: 3, address: 0x68)
        let samples = try rig.run(0.5)
        #expect(samples.count >= 48)
        #expect(Array(rig.waits.waits.dropFirst(waitsBefore)) == [0.001, 0.002, 0.004])
        #expect(rig.poller.recoveries == 0)
    }

    @Test("EIO bursts beyond the retries: the chip is reconfigured and reading resumes")
    func ioErrorRecovers() throws {
        let rig = try PollerRig()
        _ = try rig.run(0.1)
        rig.bus.inject(.io, count: 5, address: 0x68)
        let samples = try rig.run(0.5)
        #expect(rig.poller.recoveries == 1)
        #expect(samples.count >= 40)
        #expect(samples.allSatisfy { $0.acceleration != nil })
    }

    @Test("a stuck bus (ETIMEDOUT forever) ends in a clear error, exit 1, naming the chip and the fix")
    func stuckBus() throws {
        let rig = try PollerRig()
        _ = try rig.run(0.1)
        rig.bus.inject(.timeout, count: 1000)
        do {
            _ = try rig.run(0.5)
            Issue.record("expected the source to fail")
        } catch let e as I2CSourceError {
            #expect(e.reason == .lost)
            #expect(e.exitStatus == .runtimeFailure)
            #expect(e.description.contains("mpu6050 on /dev/i2c-1 @0x68 stopped answering"))
            #expect(e.description.contains("bus stuck"))
            #expect(e.fix?.contains("power-cycle") == true)
        }
    }

    @Test("a device that vanishes and comes back (power-cycled) is reconfigured and read again")
    func vanishAndComeBack() throws {
        let rig = try PollerRig()
        let before = try rig.run(0.2)
        rig.bus.vanish(0x68)
        // It returns during the second reconfiguration wait, with power-on registers (asleep).
        let outerWaits = rig.waits.waits.count
        let bus = rig.bus
        rig.waits.onWait { n in if n == outerWaits + 3 + 2 { bus.reappear(0x68) } }
        let after = try rig.run(0.3)
        #expect(rig.poller.recoveries == 1)
        #expect(!before.isEmpty && after.count >= 25)
        // Readings after recovery follow the motion again (the chip was configured, not left asleep).
        let last = try #require(after.last?.acceleration)
        #expect(abs(last.z - Motions.walk(rig.clock.now).acceleration.z) < 0.1)
    }

    @Test("a device that vanishes for good ends in a clear error after bounded attempts")
    func vanishForGood() throws {
        let rig = try PollerRig()
        _ = try rig.run(0.1)
        rig.bus.vanish(0x68)
        #expect(throws: I2CSourceError.self) { _ = try rig.run(1) }
        #expect(rig.waits.waits.count < 40)
    }

    @Test("a barometer that was put to sleep behind our back (reads 'skipped') is reconfigured and read again")
    func barometerSkippedRecovers() throws {
        let rig = try PollerRig(imu: nil, barometer: "bmp280")
        #expect(try rig.run(1).count >= 10)
        try rig.bus.write(0x76, [0xF4, 0x00])   // sleep mode
        try rig.bus.withChip(at: 0x76, as: BMP280Emulator.self) { $0.setADC(pressure: 0x80000, temperature: 0x80000) }
        let after = try rig.run(1)
        #expect(rig.poller.recoveries == 1)
        #expect(after.count >= 8)
        #expect(after.allSatisfy { abs($0.pressure! - Motions.walk($0.time).pressure) < 0.5 })
    }

    @Test("a barometer that never converts (i2c-stub holding 0x80000) ends in a clear error, not an endless wait")
    func barometerNeverConverts() throws {
        let rig = try PollerRig(imu: nil, barometer: "bmp280")
        try rig.bus.write(0x76, [0xF4, 0x00])
        try rig.bus.withChip(at: 0x76, as: BMP280Emulator.self) { chip in
            chip.setADC(pressure: 0x80000, temperature: 0x80000)
            chip.calibration = bmp280ExampleCalibration
        }
        // Every reconfiguration resets the emulator to "skipped"; keep it asleep so it never converts.
        let bus = rig.bus
        rig.waits.onWait { _ in try? bus.write(0x76, [0xF4, 0x00]) }
        do {
            _ = try rig.run(10)
            Issue.record("expected the source to give up")
        } catch let e as I2CSourceError {
            #expect(e.reason == .lost)
            #expect(e.description.contains("bmp280 on /dev/i2c-1 @0x76 keeps returning impossible data after 3 reconfiguration attempts"))
            #expect(e.description.contains("reconfigure it"))
            #expect(e.fix != nil)
        }
    }

    @Test("the adapter going away is not retried: immediate clear error")
    func adapterGone() throws {
        let rig = try PollerRig()
        _ = try rig.run(0.1)
        rig.bus.inject(.adapterGone)
        do {
            _ = try rig.run(0.2)
            Issue.record("expected failure")
        } catch let e as I2CSourceError {
            #expect(e.description.contains("adapter gone"))
            #expect(e.fix?.contains("modprobe i2c-dev") == true)
        }
        #expect(rig.poller.recoveries == 0)
    }

    @Test("a saturated axis is counted and warned about once, and the value is kept at full scale")
    func saturationReported() throws {
        let spike: MotionScript = { t in MotionTruth(acceleration: Vector3(0, 0, t > 50.2 ? 12 : 1)) }
        let rig = try PollerRig(motion: spike)
        let warnings = WaitRecorder()
        rig.poller.warn = { _ in warnings.record(0) }
        let samples = try rig.run(0.5)
        #expect(rig.poller.saturatedSamples > 20)
        #expect(rig.poller.saturatedAxes == ["az"])
        #expect(warnings.waits.count == 1)
        let clipped = try #require(samples.last?.acceleration?.z)
        #expect(abs(clipped - 32767.0 / 4096) < 0.001)
    }

    @Test("EACCES on open names the group and the udev rule, exit 3")
    func permission() {
        let e = I2CError(errno: 13, bus: "/dev/i2c-1", address: nil, operation: "open")
        #expect(e.kind == .permissionDenied)
        #expect(e.exitStatus == .noSensor)
        #expect(e.fix == "sudo usermod -aG i2c $USER (log out and in), or install udev/60-imukit.rules: sudo make install-udev")
    }

    @Test("EBUSY names the kernel driver and the IIO device to use instead, exit 3")
    func kernelOwnedMessage() {
        let e = I2CError(kind: .ownedByKernel, bus: "/dev/i2c-1", address: 0x68, operation: "claim", errno: 16,
                         kernelDriver: "inv-mpu6050-i2c", iioDevice: "iio:device0 (mpu6050)")
        #expect(e.description == "kernel driver inv-mpu6050-i2c owns 0x68 on /dev/i2c-1: use the IIO device iio:device0 (mpu6050) instead")
        #expect(e.exitStatus == .noSensor)
    }

    @Test("errno meanings (ENXIO, EREMOTEIO, ETIMEDOUT, EACCES, ENODEV, EIO, EBUSY)")
    func errnoMeanings() {
        let table: [(Int32, I2CError.Kind)] = [(6, .noAcknowledge), (121, .noAcknowledge), (110, .busStuck),
                                               (13, .permissionDenied), (19, .adapterGone), (2, .noSuchAdapter), (5, .io), (16, .ownedByKernel)]
        for (e, kind) in table { #expect(I2CError.kind(forErrno: e) == kind, "errno \(e)") }
    }
}
