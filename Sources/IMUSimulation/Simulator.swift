/// Streams the samples of a scenario, as a sensor would deliver them, with its ground truth.
///
/// Motion model: the device's orientation is a quaternion trajectory q(t) (device → world); the
/// gyroscope reads the body-frame angular velocity derived from it, ω = 2·vec(q* · q̇) (by a central
/// difference over ±`Plan.derivativeStep`), and the accelerometer reads the specific force
/// R(t)ᵀ·(a_world + 1 g·ẑ) in g, so a device lying still face-up reads (0, 0, +1). Both then go
/// through their `SensorErrorModel`. The barometer reads the altitude through the barometric formula
/// plus weather drift, door slams and noise, at its own slower rate.
///
/// Memory is constant in the scenario's length: samples are computed one at a time from closed-form
/// motion, so a 24-hour scenario streams fine.
public struct Simulator: Sendable {
    public let scenario: Scenario
    public let options: SimulationOptions
    /// Everything that really happened, known before the first sample.
    public let truth: GroundTruth
    /// Scenario length, s.
    public var duration: Double { plan.duration }
    /// Samples the scenario yields before gaps are cut out: one per (actual) sample period.
    public let nominalSampleCount: Int

    /// The rate the simulated sensor really runs at, Hz (nominal × (1 + rate error)).
    private let actualRate: Double
    private let plan: Plan
    private let disturbances: PressureDisturbances
    private var noise: Xoshiro256StarStar
    private var index = 0
    private var cursor = 0
    private var lastBarometerTick = Int.min
    /// Bias wander accumulated so far (random walk), in g and rad/s.
    private var accelerometerDrift = Vector3.zero
    private var gyroscopeDrift = Vector3.zero

    /// Random stream of the per-sample noise (the plan uses stream 1).
    static let noiseStream: UInt64 = 2

    /// Highest frequency in the simulated motion, Hz: the metro's rumble band tops out at 60 Hz
    /// (`BusVibration`); gait, sway, bounce and bumps lie far below it.
    static let highestMotionHz = 60.0
    /// True motion averaged into each reading (`sample(at:)`): enough instants, evenly spread over
    /// the sample period, that the motion between them holds nothing above their Nyquist
    /// frequency (2 × `highestMotionHz`). 1 from 120 Hz up: there the reading is the motion at its
    /// instant, as before.
    private let subsamples: Int

    /// Prepares the scenario. Call `options.validate()` first for options that come from a user;
    /// non-finite or non-positive rates are a programming error here.
    public init(scenario: Scenario, options: SimulationOptions = .init()) {
        precondition(options.sampleRateHz.isFinite && options.sampleRateHz > 0, "sample rate must be positive")
        self.scenario = scenario
        self.options = options
        plan = Plan(scenario: scenario, seed: options.seed, holding: options.holding,
                    startAltitude: options.startAltitudeMeters)
        truth = TruthBuilder.truth(of: plan, startTime: options.startTime)
        disturbances = PressureDisturbances(driftHPaPerHour: options.weatherDriftHPaPerHour,
                                            doorSlams: options.doorSlams, doorSlamHPa: options.doorSlamHPa)
        noise = Xoshiro256StarStar(seed: options.seed, stream: Self.noiseStream)
        // Samples at t = i / rate for every t < duration (small tolerance against rounding).
        actualRate = options.sampleRateHz * (1 + options.sampleRateError)
        nominalSampleCount = plan.segments.isEmpty ? 0 : Int((plan.duration * actualRate - 1e-9).rounded(.up))
        subsamples = max(1, Int((2 * Self.highestMotionHz / actualRate - 1e-9).rounded(.up)))
    }

    /// The next sample, or nil when the scenario is over.
    public mutating func next() -> MotionSample? {
        while index < nominalSampleCount {
            let i = index
            index += 1
            let t = Double(i) / actualRate
            if options.gaps.contains(where: { $0.contains(t) }) { continue }
            return sample(at: t)
        }
        return nil
    }

    /// Appends up to `maximum` samples to `batch`; returns how many were added (0 at the end).
    public mutating func next(into batch: inout [MotionSample], maximum: Int) -> Int {
        var added = 0
        while added < maximum, let s = next() {
            batch.append(s)
            added += 1
        }
        return added
    }

    /// Generates the whole scenario at once.
    public static func generate(_ scenario: Scenario, options: SimulationOptions = .init())
        -> (samples: [MotionSample], truth: GroundTruth) {
        var simulator = Simulator(scenario: scenario, options: options)
        var samples: [MotionSample] = []
        samples.reserveCapacity(simulator.nominalSampleCount)
        while let s = simulator.next() { samples.append(s) }
        return (samples, simulator.truth)
    }

    /// The true device → world orientation at `time` on the samples' timeline (s, like `truth`),
    /// for tests and tools. Sensor errors and timestamp jitter are not applied.
    public func attitude(at time: Double) -> Quaternion {
        guard !plan.segments.isEmpty else { return .identity }
        let t = time - options.startTime
        let i = plan.segmentIndex(at: t, hint: 0)
        return plan.segments[i].orientation(t - plan.segments[i].start)
    }

    /// The true altitude (m) at `time` on the samples' timeline.
    public func altitude(at time: Double) -> Double {
        guard !plan.segments.isEmpty else { return options.startAltitudeMeters }
        let t = time - options.startTime
        let i = plan.segmentIndex(at: t, hint: 0)
        return plan.segments[i].translation(t - plan.segments[i].start).altitude
    }

    /// The device's true motion at `time` on the samples' timeline (before sensor errors and the
    /// broadband vibration that is drawn per sample).
    public func motion(at time: Double) -> TrueMotion {
        guard !plan.segments.isEmpty else {
            return TrueMotion(attitude: .identity, rotationRate: .zero, acceleration: .zero, altitude: options.startAltitudeMeters)
        }
        return plan.motion(at: time - options.startTime, hint: 0).motion
    }

    private mutating func sample(at t: Double) -> MotionSample {
        cursor = plan.segmentIndex(at: t, hint: cursor)
        let (motion, roughness) = plan.motion(at: t, hint: cursor)
        var rate = motion.rotationRate
        var specificForce = motion.specificForce
        // A MEMS sensor does not read the motion at one instant: its digital low-pass averages
        // the converter's fast samples into each output sample (Bosch's normal mode: 3 dB near
        // 0.4 × the output rate; a mean over one period, as here, has it at 0.44 × the rate and
        // nulls at every multiple of it). Read at one instant, a 22 Hz engine would show up at
        // 2 Hz in a 20 Hz stream, right among the cadences of walking, which no real sensor
        // running its filter delivers; the benchmark's 25 Hz oxford walks are averaged down in the
        // same way. The mean is centred on the sample's time, so step times keep their place.
        let period = 1 / actualRate
        if subsamples > 1 {
            var force = Vector3.zero, spin = Vector3.zero
            for k in 0..<subsamples {
                let offset = ((Double(k) + 0.5) / Double(subsamples) - 0.5) * period
                let instant = min(max(t + offset, 0), plan.duration)
                let m = plan.motion(at: instant, hint: cursor).motion
                force += m.specificForce
                spin += m.rotationRate
            }
            specificForce = force / Double(subsamples)
            rate = spin / Double(subsamples)
        }
        // Broadband vibration, drawn per reading: the mean of `subsamples` independent draws
        // (one draw of 1/√n the size, so the random stream keeps its order).
        if roughness > 0 { specificForce += noise.gaussian3() * (roughness / Double(subsamples).squareRoot()) }
        let dieCelsius = Thermometer.temperature(at: t, ambient: options.ambientCelsius)
        let warmth = dieCelsius - SensorErrorModel.referenceCelsius
        if options.accelerometer.biasRandomWalk > 0 {
            accelerometerDrift += noise.gaussian3() * (options.accelerometer.biasRandomWalk * period.squareRoot())
        }
        let accel = options.accelerometer.read(specificForce, extraBias: accelerometerDrift + options.accelerometer.biasPerCelsius * warmth,
                                               random: &noise)
        var gyro: Vector3?
        if options.includeGyroscope {
            if options.gyroscope.biasRandomWalk > 0 {
                gyroscopeDrift += noise.gaussian3() * (options.gyroscope.biasRandomWalk * period.squareRoot())
            }
            gyro = options.gyroscope.read(rate, extraBias: gyroscopeDrift + options.gyroscope.biasPerCelsius * warmth, random: &noise)
        }

        var pressure: Double?
        if let baroRate = options.barometerRateHz {
            // A reading whenever the barometer's own clock ticks over (tolerance against rounding).
            let tick = Int((t * baroRate + 1e-9).rounded(.down))
            if tick != lastBarometerTick {
                lastBarometerTick = tick
                var p = Barometer.pressure(altitude: motion.altitude) + disturbances.offset(at: t)
                if options.barometerNoiseHPa > 0 { p += noise.gaussian() * options.barometerNoiseHPa }
                pressure = p
            }
        }

        var temperature: Double?
        if options.includeTemperature {
            temperature = dieCelsius + noise.gaussian() * Thermometer.noiseCelsius
        }

        var time = options.startTime + t
        if options.timestampJitterSeconds > 0 {
            let limit = 0.4 / actualRate    // keeps timestamps strictly increasing
            time += min(limit, max(-limit, noise.gaussian() * options.timestampJitterSeconds))
        }
        return MotionSample(time: time, acceleration: accel, rotationRate: gyro, pressure: pressure, temperature: temperature)
    }
}
