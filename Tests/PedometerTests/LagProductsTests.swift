import Foundation
import Testing
@testable import Pedometer

/// `LagProducts` keeps each hop's sums for the windows after it: the sums must be the window's own
/// lagged products however the windows follow one another (one hop apart, after a trimmed window,
/// after a gap), to single precision.
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


    /// A window one hop after another keeps the hops it shares with the one before and adds only
    /// the products whose later tick is in its newest hop, where each hop's chains left off: the
    /// same sums, bit for bit, as the window summed afresh, every lag (8 to 101 are the cadence
    /// estimator's at 50 Hz; up to 160 reaches lags longer than N − H, whose products start in
    /// the window's first hop).
    @Test func reusedHopsGiveTheFreshSumsBitForBit() {
        let x = Self.series(count: 1000)
        for lags in [8...101, 95...160] {
            var sliding = LagProducts(hop: 50, window: 200, maximumLag: lags.upperBound)
            for start in stride(from: 0, through: 600, by: 50) {
                let reused = Self.sums(&sliding, x, start: start, count: 200, end: start + 200, lags: lags)
                var once = LagProducts(hop: 50, window: 200, maximumLag: lags.upperBound)
                let fresh = Self.sums(&once, x, start: start, count: 200, end: start + 200, lags: lags)
                for lag in lags { #expect(reused[lag] == fresh[lag], "window at \(start), lag \(lag): \(reused[lag]) vs \(fresh[lag])") }
            }
        }
    }

    /// Each kept hop's two chains are plain sequential single-precision sums, in increasing i, of
    /// x[i]·x[i + ℓ] over the hop's even (odd) ticks i whose later tick is inside the window, the
    /// window's values in single precision: bit for bit, after windows one hop apart and after a
    /// trimmed window and a gap (summed afresh). Lags from 8 (the estimator's) and from 11 (a pass
    /// that starts on an odd lag ends its ranges on odd ticks: a hop's last tick alone).
    @Test(arguments: [8...101, 11...120])
    func eachHopsChainsArePlainSequentialSums(lags: ClosedRange<Int>) {
        let x = Self.series(count: 1200)
        let hop = 50, n = 200
        var products = LagProducts(hop: hop, window: n, maximumLag: lags.upperBound)
        func checkChains(start: Int) {
            let v = (0..<n).map { Float(x[start + $0]) }
            for h in 0..<(n / hop) {
                for c in 0..<2 {
                    for lag in lags {
                        var sum: Float = 0
                        for i in stride(from: h * hop + c, to: min((h + 1) * hop, n - lag), by: 2) { sum += v[i] * v[i + lag] }
                        let kept = products.chainSum(hop: h, chain: c, lag: lag)
                        #expect(kept == sum, "window at \(start), hop \(h), chain \(c), lag \(lag): \(kept) vs \(sum)")
                    }
                }
            }
        }
        for start in stride(from: 0, through: 400, by: 50) {
            _ = Self.sums(&products, x, start: start, count: n, end: start + n, lags: lags)
            checkChains(start: start)
        }
        _ = Self.sums(&products, x, start: 470, count: 180, end: nil, lags: lags.lowerBound...89)
        for start in [500, 550, 600] {
            _ = Self.sums(&products, x, start: start, count: n, end: start + n, lags: lags)
            checkChains(start: start)
        }
        products.forget()
        for start in [900, 950] {
            _ = Self.sums(&products, x, start: start, count: n, end: start - 400, lags: lags)
            checkChains(start: start)
        }
    }

    /// The window's sums against an exact sum of the same single-precision products, within the
    /// bound of their rounding: a chain adds at most ⌈H/2⌉ products, each rounded once (u = 2⁻²⁴)
    /// and added with one more rounding; the two chains of a hop add with one rounding (c + 1
    /// roundings on any product: γ(c + 1) = (c + 1)·u / (1 − (c + 1)·u) of Σ |x[i]·x[i + ℓ]|,
    /// Higham's bound for recursive summation); the hops add in double precision, and the reference
    /// sums up to N exact products in double precision (2⁻⁵³ per addition, on both sides).
    @Test(arguments: [8...101, 11...120])
    func sumsAreWithinTheRoundingBoundOfTheirProducts(lags: ClosedRange<Int>) {
        let x = Self.series(count: 1500)
        let hop = 50, n = 200
        var products = LagProducts(hop: hop, window: n, maximumLag: lags.upperBound)
        func check(start: Int, count: Int, end: Int?, lags: ClosedRange<Int>) {
            let sums = Self.sums(&products, x, start: start, count: count, end: end, lags: lags)
            let v = (0..<count).map { Double(Float(x[start + $0])) }
            let c = Double((hop + 1) / 2 + 1), u = 0x1p-24
            let bound = c * u / (1 - c * u) + Double(2 * count) * 0x1p-53
            for lag in lags {
                var exact = 0.0, magnitude = 0.0
                for i in 0..<(count - lag) { exact += v[i] * v[i + lag]; magnitude += abs(v[i] * v[i + lag]) }
                #expect(abs(sums[lag] - exact) <= bound * magnitude,
                        "window at \(start), lag \(lag): \(sums[lag]) vs \(exact), bound \(bound * magnitude)")
            }
        }
        for start in stride(from: 0, through: 1000, by: 50) { check(start: start, count: n, end: start + n, lags: lags) }
        check(start: 1030, count: 170, end: nil, lags: lags.lowerBound...84)
        check(start: 1100, count: n, end: 1300, lags: lags)
    }

    /// Lags longer than N − 2H have products from the window's first hop to its newest.
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
