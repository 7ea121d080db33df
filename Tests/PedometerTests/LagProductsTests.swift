import Foundation
import Testing
@testable import Pedometer

/// `LagProducts` reuses a window's second hop as the next window's first: the sums must be the
/// window's own lagged products however the windows follow one another (one hop apart, after a
/// trimmed window, after a gap), to single precision.
@Suite struct LagProductsTests {
    /// A deterministic gait-like series, g: two harmonics of a 1.8 steps/s cadence, a slow drift and
    /// a pseudo-random part (a linear congruential generator), with an offset of 0.04 g.
    static func series(count: Int) -> [Double] {
        var state: UInt64 = 12345
        return (0..<count).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Double(state >> 11) / Double(1 << 53) - 0.5
            let t = Double(i) / 50
            return 0.04 + 0.3 * sin(2 * Double.pi * 1.8 * t) + 0.1 * sin(2 * Double.pi * 3.6 * t + 1) + 0.02 * t / 10 + 0.05 * noise
        }
    }

    /// Σ x[i]·x[i + lag] for i in 0..<(n − lag), in double precision, and Σ |x[i]·x[i + lag]|.
    static func reference(_ x: ArraySlice<Double>, lag: Int) -> (sum: Double, magnitude: Double) {
        let x = Array(x)
        var sum = 0.0, magnitude = 0.0
        for i in 0..<(x.count - lag) { sum += x[i] * x[i + lag]; magnitude += abs(x[i] * x[i + lag]) }
        return (sum, magnitude)
    }

    /// `products`' sums of the window `x[start..<start+n]` (its values in single precision; `end`
    /// as in `LagProducts.sums`), by lag.
    static func sums(_ products: inout LagProducts, _ x: [Double], start: Int, count n: Int, end: Int?,
                     lags: ClosedRange<Int>) -> [Double] {
        var values = [Float](repeating: 0, count: n + LagProducts.padding)
        for i in 0..<n { values[i] = Float(x[start + i]) }
        var sums = [Double](repeating: .nan, count: lags.upperBound + 1)
        values.withUnsafeBufferPointer { v in
            sums.withUnsafeMutableBufferPointer { products.sums(v.baseAddress!, count: n, end: end, lags: lags, into: $0) }
        }
        return sums
    }

    /// Sums of the window `x[start..<start+n]` through `products`, checked against `reference`.
    static func check(_ products: inout LagProducts, _ x: [Double], start: Int, count n: Int, end: Int?, lags: ClosedRange<Int>) {
        let sums = Self.sums(&products, x, start: start, count: n, end: end, lags: lags)
        for lag in lags {
            let (expected, magnitude) = reference(x[start..<(start + n)], lag: lag)
            // Single-precision values and products: a relative error of about 1e-7 per term.
            #expect(abs(sums[lag] - expected) <= 1e-5 * magnitude, "window at \(start), lag \(lag): \(sums[lag]) vs \(expected)")
        }
    }

    @Test func windowsOneHopApartMatchTheirOwnSums() {
        let x = Self.series(count: 2000)
        var products = LagProducts(hop: 50, window: 200, maximumLag: 101)
        for start in stride(from: 0, through: 1000, by: 50) {
            Self.check(&products, x, start: start, count: 200, end: start + 200, lags: 11...100)
        }
    }


    /// A window one hop after another takes its first run from the one before, and for lags up to
    /// N − 3H its second run too (left by the one before's third run): the same products added in
    /// the same order as a window summed afresh, so the same sums bit for bit, every lag up to
    /// N − 2H (the longer ones add the first run's missing products in another order). Lags 8 to
    /// 101 are the cadence estimator's at 50 Hz.
    @Test func reusedRunsGiveTheFreshSumsBitForBit() {
        let x = Self.series(count: 1000)
        var sliding = LagProducts(hop: 50, window: 200, maximumLag: 101)
        for start in stride(from: 0, through: 600, by: 50) {
            let reused = Self.sums(&sliding, x, start: start, count: 200, end: start + 200, lags: 8...101)
            var once = LagProducts(hop: 50, window: 200, maximumLag: 101)
            let fresh = Self.sums(&once, x, start: start, count: 200, end: start + 200, lags: 8...101)
            for lag in 8...100 { #expect(reused[lag] == fresh[lag], "window at \(start), lag \(lag): \(reused[lag]) vs \(fresh[lag])") }
        }
    }

    /// Lags longer than N − 2H leave some of the kept run's products beyond its window's end.
    @Test func longLagsAddTheProductsTheKeptRunCouldNotHold() {
        let x = Self.series(count: 1000)
        var products = LagProducts(hop: 50, window: 200, maximumLag: 140)
        for start in stride(from: 0, through: 400, by: 50) {
            Self.check(&products, x, start: start, count: 200, end: start + 200, lags: 95...140)
        }
    }

    @Test func trimmedWindowsAndGapsAreSummedWhole() {
        let x = Self.series(count: 2000)
        var products = LagProducts(hop: 50, window: 200, maximumLag: 101)
        Self.check(&products, x, start: 0, count: 200, end: 200, lags: 11...100)
        // A trimmed window: nothing kept, and the next whole window is summed in full.
        Self.check(&products, x, start: 80, count: 150, end: nil, lags: 11...74)
        Self.check(&products, x, start: 100, count: 200, end: 300, lags: 11...100)
        Self.check(&products, x, start: 150, count: 200, end: 350, lags: 11...100)
        // A gap: absolute indices restart; a window whose end matches the kept one's by chance
        // must not reuse it.
        products.forget()
        Self.check(&products, x, start: 700, count: 200, end: 400, lags: 11...100)
        // Not one hop after the previous window: summed whole.
        Self.check(&products, x, start: 1000, count: 200, end: 500, lags: 11...100)
    }

    /// The estimator gives the same cadence and regularity (to single precision) when its windows
    /// follow one another by a hop as when each is estimated alone.
    @Test func slidingEstimatesEqualFreshOnes() throws {
        let x = Self.series(count: 1500)
        var sliding = CadenceEstimator(rateHz: 50, windowSamples: 200, hopSamples: 50)
        for start in stride(from: 0, through: 1300, by: 50) {
            let window = Array(x[start..<(start + 200)])
            var fresh = CadenceEstimator(rateHz: 50, windowSamples: 200)
            let slid = sliding.estimate(window, count: 200, end: start + 200)
            let alone = fresh.estimate(window, count: 200)
            let a = try #require(slid)
            let b = try #require(alone)
            #expect(abs(a.cadence - b.cadence) < 1e-4 && abs(a.regularity - b.regularity) < 1e-5, "\(a) vs \(b)")
            #expect(abs(a.cadence - 1.8) < 0.05)
        }
    }
}
