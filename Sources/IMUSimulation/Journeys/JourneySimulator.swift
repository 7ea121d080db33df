#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Simulates a `Journey`: the IMU's samples (accelerometer only, as the real rides), the true
/// activity of every second, and what a GNSS receiver reports (`GNSSFix`, with its noise and
/// dropouts). Legs on foot and in cars come from `Simulator`; pedalling from `RidePlacement`.
public struct JourneySimulation: Sendable {
    public var samples: [MotionSample]
    /// True activity of each whole second from `startTime`.
    public var truth: [String]
    /// The receiver's reports, one a second where it has a fix.
    public var fixes: [GNSSFix]
    public var startTime: Double
    /// True steps per leg.
    public var legSteps: [Int]
    /// Start and end of each leg, s (samples' clock).
    public var legTimes: [ClosedRange<Double>]

    public static func simulate(_ journey: Journey, seed: UInt64 = 1, rateHz: Double = 100,
                                startTime: Double = 1000, receiver: GNSSReceiverModel = .init()) -> JourneySimulation {
        var result = JourneySimulation(samples: [], truth: [], fixes: [], startTime: startTime, legSteps: [], legTimes: [])
        var t0 = startTime
        var random = Xoshiro256StarStar(seed: seed, stream: 7)
        for (index, leg) in journey.legs.enumerated() {
            var options = SimulationOptions()
            options.seed = seed &+ UInt64(index)
            options.sampleRateHz = rateHz
            options.includeGyroscope = false
            options.barometerRateHz = nil
            options.startTime = t0
            var steps = 0
            switch leg.kind {
            case .foot(let segment), .treadmill(let segment):
                var s = segment
                s.seconds = leg.seconds
                let (samples, truth) = Simulator.generate(Scenario(name: journey.name, segments: [s]), options: options)
                result.samples += samples
                steps = truth.steps
            case .drive(let holding):
                var s = Segment(.bus, seconds: leg.seconds)
                s.holding = holding
                result.samples += Simulator.generate(Scenario(name: journey.name, segments: [s]), options: options).samples
            case .cycle(let placement, let crankHz):
                result.samples += Self.pedal(placement, crankHz: crankHz, seconds: leg.seconds, start: t0,
                                             rateHz: rateHz, model: options.accelerometer, random: &random)
            }
            result.legSteps.append(steps)
            result.legTimes.append(t0...(t0 + leg.seconds))
            result.truth += Array(repeating: leg.activity, count: Int(leg.seconds.rounded()))
            result.fixes += receiver.fixes(speed: leg.speed, hasFix: leg.hasFix, from: t0, seconds: leg.seconds, random: &random)
            t0 += leg.seconds
        }
        return result
    }

    /// Pedalling samples: the crank wanders ±5 % over 10 s, the road vibrates broadband.
    static func pedal(_ placement: RidePlacement, crankHz: Double, seconds: Double, start: Double, rateHz: Double,
                      model: SensorErrorModel, random: inout Xoshiro256StarStar) -> [MotionSample] {
        let count = Int(seconds * rateHz)
        var samples: [MotionSample] = []
        samples.reserveCapacity(count)
        var phase = random.uniform(0...(2 * Double.pi))
        let wanderPhase = random.uniform(0...(2 * Double.pi))
        let vibration = placement.figures.vibration
        for i in 0..<count {
            let t = Double(i) / rateHz
            let omega = 2 * Double.pi * crankHz * (1 + 0.05 * sin(2 * Double.pi * t / 10 + wanderPhase))
            phase += omega / rateHz
            var force = placement.specificForce(phase: phase, omega: omega)
            force += random.gaussian3() * vibration
            samples.append(MotionSample(time: start + t, acceleration: model.read(force, extraBias: .zero, random: &random)))
        }
        return samples
    }
}
