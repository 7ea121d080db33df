/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
///
/// Used only to expand one 64-bit seed into the 256-bit state of `Xoshiro256StarStar`, as the
/// xoshiro authors recommend, and to derive independent sub-seeds (one per random stream).
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        // Constants from the SplitMix64 reference: the golden-ratio increment and two mixing multipliers.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
