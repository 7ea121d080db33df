import FoundationEssentials

/// What sysfs says about I²C adapters and the kernel drivers bound to their addresses
/// (Documentation/ABI/testing/sysfs-bus-i2c-devices: /sys/bus/i2c/devices/N-00AA/driver).
public struct SysfsI2C: Sendable {
    public var root: String
    public var devRoot: String

    public init(root: String = "/sys", devRoot: String = "/dev") {
        self.root = root
        self.devRoot = devRoot
    }

    /// The bus numbers of /dev/i2c-N nodes, ascending.
    public func adapterNumbers() -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devRoot)) ?? []
        return names.compactMap { $0.hasPrefix("i2c-") ? Int($0.dropFirst("i2c-".count)) : nil }.sorted()
    }

    /// Adapter name, e.g. "bcm2835 (i2c@7e804000)" or "SMBus stub driver".
    public func adapterName(bus: Int) -> String? {
        read("\(root)/class/i2c-adapter/i2c-\(bus)/name") ?? read("\(root)/bus/i2c/devices/i2c-\(bus)/name")
    }

    /// The sysfs device directory for `address` on `bus`: "1-0068", the bus and four hex digits
    /// (the i2c core's "%d-%04x" device name).
    func deviceName(bus: Int, address: UInt8) -> String {
        let hex = String(address, radix: 16)
        return "\(bus)-" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// The kernel driver bound to the address and its IIO device ("iio:device0 (mpu6050)"), if any.
    public func owner(bus: Int, address: UInt8) -> (driver: String?, iioDevice: String?) {
        let dir = "\(root)/bus/i2c/devices/\(deviceName(bus: bus, address: address))"
        let driver = (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/driver"))
            .map { String($0.split(separator: "/").last ?? Substring($0)) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let iio = entries.filter { $0.hasPrefix("iio:device") }.sorted().map { entry -> String in
            if let name = read("\(dir)/\(entry)/name") { return "\(entry) (\(name))" }
            return entry
        }
        return (driver, iio.isEmpty ? nil : iio.joined(separator: ", "))
    }

    private func read(_ path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let trimmed = text.trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }
}
