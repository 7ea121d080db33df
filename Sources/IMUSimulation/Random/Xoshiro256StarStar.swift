#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number generators", 2021):
/// the simulator's own generator, so the same seed gives the same random stream on every platform
/// and Swift version (the standard library's generator is not seedable). Samples built from it are
/// identical run to run on one platform; across C libraries, sin/exp/log may differ in the last bit.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
    /// Second Box–Muller output, kept for the next `gaussian()` call.
    private var spareGaussian: Double?

    /// Seeds the 256-bit state from `seed` through SplitMix64 (never all zero).
    public init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next(); s1 = mixer.next(); s2 = mixer.next(); s3 = mixer.next()
    }

    /// A generator with this exact state (for checking against the reference outputs).
    init(state: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = state
    }

    /// A generator for an independent stream `stream` of the same seed (e.g. plan vs. noise).
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        self.init(seed: mixer.next())
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inline(__always) private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// Standard normal deviate by the Box–Muller transform (both outputs used).
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        // 1 − u keeps the logarithm's argument in (0, 1].
        let u1 = 1 - uniform(), u2 = uniform()
        let radius = (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * sin(angle)
        return radius * cos(angle)
    }

    /// Three independent standard normal deviates.
    public mutating func gaussian3() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
}
