import Foundation
import IMUSensors

/// One emulator per supported chip model, with the address it answers at, so tests and the
/// benchmark can loop over every chip.
public enum EmulatorCatalog {
    public static let names = ["mpu6050", "mpu9150", "mpu6500", "mpu9250", "icm42688", "bmi160", "lsm6ds3", "lsm6dsl",
                               "lsm6dso", "lsm9ds1", "adxl345", "lis3dh", "bmp280", "bme280", "bmp388", "bmp390", "lps22hb", "lps25h", "dps310"]

    /// Attaches the emulator for `name` to `bus` at its first address; returns it and the address.
    @discardableResult
    public static func attach(_ name: String, to bus: EmulatedI2CBus, motion: @escaping MotionScript = Motions.still,
                              address: UInt8? = nil) -> (EmulatedChip, UInt8) {
        let (chip, defaultAddress): (EmulatedChip, UInt8)
        switch name {
        case "mpu6050": (chip, defaultAddress) = (MPUEmulator(whoAmI: 0x68, motion: motion), 0x68)
        case "mpu9150":
            let mpu = MPUEmulator(whoAmI: 0x68, motion: motion)
            bus.attach(AK8975Emulator(host: mpu), at: 0x0C)
            (chip, defaultAddress) = (mpu, 0x68)
        case "mpu6500": (chip, defaultAddress) = (MPUEmulator(whoAmI: 0x70, motion: motion), 0x68)
        case "mpu9250": (chip, defaultAddress) = (MPUEmulator(whoAmI: 0x71, motion: motion), 0x68)
        case "icm42688": (chip, defaultAddress) = (ICM42688Emulator(motion: motion), 0x68)
        case "bmi160": (chip, defaultAddress) = (BMI160Emulator(motion: motion), 0x69)
        case "lsm6ds3": (chip, defaultAddress) = (LSM6DSEmulator(whoAmI: 0x69, motion: motion), 0x6A)
        case "lsm6dsl": (chip, defaultAddress) = (LSM6DSEmulator(whoAmI: 0x6A, motion: motion), 0x6A)
        case "lsm6dso": (chip, defaultAddress) = (LSM6DSEmulator(whoAmI: 0x6C, motion: motion), 0x6B)
        case "lsm9ds1": (chip, defaultAddress) = (LSM9DS1Emulator(motion: motion), 0x6B)
        case "adxl345": (chip, defaultAddress) = (ADXL345Emulator(motion: motion), 0x53)
        case "lis3dh": (chip, defaultAddress) = (LIS3DHEmulator(motion: motion), 0x18)
        case "bmp280": (chip, defaultAddress) = (BMP280Emulator(id: 0x58, motion: motion), 0x76)
        case "bme280": (chip, defaultAddress) = (BMP280Emulator(id: 0x60, motion: motion), 0x77)
        case "bmp388": (chip, defaultAddress) = (BMP3Emulator(id: 0x50, motion: motion), 0x77)
        case "bmp390": (chip, defaultAddress) = (BMP3Emulator(id: 0x60, motion: motion), 0x77)
        case "lps22hb": (chip, defaultAddress) = (LPSEmulator(whoAmI: 0xB1, motion: motion), 0x5C)
        case "lps25h": (chip, defaultAddress) = (LPSEmulator(whoAmI: 0xBD, motion: motion), 0x5C)
        case "dps310": (chip, defaultAddress) = (DPS310Emulator(motion: motion), 0x77)
        default: preconditionFailure("no emulator named \(name)")
        }
        let a = address ?? defaultAddress
        bus.attach(chip, at: a)
        return (chip, a)
    }

    /// A retry policy that records waits instead of sleeping (no test sleeps).
    public static let noSleep = RetryPolicy(attempts: 4, initialBackoffSeconds: 0.001, sleep: { _ in })
}
