import Foundation
import Testing
import IMUSensors
import ChipEmulators

@Suite("I²C source: merging, timestamps, mount matrix")
struct I2CSourceTests {
    @Test("an IMU at 100 Hz and a barometer at ~13 Hz merge: pressure only on samples where it was read")
    func mergesImuAndBarometer() throws {
        let rig = try PollerRig(imu: "mpu6050", barometer: "bmp280")
        let samples = try rig.run(2)
        #expect(samples.count >= 195 && samples.count <= 205)
        #expect(samples.allSatisfy { $0.acceleration != nil && $0.rotationRate != nil })
        let withPressure = samples.filter { $0.pressure != nil }
        let baroRate = rig.poller.barometer!.outputRateHz
        #expect(abs(Double(withPressure.count) - 2 * baroRate) <= 2, "\(withPressure.count) pressure samples at \(baroRate) Hz")
        for s in withPressure {
            #expect(abs(s.pressure! - Motions.walk(s.time).pressure) < 0.1)
        }
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.time > a.time) }
    }

    @Test("a barometer alone yields pressure-only samples")
    func barometerOnly() throws {
        let rig = try PollerRig(imu: nil, barometer: "lps22hb")
        let samples = try rig.run(1)
        #expect(samples.count >= 8)
        #expect(samples.allSatisfy { $0.pressure != nil && $0.acceleration == nil })
    }

    @Test("the mount matrix maps chip axes to the device frame")
    func mountMatrix() throws {
        let tilted: MotionScript = { _ in MotionTruth(acceleration: Vector3(0.5, 0, 1), rotationRate: Vector3(0.2, 0, 0)) }
        let mount = try #require(MountMatrix(kernelText: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        let rig = try PollerRig(motion: tilted, mount: mount)
        let s = try #require(try rig.run(0.2).last)
        let a = try #require(s.acceleration), g = try #require(s.rotationRate)
        #expect(abs(a.x) < 0.01 && abs(a.y + 0.5) < 0.01 && abs(a.z - 1) < 0.01)
        #expect(abs(g.y + 0.2) < 0.01)
    }

    @Test("FIFO: two transactions per batch (count + data), far below one per sample set", arguments: ["mpu6050", "icm42688", "bmi160", "lsm6ds3", "lsm6dso"])
    func fifoTransactions(name: String) throws {
        let rig = try PollerRig(imu: name, fifo: true)
        let before = rig.bus.transactionCount
        let seconds = 2.0
        let samples = try rig.run(seconds)
        let transactions = rig.bus.transactionCount - before
        let rate = try #require(rig.poller.imu).outputRateHz
        let period = rig.poller.imuPeriodSeconds
        // Drained when half full, at most once per hand-over; what arrived after the last drain waits in the FIFO.
        #expect(period <= HandOver.seconds && period >= 0.1, "\(name): drained every \(period) s")
        #expect(Double(samples.count) >= (seconds - period) * rate - 2, "\(name): \(samples.count) samples")
        let drains = (seconds / period).rounded(.up) + 1
        #expect(Double(transactions) <= 2 * drains, "\(name): \(transactions) transactions for \(samples.count) samples")
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.time > a.time) }
    }

    @Test("FIFO timestamps: newest at read time, older ones spread back at the rate")
    func fifoTimestamps() {
        var ts = FIFOTimestamper(nominalRateHz: 100)
        let t = ts.times(count: 5, readNs: 10_000_000_000)
        #expect(t.count == 5)
        #expect(abs(t[4] - 10) < 1e-9)
        #expect(abs(t[0] - 9.96) < 1e-9)
        // Exactly 10 readings per 0.1 s: the measured rate is the nominal one.
        var now: Int64 = 10_000_000_000
        for _ in 0..<30 {
            now += 100_000_000
            _ = ts.times(count: 10, readNs: now)
        }
        #expect(abs(ts.rateHz - 100) < 1e-6)
        // A chip running 5 % fast: the measured rate takes over after the minimum span.
        var fast = FIFOTimestamper(nominalRateHz: 100)
        now = 0
        _ = fast.times(count: 1, readNs: now)
        for i in 0..<30 {
            now += 100_000_000
            _ = fast.times(count: i % 2 == 0 ? 10 : 11, readNs: now)
        }
        #expect(abs(fast.rateHz - 105) < 0.5, "measured \(fast.rateHz)")
    }

    @Test("FIFO timestamps never go backwards, even when a read comes early")
    func fifoTimestampsMonotonic() {
        var ts = FIFOTimestamper(nominalRateHz: 100)
        let a = ts.times(count: 10, readNs: 1_000_000_000)
        let b = ts.times(count: 10, readNs: 1_020_000_000)   // 10 readings in 20 ms: overlap
        #expect(b[0] > a[9])
        for (x, y) in zip(b, b.dropFirst()) { #expect(y > x) }
    }
}

@Suite("I²C spec and backend")
struct I2CBackendTests {
    @Test("spec forms")
    func specs() throws {
        #expect(try I2CSpec(parsing: "/dev/i2c-1@0x68") == I2CSpec(busPath: "/dev/i2c-1", addresses: [0x68]))
        #expect(try I2CSpec(parsing: "1@0x68,0x76") == I2CSpec(busPath: "/dev/i2c-1", addresses: [0x68, 0x76]))
        #expect(try I2CSpec(parsing: "0") == I2CSpec(busPath: "/dev/i2c-0", addresses: []))
        #expect(try I2CSpec(parsing: "") == I2CSpec(busPath: nil, addresses: []))
        for bad in ["1@0x80", "1@zz", "foo", "@0x68", "1@0x68@0x69", "1@"] {
            #expect(throws: I2CSourceError.self) { _ = try I2CSpec(parsing: bad) }
            do { _ = try I2CSpec(parsing: bad) } catch { #expect(error.exitStatus == .usage) }
        }
    }

    func environment(_ buses: [String: EmulatedI2CBus], denied: Set<String> = []) -> I2CEnvironment {
        I2CEnvironment(adapters: { Array(buses.keys).sorted() + denied.sorted() },
                       adapterName: { _ in "emulated adapter" },
                       open: { path throws(I2CError) in
                           if denied.contains(path) { throw I2CError(errno: 13, bus: path, address: nil, operation: "open") }
                           guard let b = buses[path] else { throw I2CError(errno: 2, bus: path, address: nil, operation: "open") }
                           return b
                       })
    }

    @Test("inventory: adapter, chips with id and driver, kernel-owned with IIO device, empty bus, permission")
    func inventory() {
        let bus1 = EmulatedI2CBus(path: "/dev/i2c-1")
        EmulatorCatalog.attach("mpu6050", to: bus1)
        EmulatorCatalog.attach("bmp280", to: bus1)
        bus1.setKernelOwned(0x6A, driver: "st_lsm6dsx_i2c", iioDevice: "iio:device2 (lsm6ds3)")
        let bus2 = EmulatedI2CBus(path: "/dev/i2c-2")
        let items = I2CBackend(environment: environment(["/dev/i2c-1": bus1, "/dev/i2c-2": bus2], denied: ["/dev/i2c-3"])).inventory()
        #expect(items.contains(InventoryItem(kind: .chip, name: "mpu6050", location: "/dev/i2c-1 @0x68",
                                             details: [("id", "0x68"), ("driver", "imukit-mpu6050"), ("kind", "imu"), ("fifo", "yes")])))
        #expect(items.contains { $0.kind == .chip && $0.name == "bmp280" && $0.location == "/dev/i2c-1 @0x76" })
        #expect(items.contains { $0.kind == .kernelOwned && $0.name == "st_lsm6dsx_i2c" && $0.fix == "read it through IIO: --source iio:local:/lsm6ds3" })
        #expect(items.contains { $0.kind == .problem && $0.location == "/dev/i2c-2" && $0.fix == I2CFixes.emptyBus })
        #expect(items.contains { $0.kind == .problem && $0.location == "/dev/i2c-3" && $0.fix == I2CFixes.permission })
        #expect(items.filter { $0.kind == .adapter }.map(\.location) == ["/dev/i2c-1", "/dev/i2c-2"])
    }

    @Test("no adapters at all: one problem that names how to enable I²C")
    func noAdapters() {
        let items = I2CBackend(environment: environment([:])).inventory()
        #expect(items.count == 1)
        #expect(items[0].kind == .problem)
        #expect(items[0].fix?.contains("raspi-config nonint do_i2c 0") == true)
    }

    @Test("--bus N with no such adapter: the location names /dev/i2c-N, the fix names the adapters that exist")
    func missingBus() {
        let items = I2CBackend(buses: [1023], environment: environment(["/dev/i2c-1": EmulatedI2CBus(path: "/dev/i2c-1")])).inventory()
        #expect(items == [InventoryItem(kind: .problem, name: "no such I²C adapter", location: "/dev/i2c-1023",
                                        fix: "this machine has /dev/i2c-1: name one, e.g. --bus 1, or leave out --bus to scan them all")])
        let none = I2CBackend(buses: [3, 5], environment: environment([:])).inventory()
        #expect(none.count == 1 && none[0].location == "/dev/i2c-3, /dev/i2c-5" && none[0].name == "no such I²C adapter")
        #expect(none[0].fix?.contains("modprobe i2c-dev") == true)
    }

    @Test("openDefault picks the IMU and the barometer; open(spec) opens named addresses")
    func opening() throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1", clock: EmulatorClock.boot())
        EmulatorCatalog.attach("adxl345", to: bus)
        EmulatorCatalog.attach("lsm6dsl", to: bus)
        EmulatorCatalog.attach("bmp280", to: bus)
        let backend = I2CBackend(environment: environment(["/dev/i2c-1": bus]))
        let source = try #require(try backend.openDefault(options: SourceOptions(rateHz: 50)))
        #expect(source.info.name == "lsm6dsl + bmp280 on /dev/i2c-1 @0x6a,0x76")
        #expect(source.info.capabilities == SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true, thermometer: true))
        #expect(source.info.calibrationKey == "i2c-1-0x6a-lsm6dsl")
        let named = try backend.open(spec: "1@0x53", options: SourceOptions())
        #expect(named.info.name == "adxl345 on /dev/i2c-1 @0x53")
    }

    @Test("mount matrix: --mount wins over mount.conf, which is looked up by source key, then chip name")
    func mountConfigFile() throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1")
        EmulatorCatalog.attach("mpu6050", to: bus)
        let path = NSTemporaryDirectory() + "imukit-mount-\(getpid()).conf"
        try "mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let backend = I2CBackend(environment: environment(["/dev/i2c-1": bus]), mountConfigPath: path)
        let fromFile = try #require(try backend.open(spec: "1@0x68", options: SourceOptions()) as? I2CSampleSource)
        #expect(fromFile.mount == MountMatrix(kernelText: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
        let flag = MountMatrix(kernelText: "-1, 0, 0; 0, -1, 0; 0, 0, 1")!
        let fromFlag = try #require(try backend.open(spec: "1@0x68", options: SourceOptions(mountMatrix: flag)) as? I2CSampleSource)
        #expect(fromFlag.mount == flag)
        let none = I2CBackend(environment: environment(["/dev/i2c-1": bus]), mountConfigPath: path + ".absent")
        #expect((try none.open(spec: "1@0x68", options: SourceOptions()) as? I2CSampleSource)?.mount == .identity)
    }

    @Test("open errors: nothing at the address (exit 3), kernel-owned (exit 3, IIO named), unsupported device (exit 3), permission (exit 3)")
    func openErrors() throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1")
        EmulatorCatalog.attach("mpu6050", to: bus)
        bus.setKernelOwned(0x68, driver: "inv-mpu6050-i2c", iioDevice: "iio:device0 (mpu6050)")
        bus.attach(at: 0x77) { EmulatedChip(motion: Motions.still) }
        let backend = I2CBackend(environment: environment(["/dev/i2c-1": bus], denied: ["/dev/i2c-5"]))
        for spec in ["1@0x69", "1@0x68", "1@0x77", "5@0x68", "1"] {
            do {
                _ = try backend.open(spec: spec, options: SourceOptions())
                Issue.record("\(spec) should fail")
            } catch let e as any DiagnosableError {
                #expect(e.exitStatus == .noSensor, "\(spec): \(e)")
                if spec == "1@0x68" { #expect(e.description.contains("use the IIO device iio:device0 (mpu6050)")) }
            } catch {
                Issue.record("\(spec): \(error)")
            }
        }
        #expect(try bus.withChip(at: 0x77) { $0.writes.isEmpty })
    }

    @Test("the live stream delivers batches from an emulated bus and stops on cancel")
    func liveStream() async throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1", clock: EmulatorClock.boot())
        EmulatorCatalog.attach("mpu6050", to: bus, motion: Motions.walk)
        let backend = I2CBackend(environment: environment(["/dev/i2c-1": bus]))
        let source = try backend.open(spec: "1@0x68", options: SourceOptions(rateHz: 200))
        var count = 0
        for try await batch in source.batches() {
            // The capture thread says how it times the samples before it hands the first over.
            #expect(source.timing == .fifo, "the MPU-6050's FIFO")
            count += batch.count
            if count >= 20 { break }
        }
        #expect(count >= 20)
    }

    @Test("without its FIFO (--no-fifo) the same chip's samples are timed as polled")
    func timingWithoutFIFO() async throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1", clock: EmulatorClock.boot())
        EmulatorCatalog.attach("mpu6050", to: bus, motion: Motions.walk)
        let backend = I2CBackend(environment: environment(["/dev/i2c-1": bus]), useFIFO: false)
        let source = try backend.open(spec: "1@0x68", options: SourceOptions(rateHz: 200))
        #expect(source.timing == nil, "nothing is known before the capture starts")
        for try await _ in source.batches() { break }
        #expect(source.timing == .polled)
        #expect(source.timing?.clockLine?.contains("polled") == true)
    }
}

@Suite("A plain register file (i2c-stub) instead of a chip")
struct I2CStubLikeTests {
    /// What the kernel ring's i2c-stub holds: MPU-6050 WHO_AM_I and accel Z = 0x1000 (1 g at ±8 g),
    /// no reset, no conversions, no FIFO.
    func stubBus() -> EmulatedI2CBus {
        let bus = EmulatedI2CBus(path: "/dev/i2c-0", clock: EmulatorClock(start: 10))
        bus.attach(at: 0x68) {
            let stub = EmulatedChip(motion: Motions.still)
            stub.registers[0x75] = 0x68
            stub.registers[0x3F] = 0x10
            return stub
        }
        return bus
    }

    @Test("the chip is identified, the empty FIFO is abandoned after 1 s, and the data registers are read")
    func fifoSilenceFallsBackToDirectReads() throws {
        let bus = stubBus()
        let driver = ChipCatalog.model(named: "mpu6050")!.makeDriver(I2CDevice(bus: bus, address: 0x68, retry: EmulatorCatalog.noSleep))
        let poller = I2CPoller(imu: driver, barometer: nil)
        let warnings = WaitRecorder()
        poller.warn = { _ in warnings.record(1) }
        poller.sleep = { _ in }
        try poller.configure(imuRateHz: 100, useFIFO: true)
        #expect(driver.usesFIFO)
        var samples: [MotionSample] = []
        for _ in 0..<40 {
            samples += try poller.step(nowNs: bus.clock.nowNanoseconds)
            bus.clock.advance(0.05)
        }
        #expect(warnings.waits.count == 1)
        #expect(!driver.usesFIFO)
        #expect(poller.sampleTiming == .polled, "a recording's clock line follows the fallback")
        #expect(samples.count >= 10)
        #expect(samples.allSatisfy { abs(($0.acceleration?.z ?? 0) - 1) < 1e-9 })
    }
}

@Suite("sysfs and i2c-dev on this machine")
struct I2CSysfsTests {
    @Test("the kernel driver and IIO device bound to an address are read from sysfs")
    func ownerFromSysfs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-sysfs-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dev = root + "/bus/i2c/devices/1-0068"
        try FileManager.default.createDirectory(atPath: dev + "/iio:device3", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/bus/i2c/drivers/inv-mpu6050-i2c", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dev + "/driver", withDestinationPath: "../../../../bus/i2c/drivers/inv-mpu6050-i2c")
        try "mpu6050\n".write(toFile: dev + "/iio:device3/name", atomically: true, encoding: .utf8)
        let owner = SysfsI2C(root: root).owner(bus: 1, address: 0x68)
        #expect(owner.driver == "inv-mpu6050-i2c")
        #expect(owner.iioDevice == "iio:device3 (mpu6050)")
        #expect(I2CFixes.readThroughIIO(owner.iioDevice) == "read it through IIO: --source iio:local:/mpu6050")
        let none = SysfsI2C(root: root).owner(bus: 1, address: 0x69)
        #expect(none.driver == nil && none.iioDevice == nil)
    }

    @Test("opening an adapter that does not exist is 'no such adapter', exit 3, with the fix")
    func missingAdapter() {
        do {
            _ = try LinuxI2CBus(path: "/nonexistent/i2c-42")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .noSuchAdapter)
            #expect(error.exitStatus == .noSensor)
            #expect(error.fix?.contains("i2cdetect -l") == true)
        }
    }
}

@Suite("I²C inventory of one spec")
struct I2CSpecInventoryTests {
    @Test("only the named addresses, and a problem line for one with nothing there")
    func scoped() throws {
        let bus = EmulatedI2CBus(path: "/dev/i2c-1")
        EmulatorCatalog.attach("mpu6050", to: bus)
        EmulatorCatalog.attach("bmp280", to: bus)
        let env = I2CEnvironment(adapters: { ["/dev/i2c-1"] }, adapterName: { _ in nil }, open: { _ throws(I2CError) in bus })
        let items = try I2CBackend(environment: env).inventory(spec: "1@0x68,0x69")
        #expect(items.map(\.kind) == [.adapter, .chip, .problem])
        #expect(items[1].name == "mpu6050")
        #expect(items[2].location == "/dev/i2c-1 @0x69" && items[2].fix == "check wiring and the address: i2cdetect -y 1")
    }
}
