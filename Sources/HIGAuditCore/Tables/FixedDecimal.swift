/// A decimal number with a fixed count of places, held exactly as a scaled integer.
///
/// Percentages and rates in the tables are printed with two decimals. Computing them as integers
/// (rounded half away from zero) makes the printed value independent of floating-point formatting and
/// identical on every platform, without Foundation.
public struct FixedDecimal: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    /// The value × 10^places.
    public var units: Int64
    public var places: Int

    public init(units: Int64, places: Int) {
        self.units = units
        self.places = max(0, min(places, 18))
    }

    /// `numerator × scale ÷ denominator` rounded half away from zero to `places` decimals, where
    /// `scale` multiplies the ratio first (100 for a percentage). Zero when the denominator is zero.
    public static func ratio(_ numerator: Int64, _ denominator: Int64, scale: Int64 = 1, places: Int = 2) -> FixedDecimal {
        let places = max(0, min(places, 18))
        guard denominator != 0 else { return FixedDecimal(units: 0, places: places) }
        var factor: Int64 = scale
        for _ in 0..<places {
            let (next, overflow) = factor.multipliedReportingOverflow(by: 10)
            if overflow { return approximateRatio(numerator, denominator, scale: scale, places: places) }
            factor = next
        }
        let (scaled, overflow) = numerator.multipliedReportingOverflow(by: factor)
        if overflow { return approximateRatio(numerator, denominator, scale: scale, places: places) }
        let negative = (scaled < 0) != (denominator < 0)
        let magnitudeNumerator = scaled.magnitude
        let magnitudeDenominator = denominator.magnitude
        var quotient = magnitudeNumerator / magnitudeDenominator
        let remainder = magnitudeNumerator % magnitudeDenominator
        if remainder >= magnitudeDenominator - remainder { quotient += 1 }
        let clamped = Int64(clamping: quotient)
        return FixedDecimal(units: negative ? -clamped : clamped, places: places)
    }

    /// Only for values so large that the exact integer path overflows; such values are not meaningful
    /// percentages anyway, but must not trap.
    private static func approximateRatio(_ numerator: Int64, _ denominator: Int64, scale: Int64, places: Int) -> FixedDecimal {
        var value = Double(numerator) / Double(denominator) * Double(scale)
        for _ in 0..<places { value *= 10 }
        let rounded = value.rounded(.toNearestOrAwayFromZero)
        let units: Int64 = rounded >= 9.2e18 ? .max : rounded <= -9.2e18 ? .min : Int64(rounded)
        return FixedDecimal(units: units, places: places)
    }

    public var description: String {
        let magnitude = units.magnitude
        var digits = String(magnitude)
        if places > 0 {
            if digits.count <= places {
                digits = String(repeating: "0", count: places - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
        }
        return units < 0 ? "-" + digits : digits
    }

    public static func < (a: FixedDecimal, b: FixedDecimal) -> Bool {
        // Only values with equal places are compared in this code base; compare as doubles otherwise.
        if a.places == b.places { return a.units < b.units }
        return a.doubleValue < b.doubleValue
    }

    public var doubleValue: Double {
        var value = Double(units)
        for _ in 0..<places { value /= 10 }
        return value
    }
}
