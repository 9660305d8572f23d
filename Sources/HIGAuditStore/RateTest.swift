import Foundation

/// Whether two releases' shares of sessions affected by a rule differ beyond chance: a two-sided
/// two-proportion z-test (pooled), or Fisher's exact test when an expected cell count is below 5 and the
/// normal approximation would mislead (rare rules, small releases).
///
/// The unit is the session, not the violation: sessions are independent, while a session's violations
/// are not (one user's habit produces many), so counting violations would overstate significance.
public struct RateTest: Sendable, Equatable {
    public enum Method: String, Sendable {
        case twoProportionZ = "z-test"
        case fisherExact = "fisher-exact"
    }

    public var method: Method
    /// The z statistic (head minus base), nil for Fisher's test.
    public var z: Double?
    /// Two-sided p-value.
    public var pValue: Double

    /// Compares `affectedBase` of `totalBase` sessions with `affectedHead` of `totalHead`.
    public static func compare(affectedBase: Int64, totalBase: Int64, affectedHead: Int64, totalHead: Int64) -> RateTest {
        guard totalBase > 0, totalHead > 0 else { return RateTest(method: .twoProportionZ, z: nil, pValue: 1) }
        let n1 = Double(totalBase), n2 = Double(totalHead)
        let affected = Double(affectedBase + affectedHead)
        let total = n1 + n2
        let expected = [n1 * affected / total, n2 * affected / total, n1 * (total - affected) / total, n2 * (total - affected) / total]
        if expected.contains(where: { $0 < 5 }) {
            return RateTest(
                method: .fisherExact, z: nil,
                pValue: fisherExact(a: affectedBase, b: totalBase - affectedBase, c: affectedHead, d: totalHead - affectedHead))
        }
        let pooled = affected / total
        let standardError = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
        let difference = Double(affectedHead) / n2 - Double(affectedBase) / n1
        guard standardError > 0 else { return RateTest(method: .twoProportionZ, z: 0, pValue: 1) }
        let z = difference / standardError
        return RateTest(method: .twoProportionZ, z: z, pValue: min(1, erfc(abs(z) / 2.0.squareRoot())))
    }

    /// Two-sided Fisher's exact test of the 2×2 table [[a, b], [c, d]]: the probability, with the
    /// margins fixed, of a table no more likely than the one observed.
    public static func fisherExact(a: Int64, b: Int64, c: Int64, d: Int64) -> Double {
        let row1 = a + b, column1 = a + c, total = a + b + c + d
        guard total > 0 else { return 1 }
        func logChoose(_ n: Int64, _ k: Int64) -> Double {
            lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
        }
        let logDenominator = logChoose(total, column1)
        func probability(_ x: Int64) -> Double {
            exp(logChoose(row1, x) + logChoose(total - row1, column1 - x) - logDenominator)
        }
        let observed = probability(a)
        var p = 0.0
        let low = max(0, column1 - (total - row1)), high = min(row1, column1)
        var x = low
        while x <= high {
            let value = probability(x)
            // A relative tolerance, so tables as likely as the observed one are not lost to rounding.
            if value <= observed * (1 + 1e-7) { p += value }
            x += 1
        }
        return min(1, p)
    }
}
