/// The generator's own pseudo-random source: xoshiro256** seeded through SplitMix64.
///
/// Sample logs must be byte-identical for a seed on every platform and Swift version, so nothing here
/// uses `SystemRandomNumberGenerator` or the standard library's `random(in:using:)` algorithms (whose
/// exact draws are not a documented contract). Every draw is plain integer arithmetic.
public struct SampleRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    public init(seed: UInt64) {
        var mixer = seed
        s0 = SampleRandom.splitMix(&mixer)
        s1 = SampleRandom.splitMix(&mixer)
        s2 = SampleRandom.splitMix(&mixer)
        s3 = SampleRandom.splitMix(&mixer)
    }

    /// An independent stream for a sub-part (a device, a session), so parts can be generated in any
    /// order, or in parallel, without changing each other's draws.
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: SampleRandom.mix(seed ^ SampleRandom.mix(stream &+ 0x632B_E59B_D9B4_E019)))
    }

    /// SplitMix64's step: advances `state` and returns a well-mixed value.
    static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return mix(state)
    }

    /// SplitMix64's finaliser: a bijection on `UInt64`, so distinct inputs give distinct outputs.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A value in `0..<bound` (Lemire's multiply-high; the tiny bias is irrelevant for sample data).
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    public mutating func ms(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound) + 1))
    }

    /// A uniform value in `[0, 1)` with 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        p > 0 && unit() < p
    }

    /// An index drawn with the given non-negative weights.
    public mutating func pick(weights: [Double]) -> Int {
        var total = 0.0
        for weight in weights { total += weight }
        var draw = unit() * total
        for (index, weight) in weights.enumerated() {
            if draw < weight { return index }
            draw -= weight
        }
        return weights.count - 1
    }

    public mutating func element<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
