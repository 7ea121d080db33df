/// The text after "i2c:" in `--source`: `/dev/i2c-1@0x68`, `1@0x68,0x76`, `1` (scan bus 1), or empty (scan all).
public struct I2CSpec: Sendable, Equatable {
    /// "/dev/i2c-1"; nil = every adapter.
    public var busPath: String?
    /// Addresses to open (an IMU and/or a barometer); empty = scan the bus.
    public var addresses: [UInt8]

    public init(busPath: String?, addresses: [UInt8]) {
        self.busPath = busPath
        self.addresses = addresses
    }

    public init(parsing text: String) throws(I2CSourceError) {
        let example = "e.g. i2c:/dev/i2c-1@0x68 or i2c:1@0x68,0x76"
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw I2CSourceError(.badSpec, "'i2c:\(text)' has more than one '@' (\(example))",
                                                       fix: "write one bus, '@', then the addresses separated by commas: i2c:BUS@ADDRESS[,ADDRESS]") }
        let bus = String(parts[0])
        if bus.isEmpty {
            busPath = nil
        } else if let n = Int(bus), n >= 0 {
            busPath = "/dev/i2c-\(n)"
        } else if bus.hasPrefix("/dev/i2c-"), let n = Int(bus.dropFirst("/dev/i2c-".count)), n >= 0 {
            busPath = bus
        } else {
            throw I2CSourceError(.badSpec, "'\(bus)' is not an I²C bus (\(example))", fix: "list adapters with imu-info or i2cdetect -l")
        }
        addresses = []
        if parts.count == 2 {
            guard busPath != nil else { throw I2CSourceError(.badSpec, "'i2c:\(text)' names addresses without a bus (\(example))",
                                                                fix: "put the bus before '@': its number or /dev/i2c-N (list them with imu-info or i2cdetect -l)") }
            for a in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
                let t = a.lowercased()
                let value = t.hasPrefix("0x") ? Int(t.dropFirst(2), radix: 16) : Int(t)
                // 7-bit addresses 0x03…0x77; the rest are reserved (I²C spec UM10204 §3.1.12).
                guard let v = value, (0x03...0x77).contains(v) else {
                    throw I2CSourceError(.badSpec, "'\(a)' is not a 7-bit I²C address 0x03–0x77 (\(example))", fix: "find addresses with i2cdetect -y BUS")
                }
                // One chip named twice is one chip: refused as the spec is read, naming the
                // address, before any bus is opened.
                guard !addresses.contains(UInt8(v)) else {
                    let hex = I2CAddress.hex(UInt8(v))
                    throw I2CSourceError(.badSpec, "'i2c:\(text)' names address \(hex) twice",
                                         fix: "name each chip once: i2c:\(bus)@\(hex), with a second, different address after a comma for a barometer (e.g. i2c:1@0x68,0x76)")
                }
                addresses.append(UInt8(v))
            }
        }
    }
}
