import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// `StrideHorizontal` and the weak-start rule that reads it (`GaitGate.coupledStartHorizontal`):
/// only the horizontal motion at the gait's rhythm, within each stride, spares a weak window the
/// impact-coupling test. A step's push repeats every stride; a vehicle braking or pulling away
/// changes the horizontal acceleration over seconds, slower than a stride (docs/steps.md).
@Suite struct StrideHorizontalTests {
    let rate = 50.0, n = 200   // one 4 s analysis window on the 50 Hz grid

    /// The size of a walk's horizontal acceleration (g): a phone swinging with the leg or the
    /// arm, which a 1 s gravity low-pass does not follow, tilts part of gravity into the
    /// horizontal once per stride (0.08 g: a 5° swing), and each step's push adds 0.05 g once
    /// per step, about a mean of 0.15 g. Deviation √((0.08² + 0.05²)/2) = 0.067 g over whole
    /// strides, above `GaitGate.coupledStartHorizontal` as most walks (its 5th percentile).
    func walkPush(cadence: Double, count: Int) -> [Double] {
        (0..<count).map { i in
            let phase = 2 * Double.pi * cadence * Double(i) / rate
            return 0.15 + 0.08 * sin(phase / 2 + 0.4) + 0.05 * sin(phase + 1.8)
        }
    }

    func ring(_ x: [Double]) -> RingBuffer {
        var ring = RingBuffer(minimumCapacity: x.count)
        for v in x { ring.append(v) }
        return ring
    }

    func deviation(_ x: [Double]) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        return (x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count)).squareRoot()
    }

    /// A walk's push repeats every stride, so each stride holds the same samples and the same
    /// mean: over whole strides (2 and 4 of them in the window here) the deviation within the
    /// strides is the whole deviation, to rounding.
    @Test(arguments: [1.0, 2.0])
    func aWalksPushIsAllAtItsRhythm(cadence: Double) {
        let h = walkPush(cadence: cadence, count: n)
        let strideTicks = Int((2 * rate / cadence).rounded())
        let within = StrideHorizontal.deviation(ring(h), end: n, count: n, strideTicks: strideTicks)
        #expect(abs(within - deviation(h)) < 1e-9, "cadence \(cadence): \(within) against \(deviation(h))")
        #expect(within >= GaitGate().coupledStartHorizontal, "a walk's push of this size needs no coupling test")
    }

    /// A surge that grows steadily over the window (a vehicle braking harder, 0.05 g/s) leaves
    /// within each stride only its change over one stride: L equally spaced samples of a ramp
    /// of s per sample deviate s·√((L² − 1)/12), so one 1 s stride keeps a quarter of what the
    /// whole 4 s window shows.
    @Test func aSteadySurgeLeavesOnlyItsChangeWithinAStride() {
        let perTick = 0.05 / rate
        let h = (0..<n).map { 0.05 + perTick * Double($0) }
        let within = StrideHorizontal.deviation(ring(h), end: n, count: n, strideTicks: 50)
        #expect(abs(within - perTick * ((2500.0 - 1) / 12).squareRoot()) < 1e-12)
        #expect(abs(deviation(h) - perTick * ((40000.0 - 1) / 12).squareRoot()) < 1e-12)
    }

    /// A stride longer than the window (a stroll read at 0.6 steps/s: 3.3 s, or a window shorter
    /// than a stride) is the whole window: nothing slower than it can be told apart there.
    @Test func aStrideLongerThanTheWindowIsTheWholeWindow() {
        let h = walkPush(cadence: 0.6, count: 120)
        let within = StrideHorizontal.deviation(ring(h), end: 120, count: 120, strideTicks: 167)
        #expect(abs(within - deviation(h)) < 1e-12)
    }

    /// The counter itself, fed one weak vertical bounce at a walking rhythm (about 0.08 g, below
    /// `GaitGate.vibrationDeviation`, where the city bus's gait-like windows lie) twice: once
    /// with a walk's horizontal push at its rhythm, once with a braking surge and a 0.02 g sway.
    /// A raised-cosine brake from 12 m/s over 6 s (the simulator's city bus) decelerates the
    /// phone at up to 4 m/s²; a 1 s gravity low-pass follows it with a lag, so the horizontal
    /// left is about 1 s × its rate of change: two humps of 3 s, 0.21 g at most. Both move the
    /// phone more than 0.06 g over the window, and neither peaks with the impacts (coupling
    /// < 0.4 in every window, checked), so only where the horizontal motion lies tells them
    /// apart: the walk counts, the surge counts nothing (the truth of a bounce with no steps is
    /// 0). Before the rule read `StrideHorizontal`, the surge opened a walk.
    @Test func aWeakBounceOpensAWalkWithAStepsPushButNotWithABrakingSurge() throws {
        let cadence = 1.8, still = 5.0, moving = 16.0
        let vertical = gaitSignal(cadence: cadence, rate: rate, seconds: moving).map { 0.4 * $0 }
        let push = walkPush(cadence: cadence, count: vertical.count)
        let surge = (0..<vertical.count).map { i -> Double in
            let t = Double(i) / rate
            let brake = 0.21 * abs(sin(2 * Double.pi * t / 6)), sway = 0.02 * sin(2 * Double.pi * 0.9 * t)
            return (brake * brake + sway * sway).squareRoot()
        }
        func count(horizontal: [Double]) -> (steps: Int, windows: [GaitWindow]) {
            var counter = StepCounter(rateHz: rate, stride: StrideModel(height: 1.75))
            counter.startSegment(at: 0)
            var windows: [GaitWindow] = []
            let quiet = Int(still * rate)
            let total = quiet + vertical.count + quiet
            for i in 0..<total {
                let k = i - quiet
                let user = (0..<vertical.count).contains(k)
                    ? UserAcceleration(magnitude: vertical[k], horizontal: horizontal[k])
                    : UserAcceleration(magnitude: 0, horizontal: 0.005)
                if let w = counter.process(user, altitude: 0) { windows.append(w) }
            }
            counter.finish()
            var events: [PedometerEvent] = []
            counter.ledger.commit(through: .infinity, into: &events)   // as the pedometer does, held back 5 s
            return (counter.steps, windows)
        }
        let walk = count(horizontal: push), braking = count(horizontal: surge)
        // The premise: weak gait windows that move the phone ≥ 0.06 g and do not couple.
        let weakGait = braking.windows.filter { $0.isGait && $0.gaitDeviation < GaitGate().vibrationDeviation }
        try #require(!weakGait.isEmpty)
        #expect(weakGait.contains { $0.horizontalDeviation >= GaitGate().coupledStartHorizontal })
        for horizontal in [push, surge] {
            let (g, h) = (ring(vertical), ring(horizontal))
            for start in Swift.stride(from: 0, through: vertical.count - n, by: Int(rate)) {
                let coupling = ImpactCoupling.correlation(gait: g, horizontal: h, from: start, count: n)
                #expect(coupling < GaitGate().minimumImpactCoupling, "window at \(start): coupling \(coupling)")
            }
        }
        #expect(braking.steps == 0, "the surge opened a walk: \(braking.steps) steps")
        // 16 s at 1.8 steps/s: 28.8 steps; a weak start and end may each lose a step.
        #expect(abs(Double(walk.steps) - moving * cadence) <= 2, "the walk counted \(walk.steps)")
    }

    /// Tuning seed 39 of the simulated city bus (docs/steps.md), phone in the front pocket at
    /// 50 Hz, accelerometer only, as `imu-bench-accuracy` rides it: 180 s, then a 40 s walk off.
    /// Braking for its last stop, a weak gait-like window (0.076 g) moved the phone 0.062 g
    /// horizontally, in two humps as the deceleration rose and fell, but only 0.04 g within its
    /// strides, and opened a walk of 11 false steps in the ride's last 10 s. The ride has no
    /// steps (truth 0); the walk off counts to within a step at each edge.
    @Test func aBusBrakingForItsLastStopAddsNoSteps() {
        var options = SimulationOptions()
        options.seed = 39
        options.sampleRateHz = 50
        options.includeGyroscope = false
        options.barometerRateHz = nil
        let plan = [Segment(.ride(.cityBus), seconds: 180, holding: .frontPocket),
                    Segment(.walk, seconds: 40, cadence: 1.7, amplitude: 0.22, holding: .frontPocket)]
        let (samples, truth) = Simulator.generate(Scenario(name: "city-bus", segments: plan), options: options)
        let (events, snapshot) = runPedometer(samples, capabilities: options.capabilities)
        let rideEnd = truth.segments[0].end
        let inRide = stepTimes(events).filter { $0 < rideEnd }
        #expect(inRide.isEmpty, "\(inRide.count) steps in the ride")
        #expect(abs(snapshot.steps - truth.steps) <= 2, "\(snapshot.steps) vs \(truth.steps)")
    }
}
