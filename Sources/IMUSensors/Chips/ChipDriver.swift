#if canImport(Glibc)
import Glibc
#endif

/// What a chip measures, for probing order and for merging an IMU with a barometer.
public enum ChipKind: String, Sendable {
    /// Accelerometer and gyroscope.
    case imu
    /// Accelerometer only.
    case accelerometer
    case barometer
}

/// One reading in the chip's own axes (the source applies the mount matrix).
public struct ChipReading: Sendable, Equatable {
    /// Specific force in g, chip frame.
    public var acceleration: Vector3?
    /// Angular rate in rad/s, chip frame.
    public var rotationRate: Vector3?
    /// Absolute pressure in hPa, as decoded: a barometer driver does not range-check it (a
    /// reading read mid-update is not the chip's failure); `BarometerRange` decides, before it
    /// reaches a sample.
    public var pressure: Double?
    /// Die temperature in °C.
    public var temperature: Double?
    /// Axes whose raw value sat at the converter's limit, e.g. ["ax", "gz"]: the true value may be
    /// larger, so the reading is flagged instead of silently clipped.
    public var saturatedAxes: [String]

    public init(acceleration: Vector3? = nil, rotationRate: Vector3? = nil, pressure: Double? = nil,
                temperature: Double? = nil, saturatedAxes: [String] = []) {
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.pressure = pressure
        self.temperature = temperature
        self.saturatedAxes = saturatedAxes
    }
}

/// A chip model: how to recognise it and how to make its driver. Variants are rows in a table.
public struct ChipModel: Sendable {
    /// Short lower-case name, e.g. "mpu6050"; also the calibration key's chip part.
    public var name: String
    public var kind: ChipKind
    public var capabilities: SensorCapabilities
    /// 7-bit addresses the chip can have (address pin low/high).
    public var addresses: [UInt8]
    /// The ID register and the value it must hold.
    public var idRegister: UInt8
    public var idValue: UInt8
    /// Does the driver batch readings through the chip's FIFO?
    public var hasFIFO: Bool
    /// Makes the driver for an identified chip.
    public var makeDriver: @Sendable (I2CDevice) -> any ChipDriver

    /// "imukit-mpu6050": the driver that reads it, as `imu-info` prints.
    public var driverName: String { "imukit-\(name)" }
}

/// A chip driver: reset, configure, read. One file per family in this folder.
///
/// Not `Sendable`: a driver holds the chip's configuration and FIFO state and lives on the one
/// capture thread that reads its chip (`I2CPoller`, `CaptureThread`).
public protocol ChipDriver: AnyObject {
    var model: ChipModel { get }
    var device: I2CDevice { get }
    /// Output data rate in Hz after `configure` (the chip's nearest rate to the request).
    var outputRateHz: Double { get }
    /// Whether `readBatch` drains a FIFO (several readings per call) or reads the data registers.
    var usesFIFO: Bool { get }
    /// Sample sets the FIFO holds as configured, 0 when `usesFIFO` is false (datasheet FIFO size
    /// over the bytes of one set): how long the capture thread may sleep between drains.
    var fifoCapacitySets: Int { get }
    /// Drains so far that found the FIFO full or overrun: sets beyond its capacity were lost
    /// (overwritten, or discarded with a misaligned FIFO). `I2CPoller` turns each into a count.
    var fifoOverflows: Int { get }
    /// Soft-resets the chip and configures range, output data rate, low-pass filter and FIFO.
    /// Writes only to a chip whose ID was checked first.
    func configure(rateHz: Double, useFIFO: Bool) throws(I2CError)
    /// Everything new since the last call, oldest first: one reading without FIFO, the FIFO's content with it.
    func readBatch() throws(I2CError) -> [ChipReading]
}

extension ChipDriver {
    /// Checks the ID register again (after a device vanished and came back, or before configuring).
    public func verifyIdentity() throws(I2CError) {
        let id = try device.readByte(model.idRegister)
        guard id == model.idValue else {
            throw I2CError(kind: .io, bus: device.bus.path, address: device.address,
                           operation: "\(model.name) ID register \(I2CAddress.hex(model.idRegister)) reads \(I2CAddress.hex(id)), expected \(I2CAddress.hex(model.idValue))")
        }
    }

    /// Waits (reset and start-up times). Uses the retry policy's sleeper so tests never sleep.
    func wait(seconds: Double) { device.retry.sleep(seconds) }

    /// An `.badResponse` error naming this chip.
    func badResponse(_ what: String) -> I2CError {
        I2CError(kind: .badResponse, bus: device.bus.path, address: device.address, operation: "\(model.name): \(what)")
    }

    /// Polls `register` until `(value & mask) == expected` (a self-clearing reset bit, a ready flag),
    /// waiting `interval` seconds between reads; throws after `attempts` reads.
    func poll(_ register: UInt8, mask: UInt8, until expected: UInt8, attempts: Int = 10, interval: Double = 0.001,
              what: String) throws(I2CError) {
        for attempt in 1...attempts {
            if try device.readByte(register) & mask == expected { return }
            if attempt < attempts { wait(seconds: interval) }
        }
        throw I2CError(kind: .io, bus: device.bus.path, address: device.address, operation: "\(model.name) \(what)")
    }
}

/// Decoding helpers shared by the drivers.
enum Raw {
    /// Bytes of one x, y, z triple of 16-bit registers (`vectorBE`/`vectorLE`): 3 × 2.
    static let vectorBytes = 6
    /// Signed 16-bit from two bytes.
    @inline(__always) static func int16(_ hi: UInt8, _ lo: UInt8) -> Int16 { Int16(bitPattern: UInt16(hi) << 8 | UInt16(lo)) }
    /// Three signed 16-bit big-endian values from `bytes[at...]`.
    static func vectorBE(_ b: [UInt8], _ at: Int) -> (Int16, Int16, Int16) {
        (int16(b[at], b[at + 1]), int16(b[at + 2], b[at + 3]), int16(b[at + 4], b[at + 5]))
    }
    /// Three signed 16-bit little-endian values from `bytes[at...]`.
    static func vectorLE(_ b: [UInt8], _ at: Int) -> (Int16, Int16, Int16) {
        (int16(b[at + 1], b[at]), int16(b[at + 3], b[at + 2]), int16(b[at + 5], b[at + 4]))
    }
    /// Scales a raw triple by `unitsPerLSB` and reports axes at the 16-bit limits as saturated.
    static func scaled(_ v: (Int16, Int16, Int16), _ unitsPerLSB: Double, names: [String], saturated: inout [String]) -> Vector3 {
        // Checked per component: no array is built on this per-sample path.
        if v.0 == Int16.max || v.0 == Int16.min { saturated.append(names[0]) }
        if v.1 == Int16.max || v.1 == Int16.min { saturated.append(names[1]) }
        if v.2 == Int16.max || v.2 == Int16.min { saturated.append(names[2]) }
        return Vector3(Double(v.0), Double(v.1), Double(v.2)) * unitsPerLSB
    }
    /// Acceleration in g from raw counts at `gPerLSB`, noting saturated axes as ax/ay/az.
    static func acceleration(_ v: (Int16, Int16, Int16), gPerLSB: Double, saturated: inout [String]) -> Vector3 {
        scaled(v, gPerLSB, names: accelNames, saturated: &saturated)
    }
    /// The same for a converter narrower than 16 bits, whose counts run −(limit+1)…limit.
    static func acceleration(_ v: (Int16, Int16, Int16), gPerLSB: Double, limit: Int16, saturated: inout [String]) -> Vector3 {
        if v.0 >= limit || v.0 <= -limit - 1 { saturated.append(accelNames[0]) }
        if v.1 >= limit || v.1 <= -limit - 1 { saturated.append(accelNames[1]) }
        if v.2 >= limit || v.2 <= -limit - 1 { saturated.append(accelNames[2]) }
        return Vector3(Double(v.0), Double(v.1), Double(v.2)) * gPerLSB
    }
    /// Angular rate in rad/s from raw counts at `dpsPerLSB` (degrees/s per count), noting gx/gy/gz.
    static func rotationRate(_ v: (Int16, Int16, Int16), dpsPerLSB: Double, saturated: inout [String]) -> Vector3 {
        scaled(v, dpsPerLSB * radiansPerDegree, names: gyroNames, saturated: &saturated)
    }
    static let accelNames = ["ax", "ay", "az"]
    static let gyroNames = ["gx", "gy", "gz"]
    /// rad/s per dps.
    static let radiansPerDegree = Double.pi / 180

    /// The table entry whose rate is nearest `requested` (Hz) on a log scale.
    static func nearest<T>(_ table: [(Double, T)], to requested: Double) -> (Double, T) {
        table.min { abs(log2($0.0 / requested)) < abs(log2($1.0 / requested)) }!
    }
}
