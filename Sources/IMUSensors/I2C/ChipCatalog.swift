/// Every chip this project reads directly over I²C, as data. Probing walks this table.
public enum ChipCatalog {
    public static let all: [ChipModel] = [
        .mpu(.mpu6050), .mpu(.mpu6500), .mpu(.mpu9250), .icm42688, .bmi160,
        .lsm6ds(.lsm6ds3), .lsm6ds(.lsm6dsl), .lsm6ds(.lsm6dso), .lsm9ds1, .adxl345, .lis3dh,
        .bmp280(.bmp280), .bmp280(.bme280), .bmp3(name: "bmp388", id: 0x50), .bmp3(name: "bmp390", id: 0x60),
        .lps(.lps22hb), .lps(.lps25h), .dps310,
    ]

    /// Models not probed for directly: told apart from a probed model by a second check.
    public static let derived: [ChipModel] = [.mpu(.mpu9150)]

    public static func model(named name: String) -> ChipModel? {
        (all + derived).first { $0.name == name }
    }
}
