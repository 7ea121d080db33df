import Foundation
import Testing
@testable import Pedometer

@Suite struct ResamplerTests {
    private func ticks(rate: Double, seconds: Double, gapAt: ClosedRange<Double>? = nil) -> [Tick] {
        var resampler = Resampler(rateHz: 50, maximumGap: 0.5)
        var out: [Tick] = []
        for i in 0..<Int(seconds * rate) {
            let t = 100 + Double(i) / rate
            if let gapAt, gapAt.contains(t - 100) { continue }
            resampler.push(MotionSample(time: t, acceleration: Vector3(0, 0, 1 + 0.1 * sin(t)))) { out.append($0) }
        }
        resampler.flush { out.append($0) }
        return out
    }

    @Test(arguments: [25.0, 100.0, 400.0, 1000.0])
    func anyRateBecomesFiftyHertz(rate: Double) {
        let out = ticks(rate: rate, seconds: 10)
        #expect(abs(out.count - 500) <= 2, "\(out.count) ticks from \(rate) Hz")
        let intervals = zip(out.dropFirst(), out).map { $0.time - $1.time }
        #expect(intervals.allSatisfy { abs($0 - 0.02) < 1e-9 })
        // The signal survives: values stay on the 1 ± 0.1 g curve.
        #expect(out.allSatisfy { abs($0.acceleration.z - (1 + 0.1 * sin($0.time))) < 0.01 })
    }

    @Test func gapIsNotBridged() {
        let out = ticks(rate: 100, seconds: 10, gapAt: 4...6)
        let starts = out.filter(\.startsSegment)
        #expect(starts.count == 2)
        #expect(!out.contains { $0.time > 104.05 && $0.time < 105.95 })
    }

    @Test func clockJumpingBackStartsANewSegment() {
        var resampler = Resampler(rateHz: 50, maximumGap: 0.5)
        var out: [Tick] = []
        for base in [500.0, 100.0] {
            for i in 0..<100 {
                resampler.push(MotionSample(time: base + Double(i) / 100, acceleration: Vector3(0, 0, 1))) { out.append($0) }
            }
        }
        #expect(out.filter(\.startsSegment).count == 2)
        #expect(out.contains { abs($0.time - 100.5) < 0.011 })
        #expect(resampler.droppedSamples == 0)
    }

    /// The one-vector finiteness test (`Resampler.allFinite`) drops a sample for ±∞ or NaN in
    /// any of its six readings, and keeps every finite one, however large (a sum of the readings
    /// would overflow to ∞ here) or small, and a sample without a gyroscope.
    @Test func nonFiniteReadingsAreDroppedFiniteOnesKept() {
        for lane in 0..<6 {
            for bad in [Double.nan, .infinity, -.infinity] {
                var values = [Double](repeating: 0.5, count: 6)
                values[lane] = bad
                #expect(!Resampler.allFinite(Vector3(values[0], values[1], values[2]), Vector3(values[3], values[4], values[5])),
                        "\(bad) in reading \(lane)")
            }
        }
        let big = Double.greatestFiniteMagnitude
        #expect(Resampler.allFinite(Vector3(big, big, -big), Vector3(big, -big, big)))
        #expect(Resampler.allFinite(Vector3(.leastNonzeroMagnitude, -0.0, 0), Vector3(-.leastNonzeroMagnitude, 0, 1)))
        var resampler = Resampler(rateHz: 50, maximumGap: 0.5)
        var ticks = 0
        for i in 0..<40 {
            var sample = MotionSample(time: 10 + Double(i) / 100, acceleration: Vector3(0, 0, 1))
            if i % 4 == 1 { sample.rotationRate = Vector3(0, 0, .nan) }
            if i % 4 == 2 { sample.rotationRate = Vector3(big, 0, 0) }
            resampler.push(sample) { _ in ticks += 1 }
        }
        #expect(resampler.droppedSamples == 10)
        #expect(ticks > 0)
    }

    /// `mayCompleteTick(at:)` answers false only for samples that complete no tick
    /// (`Pedometer.process(_:into:)` makes no batch for them), and it does answer false for most
    /// samples faster than the grid. Times: 400 Hz with jitter, a 0.6 s silence (longer than
    /// `maximumGap`: closes the interval in progress), a clock stepped back by 1 s (a new segment),
    /// a repeated time, a NaN time, and 10 Hz (slower than the grid: every sample closes ticks).
    @Test func aSampleThatMayCompleteNoTickCompletesNone() {
        var times: [Double] = (0..<400).map { (i: Int) -> Double in
            let jitter: Double = i % 3 == 0 ? 0.0007 : 0
            return 10 + Double(i) / 400 + jitter
        }
        times += [11.6, 11.6025, 10.6, 10.6, .nan, 10.6025]
        times += (1...20).map { (i: Int) -> Double in 10.6025 + Double(i) / 10 }
        var resampler = Resampler(rateHz: 50, maximumGap: 0.5)
        var predictedNone = 0, ticksAfterNone = 0
        for t in times {
            let none = !resampler.mayCompleteTick(at: t)
            var ticks = 0
            resampler.push(MotionSample(time: t, acceleration: Vector3(0, 0, 1))) { _ in ticks += 1 }
            if none { predictedNone += 1; ticksAfterNone += ticks }
        }
        #expect(ticksAfterNone == 0)
        #expect(predictedNone >= 300)   // 400 Hz: 7 of every 8 samples close no 50 Hz interval
    }

    @Test func shortJitterIsBridged() {
        let out = ticks(rate: 100, seconds: 4, gapAt: 2...2.3)
        #expect(out.filter(\.startsSegment).count == 1)
        #expect(abs(out.count - 200) <= 2)
    }
}

@Suite struct RingBufferTests {
    @Test func keepsTheNewestValues() {
        var ring = RingBuffer(minimumCapacity: 5)
        #expect(ring.capacity == 8)
        for i in 0..<20 { ring.append(Double(i)) }
        #expect(ring.oldestIndex == 12)
        #expect(ring[19] == 19 && ring[12] == 12)
        var copy = [Double](repeating: 0, count: 3)
        ring.copy(from: 15, count: 3, into: &copy)
        #expect(copy == [15, 16, 17])
    }

    /// Each plane is a ring of its own: a window across the wrap comes back in order, per plane.
    @Test func planesKeepTheirOwnSeries() {
        var planes = RingPlanes(planes: 2, minimumCapacity: 5)
        #expect(planes.capacity == 8)
        for i in 0..<20 { planes.append(SIMD8(Double(i), -Double(i), 0, 0, 0, 0, 0, 0)) }
        #expect(planes.oldestIndex == 12)
        var copy = [Double](repeating: 0, count: 6)
        planes.copy(plane: 0, from: 13, count: 6, into: &copy)   // slots 5, 6, 7, 0, 1, 2
        #expect(copy == [13, 14, 15, 16, 17, 18])
        planes.copy(plane: 1, from: 13, count: 6, into: &copy)
        #expect(copy == [-13, -14, -15, -16, -17, -18])
    }

    /// A ring of several planes reads plane 0; `value(plane:at:)` and `plane(_:)` read the others
    /// at the same ticks, across the wrap, and a view does not follow later appends.
    @Test func aRingOfPlanesReadsEachPlane() {
        var ring = RingBuffer(planes: 3, minimumCapacity: 5)
        for i in 0..<20 { ring.append(SIMD8(Double(i), 100 + Double(i), -Double(i), 0, 0, 0, 0, 0)) }
        #expect(ring.oldestIndex == 12 && ring.count == 20)
        #expect(ring[19] == 19 && ring[12] == 12)
        #expect(ring.value(plane: 1, at: 15) == 115 && ring.value(plane: 2, at: 16) == -16)
        let second = ring.plane(1)
        #expect(second[13] == 113 && second.count == 20 && second.oldestIndex == 12)
        var copy = [Double](repeating: 0, count: 6)
        second.copy(from: 13, count: 6, into: &copy)   // slots 5, 6, 7, 0, 1, 2
        #expect(copy == [113, 114, 115, 116, 117, 118])
        ring.copy(from: 13, count: 6, into: &copy)
        #expect(copy == [13, 14, 15, 16, 17, 18])
        ring.append(SIMD8(20, 120, -20, 0, 0, 0, 0, 0))
        #expect(ring.value(plane: 1, at: 20) == 120 && second.count == 20 && second[12] == 112)
    }

    /// Ticks written straight into the storage (`append(count:writing:)`, as the cycling
    /// analyser stores a filtered hop) read back as vector appends would have put them, across
    /// the wrap, and `count` moves by the ticks written.
    @Test func ticksWrittenInPlaceLandWhereAppendsPutThem() {
        var written = RingPlanes(planes: 3, minimumCapacity: 5), appended = RingPlanes(planes: 3, minimumCapacity: 5)
        for hop in 0..<4 {
            written.append(count: 5) { base, capacity, first in
                for i in 0..<5 {
                    let x = Double(first + i), at = base + ((first + i) & (capacity - 1))
                    at[0] = x
                    at[capacity] = 100 + x
                    at[2 * capacity] = -x
                }
            }
            for i in 0..<5 {
                let x = Double(5 * hop + i)
                appended.append(SIMD8(x, 100 + x, -x, 0, 0, 0, 0, 0))
            }
        }
        #expect(written.count == 20 && written.oldestIndex == 12)
        var a = [Double](repeating: 0, count: 8), b = a
        for plane in 0..<3 {
            written.copy(plane: plane, from: 12, count: 8, into: &a)
            appended.copy(plane: plane, from: 12, count: 8, into: &b)
            #expect(a == b)
        }
        #expect(a == (12..<20).map { -Double($0) })
    }

    /// Four planes appended as one four-lane vector land where eight-lane appends put them.
    @Test func fourLaneAppendsFillFourPlanes() {
        var four = RingBuffer(planes: 4, minimumCapacity: 5), eight = RingBuffer(planes: 4, minimumCapacity: 5)
        for i in 0..<13 {
            let x = Double(i)
            four.append(SIMD4(x, 10 + x, 20 + x, 30 + x))
            eight.append(SIMD8(x, 10 + x, 20 + x, 30 + x, 0, 0, 0, 0))
        }
        for tick in four.oldestIndex..<four.count {
            for plane in 0..<4 { #expect(four.value(plane: plane, at: tick) == eight.value(plane: plane, at: tick)) }
            #expect(four.value(plane: 3, at: tick) == 30 + Double(tick))
        }
    }
}

/// `ImpactCoupling`: heel strikes that jolt the phone horizontally as they lift it correlate; a
/// bounce and an independent sway do not.
@Suite struct ImpactCouplingTests {
    func rings(_ gait: [Double], _ horizontal: [Double]) -> (RingBuffer, RingBuffer) {
        var g = RingBuffer(minimumCapacity: gait.count), h = RingBuffer(minimumCapacity: gait.count)
        for (a, b) in zip(gait, horizontal) { g.append(a); h.append(b) }
        return (g, h)
    }

    @Test func stepsThatJoltBothWaysAreCoupled() {
        // 4 s at 50 Hz, 1.6 steps/s: a sharp impact each step, vertical 0.3 g, horizontal 0.1 g,
        // on top of a horizontal sway at half the cadence (one per stride).
        let n = 200, rate = 50.0, cadence = 1.6
        var gait: [Double] = [], horizontal: [Double] = []
        for i in 0..<n {
            let t = Double(i) / rate
            let phase = (t * cadence).truncatingRemainder(dividingBy: 1)
            let impact = exp(-pow((phase - 0.2) / 0.05, 2))
            gait.append(0.3 * impact - 0.05 * cos(2 * .pi * cadence * t))
            horizontal.append(0.05 + 0.1 * impact + 0.03 * abs(sin(.pi * cadence * t)))
        }
        let (g, h) = rings(gait, horizontal)
        let c = ImpactCoupling.correlation(gait: g, horizontal: h, from: 0, count: n)
        #expect(c >= GaitGate().minimumImpactCoupling, "coupling \(c)")
    }

    @Test func aBounceAndAnIndependentSwayAreNot() {
        // Vertical bounce at 1.5 Hz, horizontal sway at 0.9 Hz: incommensurate over 4 s (3.6
        // periods of the sway), so their correlation is near 0.
        let n = 200, rate = 50.0
        let gait = (0..<n).map { 0.08 * sin(2 * .pi * 1.5 * Double($0) / rate) }
        let horizontal = (0..<n).map { 0.05 + 0.04 * sin(2 * .pi * 0.9 * Double($0) / rate + 1) }
        let (g, h) = rings(gait, horizontal)
        let c = ImpactCoupling.correlation(gait: g, horizontal: h, from: 0, count: n)
        #expect(abs(c) < GaitGate().minimumImpactCoupling, "coupling \(c)")
        let flat = rings(gait, [Double](repeating: 0.05, count: n))
        #expect(ImpactCoupling.correlation(gait: flat.0, horizontal: flat.1, from: 0, count: n) == 0)
    }
}

/// The batch forms of the filters (`PedallingAnalyser.filterHop`) give the values the per-sample
/// `update` gives, bit for bit: any change of an operation or its order shows in the last bits
/// of some of these 2 × 75 values.
@Suite struct BatchFilterTests {
    /// An input with several frequencies and an offset, so that no two filter states repeat.
    private func input(_ i: Int) -> Vector3 {
        let t = Double(i) / 50
        return Vector3(0.3 * sin(7.1 * t) + 0.01, -0.2 * cos(3.3 * t) + 0.5, 1 + 0.4 * sin(19.7 * t + 0.3))
    }

    /// Runs of odd and even lengths (the high-pass takes two inputs per pass), the first one from
    /// an unprimed low-pass, as `filterHop` calls them before and after the ring's wrap.
    @Test(arguments: [[75], [1, 74], [50, 25], [33, 0, 42]])
    func batchFiltersMatchOneUpdateAtATime(runs: [Int]) {
        var lowPass = LowPass3(timeConstant: 1 / (2 * Double.pi * 3), interval: 0.02), lowPassBatch = lowPass
        var highPass = Biquad(highPassHz: 4, rateHz: 50), highPassBatch = highPass
        var expected: [Double] = [], got: [Double] = []
        for i in 0..<runs.reduce(0, +) {
            let s = lowPass.update(input(i))
            expected += [s.x, s.y, s.z, highPass.update(input(i).z - 1)]
        }
        var from = 0
        for n in runs {
            var smoothed: [(SIMD2<Double>, Double)] = []
            lowPassBatch.update(count: n, { input(from + $0) }) { i, xy, z in
                #expect(smoothed.count == i)
                smoothed.append((xy, z))
            }
            var filtered: [(Double, Double)] = []
            highPassBatch.update(count: n, { input(from + $0).z - 1 }) { i, x, y in
                #expect(filtered.count == i)
                filtered.append((x, y))
            }
            #expect(smoothed.count == n && filtered.count == n)
            for k in 0..<n {
                #expect(filtered[k].0 == input(from + k).z - 1)
                got += [smoothed[k].0[0], smoothed[k].0[1], smoothed[k].1, filtered[k].1]
            }
            from += n
        }
        #expect(got.count == expected.count)
        for (k, (a, b)) in zip(got, expected).enumerated() { #expect(a.bitPattern == b.bitPattern, "value \(k): \(a) against \(b)") }
        #expect(lowPassBatch.value == lowPass.value)
    }

    /// Without the higher powers the squares and the differences are the same sums, bit for bit
    /// (the two copies of the loop), and the higher powers are 0.
    @Test(arguments: [0, 1, 5, 8, 9, 200, 203])
    func centredPowersWithoutHigherOnesKeepTheOtherSums(count: Int) {
        let x = (0..<count).map { sin(Double($0) * 0.37) + 0.2 }
        let mean = count > 0 ? x.reduce(0, +) / Double(count) : 0
        x.withUnsafeBufferPointer { p in
            let all = WindowSums.centredPowers(p, count: count, mean: mean)
            let two = WindowSums.centredPowers(p, count: count, mean: mean, higherPowers: false)
            #expect(two.squares.bitPattern == all.squares.bitPattern && two.differences.bitPattern == all.differences.bitPattern)
            #expect(two.cubes == 0 && two.fourths == 0)
            #expect(count < 2 || all.fourths > 0)
        }
    }
}
