import Foundation
import Testing
@testable import Pedometer

/// Thigh pedalling as physics gives it: the knee rises and falls once per crank revolution (±0.17 m
/// at the knee, half of it mid-thigh), while the thigh pitches ±20° about 45°. No heel strikes.
private func pedalling(seconds: Double, crankHz: Double = 1.2, rateHz: Double = 100, start: Double = 0) -> [MotionSample] {
    let w = 2 * Double.pi * crankHz
    return (0..<Int(seconds * rateHz)).map { i in
        let t = Double(i) / rateHz
        let vertical = 0.085 * w * w * sin(w * t) / 9.80665          // g, mid-thigh
        let pitch = (45 + 20 * sin(w * t + 0.5)) * Double.pi / 180
        let f = 1 + vertical                                          // specific force, world up
        return MotionSample(time: start + t, acceleration: Vector3(f * sin(pitch), 0, f * cos(pitch)))
    }
}

/// A small deterministic generator for the tests' noise (SplitMix64).
private struct TestRandom {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * next() }
}

/// A seated rider as physics gives it, at the lower back (a jersey pocket): leaning 50° forward,
/// rocking ±3° about the direction of travel once per revolution, bobbing 2 mm per pedal stroke
/// (twice per revolution), the bicycle surging ±0.03 g per stroke, and about 0.035 g of road
/// vibration per axis.
private func seatedRiding(seconds: Double, crankHz: Double = 1.3, rateHz: Double = 100, seed: UInt64 = 1) -> [MotionSample] {
    let w = 2 * Double.pi * crankHz
    var random = TestRandom(state: seed)
    func noise() -> Double { 0.05 * (random.uniform(-1...1) + random.uniform(-1...1)) * 0.866 }
    let pitch = 50 * Double.pi / 180
    return (0..<Int(seconds * rateHz)).map { i in
        let t = Double(i) / rateHz
        // Specific force in the world (forward, left, up), g.
        let up = 1 + 0.002 * 4 * w * w * sin(2 * w * t) / 9.80665
        let forward = -0.03 * cos(2 * w * t)
        // Into the torso, rolled about the direction of travel…
        let roll = 3 * Double.pi / 180 * sin(w * t)
        let (fx, fy, fz) = (forward, up * sin(roll), up * cos(roll))
        // …and into the device, pitched 50° forward with it.
        let x = fx * cos(pitch) - fz * sin(pitch), z = fx * sin(pitch) + fz * cos(pitch)
        return MotionSample(time: t, acceleration: Vector3(x + noise(), fy + noise(), z + noise()))
    }
}

/// A vehicle's ride without a rider's rhythm: vertical bounce and lateral sway as sums of
/// sinusoids with random frequencies and phases (0.7 to 2 Hz and 0.3 to 1.5 Hz, 0.04 g and 0.03 g
/// RMS, the simulator's bus figures), and 0.03 g of rumble.
private func busRiding(seconds: Double, rateHz: Double = 100, seed: UInt64 = 7) -> [MotionSample] {
    var random = TestRandom(state: seed)
    func band(_ range: ClosedRange<Double>, rms: Double) -> [(Double, Double, Double)] {
        (0..<12).map { _ in (2 * Double.pi * random.uniform(range), random.uniform(0...(2 * Double.pi)), rms * (2.0 / 12).squareRoot()) }
    }
    let vertical = band(0.7...2, rms: 0.04), lateral = band(0.3...1.5, rms: 0.03)
    func value(_ parts: [(Double, Double, Double)], _ t: Double) -> Double { parts.reduce(0) { $0 + $1.2 * sin($1.0 * t + $1.1) } }
    return (0..<Int(seconds * rateHz)).map { i in
        let t = Double(i) / rateHz
        let rumble = 0.03 * random.uniform(-1.7...1.7)
        return MotionSample(time: t, acceleration: Vector3(0, value(lateral, t), 1 + value(vertical, t) + rumble))
    }
}

@Suite struct CyclingTests {
    @Test func aSeatedRiderAddsNoStepsAndReadsCycling() {
        let (events, snapshot) = runPedometer(seatedRiding(seconds: 90), capabilities: SensorCapabilities(accelerometer: true))
        #expect(snapshot.steps == 0)
        #expect(snapshot.activity == .cycling)
        // Before the ride is recognised (a 4 s window, then 4 pedalling windows) it may read otherwise.
        let other = segments(events).filter { $0.activity != .cycling }.reduce(0) { $0 + $1.duration }
        #expect(other <= 8, "\(other) s not cycling")
    }

    @Test func theSeatedWindowMeasuresStrokeAndRock() {
        var analyser = PedallingAnalyser(rateHz: 100)
        var windows: [PedallingWindow] = []
        for s in seatedRiding(seconds: 20) {
            if let w = analyser.add(s.acceleration!) { windows.append(w) }
        }
        let seated = windows.map(\.seated)
        // Two strokes per revolution at 1.3 rev/s; the lag grid is 0.01 s, about ±0.1 Hz there.
        let offBeat = seated.filter { abs($0.strokeFrequency - 2.6) >= 0.15 }.map(\.strokeFrequency)
        #expect(!seated.isEmpty && offBeat.isEmpty, "\(offBeat)")
        // The rock repeats each revolution and is opposite after a stroke (the surge per stroke,
        // in step with the bob, pulls both towards the stroke's rhythm).
        let unrocked = seated.filter { $0.rockPerRevolution <= 0.3 || $0.rockPerStroke >= -0.3 }.count
        #expect(unrocked == 0)
        #expect(seated.filter { !$0.isPedalling }.count == 0)
    }

    /// The same bob and rock at a walk's pace (1.8 per second, a phone held on a slow walk) is
    /// no seated rider: strokes must be faster than any walk's steps.
    @Test func theSameRhythmAtAWalksPaceIsNoSeatedRider() {
        var analyser = PedallingAnalyser(rateHz: 100)
        var seated = 0, windows = 0
        for s in seatedRiding(seconds: 20, crankHz: 0.9) {
            guard let w = analyser.add(s.acceleration!) else { continue }
            windows += 1
            if w.seated.isPedalling { seated += 1 }
        }
        #expect(windows > 10 && seated == 0, "\(seated) of \(windows) windows")
    }

    @Test func aBusIsNoSeatedRider() {
        var analyser = PedallingAnalyser(rateHz: 100)
        var windows = 0, seated = 0
        for s in busRiding(seconds: 300) {
            guard let w = analyser.add(s.acceleration!) else { continue }
            windows += 1
            if w.seated.isPedalling { seated += 1 }
        }
        // Random bounce can line up for a window now and then; a ride needs 4 of the last 8.
        #expect(seated < windows / 4, "\(seated) of \(windows) windows")
        let (events, snapshot) = runPedometer(busRiding(seconds: 300), capabilities: SensorCapabilities(accelerometer: true))
        #expect(snapshot.steps == 0)
        #expect(!segments(events).contains { $0.activity == .cycling })
    }

    @Test func pedallingInAPocketAddsNoStepsAndReadsCycling() {
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        for s in pedalling(seconds: 120) { pedometer.process(s, into: &events) }
        #expect(pedometer.snapshot.activity == .cycling)
        pedometer.finish(into: &events)
        #expect(pedometer.snapshot.steps == 0)
    }

    @Test func theWindowMeasuresACrankAndNoImpacts() {
        var analyser = PedallingAnalyser(rateHz: 50)
        var last: PedallingWindow?
        for s in pedalling(seconds: 8, rateHz: 50) {
            if let w = analyser.add(s.acceleration!) { last = w }
        }
        let w = try! #require(last)
        #expect(abs(w.crankFrequency - 1.2) < 0.1)
        #expect(w.halfPeriodCorrelation < -0.8)     // one leg: opposite half a revolution later
        #expect(w.impactShare < 0.05)               // a smooth rotation, nothing above 4 Hz
        #expect(w.isPedalling)
    }

    /// The window's strength and impact share come from its hops' sums (`HopSums`), so each of
    /// its four hops must count once and a gap must start them afresh. A sampled sine over whole
    /// periods has the mean 0 and the variance A²/2 exactly, so two seconds at 0.1 g and two at
    /// 0.3 g (1 Hz: 50 ticks a period at 50 Hz) give (0.01/2 + 0.09/2)/2 = 0.025 g²; rounding
    /// alone separates the figure from that. The impact band is a second-order Butterworth
    /// high-pass at 4 Hz by the bilinear transform: at 10 Hz it passes r⁴/(1 + r⁴) of the power,
    /// r = tan(π·10/50)/tan(π·4/50) = 2.830, so 0.985 of a 10 Hz sine's variance.
    @Test func theWindowsFiguresComeFromItsHopsSums() {
        var analyser = PedallingAnalyser(rateHz: 50)
        func feed(seconds: Double, amplitude: Double, hz: Double, from start: Double = 0) -> PedallingWindow? {
            var last: PedallingWindow?
            for i in 0..<Int(seconds * 50) {
                let t = start + Double(i) / 50
                if let w = analyser.add(Vector3(0, 0, 1 + amplitude * sin(2 * Double.pi * hz * t))) { last = w }
            }
            return last
        }
        _ = feed(seconds: 8, amplitude: 0.5, hz: 1)   // a stronger past that must not reach the windows below
        analyser.reset()
        #expect(feed(seconds: 3, amplitude: 0.1, hz: 1) == nil)   // a window needs four hops after the gap
        analyser.reset()
        _ = feed(seconds: 2, amplitude: 0.1, hz: 1)
        let mixed = try! #require(feed(seconds: 2, amplitude: 0.3, hz: 1, from: 2))
        #expect(abs(mixed.deviation - 0.025.squareRoot()) < 1e-9)
        // Σ and Σ² handed to the step counter hold the same window.
        let totals = analyser.gaitTotals
        #expect(totals.count == 200 && abs(totals.sum) < 1e-9 && abs(totals.squares - 200 * 0.025) < 1e-9)
        let impacts = try! #require(feed(seconds: 8, amplitude: 0.2, hz: 10, from: 4))
        #expect(abs(impacts.deviation - 0.2 / 2.0.squareRoot()) < 1e-9)
        #expect(abs(impacts.impactShare - 0.985) < 0.002)
    }

    /// The analyser's own sums are the shared ones, bit for bit (session 26): a lag summed alone
    /// (`PedallingAnalyser.oneLag`) equals that lag's eight partial sums from a pass of
    /// `LagProducts.add` that starts at any of the four lags below it (a longer run of blocks and
    /// products with the zero padding), and `WindowSums.laggedProducts` (its offsets counted
    /// without overflow checks since session 26) equals the four-lane sum written out plainly
    /// below. Series of 197 to 200 values (a 4 s window at 50 Hz and lengths that end inside a
    /// block of four or eight), lags 0 to 66.
    @Test func theSearchesSumsMatchTheSharedOnesBitForBit() {
        var random = SystemRandomNumberGenerator()
        for n in 197...200 {
            let values = (0..<n).map { _ in Double.random(in: -1...1, using: &random) }
            let singles = values.map(Float.init) + [Float](repeating: 0, count: LagProducts.padding)
            singles.withUnsafeBufferPointer { x in
                for lag in 1...62 {
                    let alone = PedallingAnalyser.oneLag(x.baseAddress!, count: n, lag: lag)
                    for first in max(1, lag - 4)...lag {
                        var sums = [SIMD8<Float>](repeating: .zero, count: first + 5)
                        sums.withUnsafeMutableBufferPointer {
                            LagProducts.add(x.baseAddress!, count: n, from: 0, to: n, lags: first...(first + 4), into: $0, replacing: true)
                        }
                        let pass = sums[lag]
                        #expect((0..<8).allSatisfy { alone[$0].bitPattern == pass[$0].bitPattern },
                                "n \(n), lag \(lag) in a pass from \(first)")
                    }
                }
            }
            values.withUnsafeBufferPointer { x in
                for lag in 0...66 {
                    var lanes = SIMD4<Double>(), i = 0
                    while i + 4 <= n - lag {
                        let early = SIMD4<Double>(x[i], x[i + 1], x[i + 2], x[i + 3])
                        let j = i + lag
                        let late = SIMD4<Double>(x[j], x[j + 1], x[j + 2], x[j + 3])
                        lanes += early * late
                        i += 4
                    }
                    var plain = lanes.sum()
                    while i < n - lag { plain += x[i] * x[i + lag]; i += 1 }
                    #expect(WindowSums.laggedProducts(x, count: n, lag: lag).bitPattern == plain.bitPattern, "n \(n), lag \(lag)")
                }
            }
        }
    }

    /// A ride's starting hints belong to that ride: once it ends (here parked, `releaseIdle`) they
    /// are gone, so nothing of it is left for the next ride's start.
    @Test func theStartingHintEndsWithTheRide() {
        var detector = CyclingDetector(rateHz: 50)
        func feed(_ samples: [MotionSample]) {
            for s in samples {
                let a = s.acceleration!
                if detector.add(a, gait: (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot() - 1) {
                    detector.noteGait(false, at: s.time)
                }
            }
        }
        feed(pedalling(seconds: 30, rateHz: 50))
        #expect(detector.isRiding)
        #expect(detector.startingHint != nil)
        let parked = Double(CyclingDetector.releaseIdle + 10)
        feed((0..<Int(parked * 50)).map { MotionSample(time: 30 + Double($0) / 50, acceleration: Vector3(0, 0, 1)) })
        #expect(!detector.isRiding)
        #expect(detector.startingHint == nil)
    }

    @Test func kalmanWeighsEachFixByItsError() {
        var k = SpeedKalman()
        k.update(GroundSpeed(time: 0, metersPerSecond: 5, accuracy: 0.3))
        // A multipath jump reported at ±4 m/s barely moves a good estimate…
        let jumped = k.update(GroundSpeed(time: 1, metersPerSecond: 12, accuracy: 4))
        #expect(jumped.metersPerSecond < 5.6)
        // …while a precise fix moves it most of the way.
        let precise = k.update(GroundSpeed(time: 2, metersPerSecond: 3, accuracy: 0.2))
        #expect(precise.metersPerSecond < 3.8)
    }

    @Test func theVoteFollowsTheSeedScenarios() {
        func decide(_ imu: ActivityClass, cadence: Double?, speed: Double?) -> ActivityClass {
            var vote = ActivityVote()
            if let speed { vote.observe(GroundSpeed(time: 9.5, metersPerSecond: speed, accuracy: 0.3)) }
            return vote.decide(imu: (imu, .medium), cadence: cadence, time: 10).0
        }
        #expect(decide(.walking, cadence: 1.7, speed: 0) == .walking)        // treadmill: steps count
        #expect(decide(.vehicle, cadence: nil, speed: 0.8) == .vehicle)      // traffic jam
        #expect(decide(.vehicle, cadence: nil, speed: 30.5) == .vehicle)     // motorway
        #expect(decide(.running, cadence: 2.8, speed: 4.5) == .running)      // running for a bus
        #expect(decide(.stationary, cadence: nil, speed: 0) == .stationary)  // then standing
        #expect(decide(.cycling, cadence: nil, speed: 6) == .cycling)        // cycling at road speed
        #expect(decide(.stationary, cadence: nil, speed: 20) == .vehicle)    // a smooth car
        #expect(decide(.vehicle, cadence: nil, speed: 4) == .vehicle)        // a car in slow traffic
        #expect(decide(.cycling, cadence: nil, speed: 9) == .cycling)        // a road cyclist
    }

    @Test func withoutAFixTheIMUDecidesAtLowerConfidence() {
        var vote = ActivityVote()
        #expect(vote.decide(imu: (.walking, .high), cadence: 1.6, time: 10) == (.walking, .high))
        vote.observe(GroundSpeed(time: 0, metersPerSecond: 1.4, accuracy: 0.3))
        // Car park: the receiver was seen, the fix is gone.
        #expect(vote.decide(imu: (.walking, .high), cadence: 1.6, time: 60) == (.walking, .medium))
    }

    @Test func aRecordingsGroundSpeedReachesTheVote() {
        // A replayed gnss_speed column (held on every row between fixes) feeds the Kalman filter.
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true, gnssSpeed: true))
        var events: [PedometerEvent] = []
        for i in 0..<1000 {
            pedometer.process(MotionSample(time: Double(i) / 100, acceleration: Vector3(0, 0, 1), gnssSpeed: 7.5), into: &events)
        }
        let speed = try! #require(pedometer.groundSpeed)
        #expect(abs(speed.metersPerSecond - 7.5) < 1e-9)
        // Held values are one reading a second, not one a sample: the filter stays near a single
        // reading's error (1 m/s assumed without an accuracy), not 1 / sqrt(1000) of it.
        #expect(speed.sigma > 0.2)
    }
}
