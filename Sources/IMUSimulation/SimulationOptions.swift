/// How the simulated sensors behave: rates, errors, timing. Everything is seeded and reproducible.
public struct SimulationOptions: Sendable, Equatable {
    /// Seed of all random choices (plan and noise): same seed, same samples.
    public var seed: UInt64 = 1
    /// Accelerometer/gyroscope output rate, Hz (25 Hz … 1 kHz are typical; 1 … 10 000 accepted).
    public var sampleRateHz: Double = 100
    /// The sensor's real rate differs from the nominal one by this fraction (0.01 = 1% fast), as a
    /// cheap chip's oscillator does; timestamps show the real rate.
    public var sampleRateError: Double = 0
    /// Barometer output rate, Hz; nil = no barometer. Samples between its readings have `pressure == nil`.
    public var barometerRateHz: Double? = 25
    /// Whether samples carry a rotation rate.
    public var includeGyroscope: Bool = true
    /// Whether samples carry the IMU die temperature (°C).
    public var includeTemperature: Bool = false
    /// Accelerometer errors (unit g).
    public var accelerometer: SensorErrorModel = .typicalAccelerometer
    /// Gyroscope errors (unit rad/s).
    public var gyroscope: SensorErrorModel = .typicalGyroscope
    /// Barometer white noise, hPa (0.03 hPa = 3 Pa ≈ 25 cm of altitude: a phone barometer read
    /// without heavy filtering; illustrative).
    public var barometerNoiseHPa: Double = 0.03
    /// Weather drift, hPa per hour (0.5 hPa/h: a falling barometer ahead of a front).
    public var weatherDriftHPaPerHour: Double = 0.5
    /// Door slams: seconds from the scenario start at which a pressure pulse hits.
    public var doorSlams: [Double] = []
    /// Peak of each door slam's pressure pulse, hPa (illustrative).
    public var doorSlamHPa: Double = 0.3
    /// Standard deviation of timestamp error, s (clipped to ±40% of the sample period so time stays increasing).
    public var timestampJitterSeconds: Double = 0.0005
    /// Spans (s from the scenario start) during which no samples are delivered.
    public var gaps: [ClosedRange<Double>] = []
    /// Timestamp of the scenario start, s.
    public var startTime: Double = 1000
    /// Device holding for every segment; nil = each segment's own (or its kind's default).
    /// Six-position faces and transitions keep their own orientations.
    public var holding: DeviceHolding? = nil
    /// Altitude at the scenario start, m.
    public var startAltitudeMeters: Double = 100
    /// Ambient temperature, °C.
    public var ambientCelsius: Double = 25

    public init() {}

    /// No noise, no bias, no jitter, no weather: the pure motion.
    public static var ideal: SimulationOptions {
        var options = SimulationOptions()
        options.accelerometer = .perfect
        options.gyroscope = .perfect
        options.barometerNoiseHPa = 0
        options.weatherDriftHPaPerHour = 0
        options.timestampJitterSeconds = 0
        return options
    }

    /// What a source with these options measures.
    public var capabilities: SensorCapabilities {
        SensorCapabilities(accelerometer: true, gyroscope: includeGyroscope,
                           barometer: barometerRateHz != nil, thermometer: includeTemperature)
    }

    /// Checks every field; throws a `SimulationError` naming the bad one and the accepted range.
    public func validate() throws {
        func check(_ ok: Bool, _ what: String, _ fix: String) throws {
            if !ok { throw SimulationError(message: what, fix: fix) }
        }
        try check(sampleRateHz.isFinite && sampleRateHz >= 1 && sampleRateHz <= 10_000,
                  "sample rate \(sampleRateHz) Hz is out of range", "use a rate from 1 to 10000 Hz (e.g. rate=100)")
        try check(sampleRateError.isFinite && abs(sampleRateError) < 0.2,
                  "sample rate error \(sampleRateError) is out of range", "use a fraction between −0.2 and 0.2 (e.g. 0.01 = 1% fast)")
        if let baro = barometerRateHz {
            try check(baro.isFinite && baro > 0 && baro <= sampleRateHz,
                      "barometer rate \(baro) Hz is out of range", "use a barometer rate above 0 and at most the sample rate")
        }
        try check(accelerometer.isValid, "accelerometer error model is invalid",
                  "give finite numbers, non-zero scales and an invertible 3×3 misalignment")
        try check(gyroscope.isValid, "gyroscope error model is invalid",
                  "give finite numbers, non-zero scales and an invertible 3×3 misalignment")
        try check(barometerNoiseHPa.isFinite && barometerNoiseHPa >= 0, "barometer noise must be ≥ 0 hPa", "e.g. 0.03")
        try check(weatherDriftHPaPerHour.isFinite, "weather drift must be a finite number of hPa/h", "e.g. 0.5")
        try check(timestampJitterSeconds.isFinite && timestampJitterSeconds >= 0,
                  "timestamp jitter must be ≥ 0 s", "e.g. 0.0005")
        try check(ambientCelsius.isFinite && ambientCelsius > -60 && ambientCelsius < 100,
                  "ambient temperature \(ambientCelsius) °C is out of range", "use −60 … 100 °C")
        try check(doorSlams.allSatisfy(\.isFinite) && doorSlamHPa.isFinite, "door slams need finite times and size", "e.g. doorSlams = [12.5]")
        try check(gaps.allSatisfy { $0.lowerBound.isFinite && $0.upperBound.isFinite }, "gaps need finite bounds", "e.g. gaps = [10...12]")
        try check(startTime.isFinite && startTime >= 0, "start time must be ≥ 0 s", "e.g. 1000")
        try check(startAltitudeMeters.isFinite && startAltitudeMeters > -500 && startAltitudeMeters < 10_000,
                  "start altitude \(startAltitudeMeters) m is outside the troposphere formula's range", "use −500 … 10000 m")
    }
}

/// A bad simulation request (unknown scenario, bad parameter): exit status 2 with the fix.
public struct SimulationError: DiagnosableError, Equatable {
    public var message: String
    public var fix: String?
    public init(message: String, fix: String? = nil) { self.message = message; self.fix = fix }
    public var description: String { "simulator: \(message)" }
    public var exitStatus: ExitStatus { .usage }
}
