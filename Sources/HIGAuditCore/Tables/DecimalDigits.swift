/// Whole numbers written as decimal digits straight into bytes, for the text that is made in place:
/// the table writers' integers and source lines (`FileOutput.write(integer:)`), and the `PATH:LINE` of
/// a source location as text (`SourceFileTable.describe`).
public enum DecimalDigits {
    /// How many digits `value` has (1 for 0).
    @inline(__always)
    public static func count(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits &+= 1
            rest /= 10
        }
        return digits
    }

    /// Writes the `count(value)` digits of `value` at `buffer`, most significant first, and returns how
    /// many it wrote.
    @inline(__always)
    public static func write(_ value: UInt64, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = count(value)
        var rest = value
        var position = digits
        repeat {
            position &-= 1
            buffer[position] = UInt8(truncatingIfNeeded: 0x30 &+ rest % 10)
            rest /= 10
        } while rest > 0
        return digits
    }
}
