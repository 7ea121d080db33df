import Foundation
import IMUSensors

/// One emulator per supported chip model, with the address it answers at, so tests and the
/// benchmark can loop over every chip.
public enum EmulatorCatalog {
    public static let names = ["mpu6050", "mpu9150", "mpu6500", "mpu9250", "icm42688", "bmi160", "lsm6ds3", "lsm6dsl",
                               "lsm6dso", "lsm9ds1", "adxl345", "lis3dh", "bmp280", "bme280", "bmp388", "bmp390", "lps22hb", "lps25h", "dps310"]

    /// The address each chip answers at first (its SDO/SA0 pin low, or its only address).
    public static let defaultAddresses: [String: UInt8] = [
        "mpu6050": 0x68, "mpu9150": 0x68, "mpu6500": 0x68, "mpu9250": 0x68, "icm42688": 0x68, "bmi160": 0x69,
        "lsm6ds3": 0x6A, "lsm6dsl": 0x6A, "lsm6dso": 0x6B, "lsm9ds1": 0x6B, "adxl345": 0x53, "lis3dh": 0x18,
        "bmp280": 0x76, "bme280": 0x77, "bmp388": 0x77, "bmp390": 0x77, "lps22hb": 0x5C, "lps25h": 0x5C, "dps310": 0x77,
    ]

    /// Attaches the emulator for `name` to `bus` at `address` (default: its first address); returns
    /// the address. Reach the chip afterwards through `bus.withChip(at:)`.
    @discardableResult
    public static func attach(_ name: String, to bus: EmulatedI2CBus, motion: @escaping MotionScript = Motions.still,
                              address: UInt8? = nil) -> UInt8 {
        guard let a = address ?? defaultAddresses[name] else { preconditionFailure("no emulator named \(name)") }
        bus.attach { chips(name, motion: motion, at: a) }
        return a
    }

    /// The emulator for `name` at `address`, with the chips behind it (the MPU-9150's AK8975 at 0x0C).
    static func chips(_ name: String, motion: @escaping MotionScript, at address: UInt8) -> [UInt8: EmulatedChip] {
        let chip: EmulatedChip
        switch name {
        case "mpu6050": chip = MPUEmulator(whoAmI: 0x68, motion: motion)
        case "mpu9150":
            let mpu = MPUEmulator(whoAmI: 0x68, motion: motion)
            return [address: mpu, 0x0C: AK8975Emulator(host: mpu)]
        case "mpu6500": chip = MPUEmulator(whoAmI: 0x70, motion: motion)
        case "mpu9250": chip = MPUEmulator(whoAmI: 0x71, motion: motion)
        case "icm42688": chip = ICM42688Emulator(motion: motion)
        case "bmi160": chip = BMI160Emulator(motion: motion)
        case "lsm6ds3": chip = LSM6DSEmulator(whoAmI: 0x69, motion: motion)
        case "lsm6dsl": chip = LSM6DSEmulator(whoAmI: 0x6A, motion: motion)
        case "lsm6dso": chip = LSM6DSEmulator(whoAmI: 0x6C, motion: motion)
        case "lsm9ds1": chip = LSM9DS1Emulator(motion: motion)
        case "adxl345": chip = ADXL345Emulator(motion: motion)
        case "lis3dh": chip = LIS3DHEmulator(motion: motion)
        case "bmp280": chip = BMP280Emulator(id: 0x58, motion: motion)
        case "bme280": chip = BMP280Emulator(id: 0x60, motion: motion)
        case "bmp388": chip = BMP3Emulator(id: 0x50, motion: motion)
        case "bmp390": chip = BMP3Emulator(id: 0x60, motion: motion)
        case "lps22hb": chip = LPSEmulator(whoAmI: 0xB1, motion: motion)
        case "lps25h": chip = LPSEmulator(whoAmI: 0xBD, motion: motion)
        case "dps310": chip = DPS310Emulator(motion: motion)
        default: preconditionFailure("no emulator named \(name)")
        }
        return [address: chip]
    }

    /// A retry policy that records waits instead of sleeping (no test sleeps).
    public static let noSleep = RetryPolicy(attempts: 4, initialBackoffSeconds: 0.001, sleep: { _ in })
}
