/// What a source can measure, like CMPedometer's per-capability availability checks.
public struct SensorCapabilities: Sendable, Equatable, Hashable {
    public var accelerometer: Bool
    public var gyroscope: Bool
    public var barometer: Bool
    public var thermometer: Bool
    /// Ground speed from GNSS (gpsd, or a recording's `gnss_speed` column).
    public var gnssSpeed: Bool
    public init(accelerometer: Bool, gyroscope: Bool = false, barometer: Bool = false, thermometer: Bool = false,
                gnssSpeed: Bool = false) {
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
        self.barometer = barometer
        self.thermometer = thermometer
        self.gnssSpeed = gnssSpeed
    }
}

/// Describes a sample source for people and for calibration files.
public struct SourceInfo: Sendable, Equatable {
    /// Human name, e.g. "mpu6050 on /dev/i2c-1 @0x68" or "iio:local:mpu6050" or "simulated walk".
    public var name: String
    /// Stable key for the calibration store: chip + bus + address, or IIO device name.
    public var calibrationKey: String
    public var capabilities: SensorCapabilities
    /// Nominal output rate in Hz of the fastest sensor, if known. Timestamps are the truth.
    public var nominalRateHz: Double?
    /// True when samples come from the built-in simulator (labelled as such on screen).
    public var isSimulated: Bool

    public init(name: String, calibrationKey: String, capabilities: SensorCapabilities,
                nominalRateHz: Double? = nil, isSimulated: Bool = false) {
        self.name = name
        self.calibrationKey = calibrationKey
        self.capabilities = capabilities
        self.nominalRateHz = nominalRateHz
        self.isSimulated = isSimulated
    }
}

/// Anything samples come from: an I²C chip, an IIO device, a recording or the simulator.
///
/// Samples arrive in batches (a FIFO read, a buffer block, a chunk of a file) in strictly
/// increasing time order. A finite source finishes the stream; a failing one throws a
/// `DiagnosableError` that names the thing and the fix.
public protocol SampleSource: Sendable {
    var info: SourceInfo { get }
    /// Starts producing. Cancelling the consuming task stops the source and releases the device.
    func batches() -> AsyncThrowingStream<[MotionSample], any Error>
    /// What was lost so far, by cause (a snapshot; read it during or after the stream).
    var losses: SampleLosses { get }
    /// How the samples' times were taken: known by the time the first batch arrives (a live
    /// source settles it as its capture starts), nil before.
    var timing: SampleTiming? { get }
}
