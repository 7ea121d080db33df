import Foundation
import IMUSimulation
import Testing
@testable import Pedometer

/// Runs samples through a fresh pedometer; returns the events and the final snapshot.
func runPedometer(_ samples: [MotionSample], capabilities: SensorCapabilities,
                  configuration: PedometerConfiguration = .init())
    -> (events: [PedometerEvent], snapshot: PedometerSnapshot) {
    var pedometer = Pedometer(configuration: configuration, capabilities: capabilities)
    var events: [PedometerEvent] = []
    for sample in samples { pedometer.process(sample, into: &events) }
    pedometer.finish(into: &events)
    return (events, pedometer.snapshot)
}

/// Generates a named scenario with options changed by `change`.
func simulate(_ name: String, _ change: (inout SimulationOptions) -> Void = { _ in })
    -> (samples: [MotionSample], truth: GroundTruth, options: SimulationOptions) {
    var options = SimulationOptions()
    change(&options)
    let (samples, truth) = Simulator.generate(Scenario.named(name)!, options: options)
    return (samples, truth, options)
}

/// Simulates `segments` with `seed` at `rate` Hz and runs them through a fresh pedometer.
func simulateAndCount(_ segments: [Segment], seed: UInt64, rate: Double = 100)
    -> (events: [PedometerEvent], snapshot: PedometerSnapshot, truth: GroundTruth) {
    var options = SimulationOptions()
    options.seed = seed
    options.sampleRateHz = rate
    let (samples, truth) = Simulator.generate(Scenario(name: "custom", segments: segments), options: options)
    let (events, snapshot) = runPedometer(samples, capabilities: options.capabilities)
    return (events, snapshot, truth)
}

/// The simulator's lower-back daily life (`PausedWalk.lowerBackDailyLife`, as `imu-bench-accuracy`
/// plays it) with `seed` at `rate` Hz, counted by a fresh pedometer: the counted step times, the
/// true step times, and the true stretch of walk `index` (0-based; there are 8).
func lowerBackDailyLifeWalk(_ index: Int, seed: UInt64, rate: Double = 100) throws
    -> (counted: [Double], truth: [Double], walk: ActivityTruth) {
    let segments = Segment.walksBetweenPauses(PausedWalk.lowerBackDailyLife, holding: .lowerBack)
    let (events, _, truth) = simulateAndCount(segments, seed: seed, rate: rate)
    let walks = truth.segments.filter { $0.activity == "walking" }
    try #require(walks.count == PausedWalk.lowerBackDailyLife.count)
    return (stepTimes(events), truth.stepTimes, walks[index])
}

func stepTimes(_ events: [PedometerEvent]) -> [Double] {
    events.compactMap { if case .step(let t) = $0 { t } else { nil } }
}

func floors(_ events: [PedometerEvent]) -> [FloorDirection] {
    events.compactMap { if case .floor(_, let d) = $0 { d } else { nil } }
}

func segments(_ events: [PedometerEvent]) -> [ActivitySegment] {
    events.compactMap { if case .activity(let s) = $0 { s } else { nil } }
}

/// Relative error of `counted` against `truth`.
func relativeError(_ counted: Int, _ truth: Int) -> Double {
    abs(Double(counted - truth)) / Double(max(truth, 1))
}

/// A sine-plus-heel-strike gait signal (g) at `rate` Hz for `seconds` at `cadence` steps/s.
func gaitSignal(cadence: Double, rate: Double, seconds: Double, strideAsymmetry: Double = 0) -> [Double] {
    (0..<Int(seconds * rate)).map { i in
        let phase = 2 * Double.pi * cadence * Double(i) / rate
        let heel = exp(-pow((phase.truncatingRemainder(dividingBy: 2 * .pi) - 0.3) / 0.15, 2))
        // Every other step differs by `strideAsymmetry`: the phone rides on one leg.
        let leg = (Int(phase / (2 * .pi)) % 2 == 0) ? 1 + strideAsymmetry : 1 - strideAsymmetry
        return 0.25 * leg * (sin(phase) + 0.35 * sin(2 * phase + 0.7) + 0.8 * heel)
    }
}

/// What a fresh `ImpactChain` says once `seconds` of a 50 Hz gait signal are over: `signal(t)` g
/// (t in s) plus uniform sensor noise of `noise` g RMS, a fixed pseudo-random sequence from `seed`
/// (a 64-bit linear congruential generator; a uniform draw of width 1 has RMS 1/√12, hence 3.46).
func chainVerdict(seconds: Double, noise: Double = 0.002, seed: UInt64, rules: ChainRules = ChainRules(),
                  signal: (_ t: Double) -> Double) -> [Int]? {
    var detector = ImpactChain(rules: rules, rateHz: 50)
    var x = RingBuffer(minimumCapacity: 1024)
    var state = seed
    for i in 0..<Int(seconds * 50) {
        let t = Double(i) / 50
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let uniform = Double(state >> 11) / Double(1 << 53) - 0.5
        x.append(signal(t) + noise * 3.46 * uniform)
        detector.observe(x, after: x.count - 1)
    }
    return detector.completed(after: 0, in: x)
}

/// Heel strikes as pulses 0.04 s wide (a Gaussian's 1/e half-width): `heights[k]` g at `times[k]` s,
/// their sum at `t` s.
func strikePulses(_ times: [Double], heights: [Double], at t: Double) -> Double {
    zip(times, heights).map { $1 * exp(-pow((t - $0) / 0.04, 2)) }.reduce(0, +)
}
