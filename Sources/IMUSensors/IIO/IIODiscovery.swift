/// One quantity found on one IIO device, ready to read: channels, conversions, mount matrix.
public struct IIOSensor: Sendable, Equatable {
    public var deviceID: String
    public var deviceName: String
    public var quantity: IIOQuantity
    /// Three conversions (x, y, z) for vectors, one for scalars.
    public var channels: [IIOChannelConversion]
    /// The kernel's chip-to-device matrix (`device = M · chip`); identity when the kernel gives none.
    public var mountMatrix: MountMatrix
    /// Which attribute the matrix came from ("in_accel_mount_matrix", "in_mount_matrix",
    /// "mount_matrix") or "none".
    public var mountMatrixSource: String
    /// Whether channels are scan elements (a buffer can carry them).
    public var scanCapable: Bool
}

/// The sensors of one source: an IMU (one device, or an `_accel`/`_gyro` pair), a barometer,
/// a thermometer. Any may be missing.
public struct IIOSensorSet: Sendable, Equatable {
    public var accelerometer: IIOSensor?
    public var gyroscope: IIOSensor?
    public var barometer: IIOSensor?
    public var thermometer: IIOSensor?

    public var all: [IIOSensor] { [accelerometer, gyroscope, barometer, thermometer].compactMap { $0 } }
    public var isEmpty: Bool { all.isEmpty }
    public var capabilities: SensorCapabilities {
        SensorCapabilities(accelerometer: accelerometer != nil, gyroscope: gyroscope != nil,
                           barometer: barometer != nil, thermometer: thermometer != nil)
    }
    /// Distinct device names in use, IMU first: "mpu6050+bmp280".
    public var deviceNames: [String] {
        var names: [String] = []
        for s in all where !names.contains(s.deviceName) { names.append(s.deviceName) }
        return names
    }
}

/// Finds sensors in a context snapshot. Pure: no libiio calls, so it is unit-tested on snapshots.
public enum IIODiscovery {
    /// Every quantity each device offers, in device order.
    public static func sensors(in devices: [IIODeviceDescription]) -> [IIOSensor] {
        devices.filter { !$0.isTrigger }.flatMap { d in IIOQuantity.allCases.compactMap { sensor(d, $0) } }
    }

    /// The device-name stem that pairs split IMUs: "lsm6dsl_accel" and "lsm6dsl_gyro" → "lsm6dsl".
    public static func stem(_ name: String) -> String {
        for suffix in ["_accel", "_gyro"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// Chooses the sensors of one source. With `names` empty: the first device with both an
    /// accelerometer and a gyroscope (or an accelerometer and a gyroscope sharing a stem), else the
    /// first accelerometer; then the first barometer and a thermometer (the barometer's, which sits
    /// in air, else the IMU's). With names: only devices whose name or stem is listed.
    public static func select(from devices: [IIODeviceDescription], names: [String] = []) -> IIOSensorSet {
        var found = sensors(in: devices)
        if !names.isEmpty {
            found = found.filter { names.contains($0.deviceName) || names.contains(stem($0.deviceName)) }
        }
        let accels = found.filter { $0.quantity == .acceleration }
        let gyros = found.filter { $0.quantity == .angularRate }
        func gyro(for a: IIOSensor) -> IIOSensor? {
            gyros.first { $0.deviceID == a.deviceID } ?? gyros.first { stem($0.deviceName) == stem(a.deviceName) }
        }
        var set = IIOSensorSet()
        if let a = accels.first(where: { gyro(for: $0) != nil }) ?? accels.first {
            set.accelerometer = a
            set.gyroscope = gyro(for: a)
        } else {
            set.gyroscope = gyros.first
        }
        set.barometer = found.first { $0.quantity == .pressure }
        let temps = found.filter { $0.quantity == .temperature }
        set.thermometer = temps.first { $0.deviceID == set.barometer?.deviceID }
            ?? temps.first { $0.deviceID == set.accelerometer?.deviceID || $0.deviceID == set.gyroscope?.deviceID }
        return set
    }

    /// The quantity `q` on device `d`, or nil when the device lacks any of its channels.
    static func sensor(_ d: IIODeviceDescription, _ q: IIOQuantity) -> IIOSensor? {
        let ids: [String]
        if q.isVector {
            ids = q.axisChannelIDs
            guard ids.allSatisfy({ d.channel($0) != nil }) else { return nil }
        } else {
            guard let id = q.axisChannelIDs.first(where: { d.channel($0) != nil }) else { return nil }
            ids = [id]
        }
        var conversions: [IIOChannelConversion] = []
        for id in ids {
            guard let c = d.channel(id), let conv = conversion(c, q) else { return nil }
            conversions.append(conv)
        }
        let (matrix, source) = q.isVector ? mountMatrix(d, q) : (MountMatrix.identity, "none")
        return IIOSensor(deviceID: d.id, deviceName: d.name, quantity: q, channels: conversions,
                         mountMatrix: matrix, mountMatrixSource: source,
                         scanCapable: d.bufferCapable && ids.allSatisfy { d.channel($0)?.scanType != nil })
    }

    /// raw + offset + scale when the channel has `raw`; else the processed `input`.
    static func conversion(_ c: IIODeviceDescription.Channel, _ q: IIOQuantity) -> IIOChannelConversion? {
        if c.attributes["raw"] != nil {
            let scale = c.attributes["scale"].flatMap(DecimalParser.parse) ?? 1
            let offset = c.attributes["offset"].flatMap(DecimalParser.parse) ?? 0
            return IIOChannelConversion(channel: c.id, attribute: "raw", offset: offset, scale: scale, unitFactor: q.unitFactor)
        }
        if c.attributes["input"] != nil {
            return IIOChannelConversion(channel: c.id, attribute: "input", offset: 0, scale: 1, unitFactor: q.unitFactor)
        }
        return nil
    }

    /// The mount matrix in whichever variant the driver uses, most specific first:
    /// in_accel_mount_matrix / in_anglvel_mount_matrix (libiio: channel attribute `mount_matrix`),
    /// in_mount_matrix (libiio: channel `mount`, attribute `matrix`), then a device attribute.
    static func mountMatrix(_ d: IIODeviceDescription, _ q: IIOQuantity) -> (MountMatrix, String) {
        if let text = d.channel(q.axisChannelIDs[0])?.attributes["mount_matrix"], let m = MountMatrix(kernelText: text) {
            return (m, "in_\(q.channelStem)_mount_matrix")
        }
        if let text = d.attributes["in_\(q.channelStem)_mount_matrix"], let m = MountMatrix(kernelText: text) {
            return (m, "in_\(q.channelStem)_mount_matrix")
        }
        if let text = d.channel("mount")?.attributes["matrix"], let m = MountMatrix(kernelText: text) {
            return (m, "in_mount_matrix")
        }
        for name in ["in_mount_matrix", "mount_matrix"] {
            if let text = d.attributes[name], let m = MountMatrix(kernelText: text) { return (m, name) }
        }
        return (.identity, "none")
    }
}
