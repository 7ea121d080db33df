import CLibIIO
#if canImport(Glibc)
import Glibc
#endif

/// Reads the selected sensors one value at a time through attribute reads (sysfs locally, one
/// iiod round trip per channel remotely). Used where no buffer can run, and for the barometer
/// beside a buffered IMU.
///
/// Not `Sendable`: it lives on the source's capture thread.
final class IIOPolledReader {
    let context: IIOContext
    let sensors: IIOSensorSet
    let accelMatrix: MountMatrix
    let gyroMatrix: MountMatrix
    /// libiio channel pointers, resolved once per context (they live as long as the context).
    private var accel: [OpaquePointer] = []
    private var gyro: [OpaquePointer] = []
    private var pressure: [OpaquePointer] = []
    private var temperature: [OpaquePointer] = []

    /// Where pressures outside `BarometerRange` are counted.
    let losses: LossCounter

    /// `rateHz`: sets the IMU devices' output rate to match (nil leaves the devices as they are).
    init(context: IIOContext, sensors: IIOSensorSet, mountOverride: MountMatrix?, rateHz: Double? = nil,
         losses: LossCounter) throws {
        self.losses = losses
        self.context = context
        self.sensors = sensors
        accelMatrix = mountOverride ?? sensors.accelerometer?.mountMatrix ?? .identity
        gyroMatrix = mountOverride ?? sensors.gyroscope?.mountMatrix ?? .identity
        let s = sensors
        let resolved: [[OpaquePointer]] = try context.withContext("finding channels") { ctx in
            try [s.accelerometer, s.gyroscope, s.barometer, s.thermometer].map { sensor in
                guard let sensor else { return [] }
                guard let dev = iio_context_find_device(ctx, sensor.deviceID) ?? iio_context_find_device(ctx, sensor.deviceName) else {
                    throw IIOError.noDevice(uri: context.uri, name: sensor.deviceName, found: [])
                }
                if let rateHz, sensor.quantity.isVector {
                    IIORateSetting.apply(dev, hz: rateHz, channels: sensor.channels.map(\.channel))
                }
                return try sensor.channels.map { c in
                    guard let chn = iio_device_find_channel(dev, c.channel, false) else {
                        throw IIOError.ioFailed(device: sensor.deviceName, what: "finding channel \(c.channel)", errno: ENOENT)
                    }
                    return chn
                }
            }
        }
        accel = resolved[0]; gyro = resolved[1]; pressure = resolved[2]; temperature = resolved[3]
    }

    /// Reads IMU channels, and the barometer and thermometer when `slow` is true. Stamped on
    /// CLOCK_BOOTTIME just after the last IMU read.
    func read(slow: Bool) throws -> MotionSample {
        let s = sensors
        let (a, g, accelM, gyroM) = (accel, gyro, accelMatrix, gyroMatrix)
        let (p, t) = slow ? (pressure, temperature) : ([], [])
        let (losses, uri) = (self.losses, context.uri)
        return try context.withContext("reading \(s.deviceNames.joined(separator: "+"))") { _ in
            var sample = MotionSample(time: 0)
            if let sensor = s.accelerometer {
                sample.acceleration = accelM.apply(try Self.vector(a, sensor))
            }
            if let sensor = s.gyroscope {
                sample.rotationRate = gyroM.apply(try Self.vector(g, sensor))
            }
            sample.time = BootClock.nowSeconds()
            if let sensor = s.barometer, let chn = p.first {
                sample.pressure = sensor.channels[0].convert(try Self.value(chn, sensor, sensor.channels[0]))
            }
            if let sensor = s.thermometer, let chn = t.first {
                sample.temperature = sensor.channels[0].convert(try Self.value(chn, sensor, sensor.channels[0]))
            }
            // Out of range (a driver's glitch, a scale misread): left out and counted, as on I²C.
            // The kernel driver compensated the pressure already, and the temperature may be
            // another chip's (an IMU's die): the pressure alone is checked.
            if let hPa = sample.pressure, let barometer = s.barometer {
                sample.pressure = BarometerRange.screen([hPa], pressure: { $0 }, temperature: { _ in nil },
                                                        chip: "\(barometer.deviceName) on \(uri)", losses: losses,
                                                        warn: CaptureWarning.standardError).first
            }
            return sample
        }
    }

    private static func vector(_ channels: [OpaquePointer], _ sensor: IIOSensor) throws -> Vector3 {
        var v = Vector3.zero
        for i in 0..<3 { v[i] = sensor.channels[i].convert(try value(channels[i], sensor, sensor.channels[i])) }
        return v
    }

    /// One attribute read, parsed as a number. An unparsable value is an error, never a zero.
    private static func value(_ chn: OpaquePointer, _ sensor: IIOSensor, _ c: IIOChannelConversion) throws -> Double {
        let text = try IIOContext.value(IIOContext.readChannelAttribute(chn, c.attribute), device: sensor.deviceName,
                                        what: "reading \(c.channel) \(c.attribute)")
        guard let v = DecimalParser.parse(text) else {
            throw IIOError.ioFailed(device: sensor.deviceName, what: "parsing \(c.channel)_\(c.attribute) '\(text)'", errno: EINVAL)
        }
        return v
    }
}
