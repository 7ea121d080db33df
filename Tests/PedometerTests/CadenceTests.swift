import Foundation
import Testing
@testable import Pedometer

@Suite struct CadenceTests {
    @Test(arguments: [1.4, 1.8, 2.2, 2.8, 3.3])
    func cadenceOfGaitWithinOneHundredthOfAStep(cadence: Double) throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        // Steps faster than a walk are read only at a running strength
        // (`CadenceEstimator.runningDeviation`): the 3.3 steps/s signal at four times a walk's size.
        let size = cadence > CadenceEstimator.fastestWalkingCadence ? 4.0 : 1
        let signal = gaitSignal(cadence: cadence, rate: 50, seconds: 4).map { size * $0 }
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(abs(estimate.cadence - cadence) < 0.01, "\(estimate.cadence)")
        #expect(estimate.regularity > 0.8)
    }

    /// With the phone on one leg, every other step looks different and the strongest repeat is
    /// the stride; the estimator must still report steps.
    @Test(arguments: [1.5, 1.9])
    func strideIsTakenForTwoSteps(cadence: Double) throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let signal = gaitSignal(cadence: cadence, rate: 50, seconds: 4, strideAsymmetry: 0.6)
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(abs(estimate.cadence - cadence) < 0.02, "\(estimate.cadence)")
    }

    @Test func flatWindowHasNoCadence() {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        #expect(estimator.estimate([Double](repeating: 0.3, count: 200), count: 200) == nil)
    }

    @Test func shapeTellsGaitFromAWavedPhone() {
        let gait = gaitSignal(cadence: 2, rate: 50, seconds: 4)
        let wave = (0..<200).map { 0.6 * sin(2 * Double.pi * 2 * Double($0) / 50) }
        let gaitShape = GaitShape.measure(gait, count: 200, rateHz: 50, cadence: 2)
        let waveShape = GaitShape.measure(wave, count: 200, rateHz: 50, cadence: 2)
        #expect(waveShape.purity > 0.97 && waveShape.rmsFrequency < 2.1)
        #expect(gaitShape.purity < 0.97 && gaitShape.rmsFrequency > 1.06 * 2)
    }

    /// `purityBelow` skips the purity only where the RMS frequency reaches the limit: below it the
    /// shape is the one measured without a limit, figure for figure; at or above it only the
    /// purity is 0 (a waved phone's pure 2 Hz sine is 1.0 pure at an RMS frequency of 2 Hz).
    @Test func purityIsSkippedOnlyAboveItsLimit() {
        let wave = (0..<100).map { 0.6 * sin(2 * Double.pi * 2 * Double($0) / 50) }
        let full = GaitShape.measure(wave, count: 100, rateHz: 50, cadence: 2, skewAndKurtosis: false)
        #expect(full.purity > 0.97 && abs(full.rmsFrequency - 2) < 0.05)
        let below = GaitShape.measure(wave, count: 100, rateHz: 50, cadence: 2, skewAndKurtosis: false, purityBelow: 2.2)
        #expect(below == full)
        let above = GaitShape.measure(wave, count: 100, rateHz: 50, cadence: 2, skewAndKurtosis: false, purityBelow: 1.8)
        #expect(above.purity == 0 && above.rmsFrequency == full.rmsFrequency)
    }

    /// The two-chain Goertzel equals the plain DFT sum at any frequency, for even and odd
    /// lengths (the odd chain's phase differs between the two).
    @Test(arguments: [200, 151, 2, 3])
    func fundamentalPowerMatchesTheDFT(count: Int) {
        let x = gaitSignal(cadence: 1.7, rate: 50, seconds: 5, strideAsymmetry: 0.2).map { $0 + 0.1 }
        let mean = x.prefix(count).reduce(0, +) / Double(count)
        for frequency in [0.9, 1.7, 3.4, 11.0] {
            var re = 0.0, im = 0.0
            for i in 0..<count {
                let angle = -2 * Double.pi * frequency / 50 * Double(i)
                re += (x[i] - mean) * cos(angle)
                im += (x[i] - mean) * sin(angle)
            }
            let direct = re * re + im * im
            let fast = x.withUnsafeBufferPointer { GaitShape.power($0, count: count, mean: mean, frequency: frequency, rateHz: 50) }
            #expect(abs(fast - direct) <= 1e-9 * max(1, direct), "n \(count), \(frequency) Hz: \(fast) vs \(direct)")
        }
    }

    /// The analysis's measure runs Goertzel's chains in the centred powers' pass: its moments,
    /// RMS frequency and purity are the separate passes' (`centredPowers`, then `power`), bit for
    /// bit, for every length's tails (a chain pair left over, an odd sample).
    @Test(arguments: [2, 3, 4, 5, 6, 7, 9, 198, 199, 200, 201])
    func oneMeasurePassGivesTheSeparatePassesBitForBit(count: Int) {
        let x = gaitSignal(cadence: 1.7, rate: 50, seconds: 5, strideAsymmetry: 0.2).map { $0 + 0.1 }
        let mean = x.prefix(count).reduce(0, +) / Double(count)
        for cadence in [0.9, 1.7, 3.4] {
            let shape = GaitShape.measure(x, count: count, rateHz: 50, cadence: cadence, mean: mean)
            let sums = x.withUnsafeBufferPointer { WindowSums.centredPowers($0, count: count, mean: mean) }
            let m2 = sums.squares / Double(count), m3 = sums.cubes / Double(count), m4 = sums.fourths / Double(count)
            let fundamental = x.withUnsafeBufferPointer { GaitShape.power($0, count: count, mean: mean, frequency: cadence, rateHz: 50) }
            #expect(shape.skewness == m3 / (m2 * m2.squareRoot()) && shape.kurtosis == m4 / (m2 * m2), "n \(count)")
            #expect(shape.purity == min(1, 2 * fundamental / (Double(count) * Double(count) * m2)), "n \(count), \(cadence) /s")
        }
    }

    /// The four-lane sums equal plain loops, including the tails that do not fill a lane.
    @Test(arguments: [0, 1, 4, 5, 7, 200, 203])
    func windowSumsMatchPlainLoops(count: Int) {
        let x = (0..<count).map { sin(Double($0) * 0.37) + 0.2 }
        let mean = count > 0 ? x.reduce(0, +) / Double(count) : 0
        var s2 = 0.0, s3 = 0.0, s4 = 0.0, sd = 0.0
        for i in 0..<count {
            let d = x[i] - mean
            s2 += d * d; s3 += d * d * d; s4 += d * d * d * d
            if i > 0 { sd += (x[i] - x[i - 1]) * (x[i] - x[i - 1]) }
        }
        x.withUnsafeBufferPointer { p in
            #expect(abs(WindowSums.sum(p, count: count) - x.reduce(0, +)) < 1e-12)
            let sums = WindowSums.centredPowers(p, count: count, mean: mean)
            #expect(abs(sums.squares - s2) < 1e-12 && abs(sums.cubes - s3) < 1e-12)
            #expect(abs(sums.fourths - s4) < 1e-12 && abs(sums.differences - sd) < 1e-12)
        }
    }
}

/// `CadenceEstimator.convert` makes in one pass what two passes made before: the single-precision
/// values, the centred energy in four lanes, and `WindowSums.prefixSums`' running sums, bit for
/// bit (any change of an operation or its order shows in the last bits of some of these sums).
@Suite struct CadenceConvertTests {
    @Test(arguments: [0, 1, 3, 4, 7, 150, 197, 200])
    func onePassMatchesTheTwoPasses(count n: Int) {
        // A pseudo-random gait-like series with an offset (a linear congruential generator).
        var state: UInt64 = 987_654_321
        let x = (0..<200).map { i -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return 0.05 + 0.4 * sin(Double(i) * 0.23) + (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.3
        }
        let mean = n > 0 ? x[0..<n].reduce(0, +) / Double(n) : 0
        let padding = LagProducts.padding
        // Before: the values and the energy in one loop (four lanes, then a scalar tail), the
        // running sums in a second pass.
        var expectedValues = [Float](repeating: 7, count: 200 + padding), expectedPrefix = [Double](repeating: .nan, count: 201)
        var lanes = SIMD4<Double>(), i = 0
        while i + 4 <= n {
            let v = SIMD4(x[i], x[i + 1], x[i + 2], x[i + 3])
            for k in 0..<4 { expectedValues[i + k] = Float(v[k]) }
            let c = v - SIMD4(repeating: mean)
            lanes += c * c
            i += 4
        }
        var expectedEnergy = lanes.sum()
        while i < n { expectedValues[i] = Float(x[i]); expectedEnergy += (x[i] - mean) * (x[i] - mean); i += 1 }
        for k in n..<min(200, n + padding) { expectedValues[k] = 0 }
        x.withUnsafeBufferPointer { p in
            expectedPrefix.withUnsafeMutableBufferPointer { WindowSums.prefixSums(count: n, into: $0) { p[$0] } }
        }
        // After: one pass.
        var values = [Float](repeating: 7, count: 200 + padding), prefix = [Double](repeating: .nan, count: 201)
        let energy = x.withUnsafeBufferPointer { p in
            values.withUnsafeMutableBufferPointer { v in
                prefix.withUnsafeMutableBufferPointer { CadenceEstimator.convert(p, count: n, mean: mean, into: v, padding: padding, prefix: $0) }
            }
        }
        #expect(energy.bitPattern == expectedEnergy.bitPattern, "energy \(energy) against \(expectedEnergy)")
        for k in 0...n { #expect(prefix[k].bitPattern == expectedPrefix[k].bitPattern, "prefix[\(k)]: \(prefix[k]) against \(expectedPrefix[k])") }
        for k in values.indices { #expect(values[k].bitPattern == expectedValues[k].bitPattern, "value \(k): \(values[k]) against \(expectedValues[k])") }
    }
}
