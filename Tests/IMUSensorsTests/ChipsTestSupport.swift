import Testing
import IMUSensors
import ChipEmulators

/// A bus with one emulated chip, identified and ready to drive.
struct ChipRig {
    let bus: EmulatedI2CBus
    let clock: EmulatorClock
    let address: UInt8
    let driver: any ChipDriver

    init(_ name: String, motion: @escaping MotionScript = Motions.still) throws {
        clock = EmulatorClock(start: 100)
        bus = EmulatedI2CBus(clock: clock)
        address = EmulatorCatalog.attach(name, to: bus, motion: motion)
        guard case .identified(let model, _) = I2CProber(bus: bus).probe(address) else {
            throw RigError.notIdentified(name)
        }
        driver = model.makeDriver(I2CDevice(bus: bus, address: address, retry: EmulatorCatalog.noSleep))
    }

    enum RigError: Error { case notIdentified(String) }

    /// Runs `body` on the emulated chip, seen as a `type` (under the bus's lock).
    func chip<Chip: EmulatedChip, T: Sendable>(as type: Chip.Type, _ body: (Chip) -> T) throws -> T {
        try bus.withChip(at: address, as: type, body)
    }
    /// The chip's output data rate as its registers say, Hz.
    var chipRateHz: Double { get throws { try chip(as: EmulatedChip.self) { $0.outputRateHz } } }
    /// Conversions the chip has made so far.
    var samplesProduced: Int { get throws { try chip(as: EmulatedChip.self) { $0.samplesProduced } } }

    /// Advances the clock `batches` times by `seconds`, reading after each; returns everything read
    /// and the transactions it took.
    func drain(batches: Int, every seconds: Double) throws -> (readings: [ChipReading], transactions: Int) {
        var all: [ChipReading] = []
        let before = bus.transactionCount
        for _ in 0..<batches {
            clock.advance(seconds)
            all += try driver.readBatch()
        }
        return (all, bus.transactionCount - before)
    }
}

/// Per-model tolerances: one LSB of the configured range is far below these.
enum Tolerance {
    static let accelG = 0.01
    static let gyroRadPerS = 0.01
    static let pressureHPa = 0.05
    static let temperatureC = 0.6
}

let imuNames = ["mpu6050", "mpu9150", "mpu6500", "mpu9250", "icm42688", "bmi160", "lsm6ds3", "lsm6dsl", "lsm6dso", "lsm9ds1", "adxl345", "lis3dh"]
let barometerNames = ["bmp280", "bme280", "bmp388", "bmp390", "lps22hb", "lps25h", "dps310"]
let fifoNames = ["mpu6050", "mpu6500", "mpu9250", "icm42688", "bmi160", "lsm6ds3", "lsm6dsl", "lsm6dso", "lsm9ds1", "adxl345", "lis3dh"]
