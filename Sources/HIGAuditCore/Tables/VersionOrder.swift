/// Orders app versions the way people read them: `5.9` before `5.10`, `5.2` before `5.2.1`.
///
/// Runs of digits compare as numbers, everything else as text; equal-reading versions (`5.02` and
/// `5.2`) fall back to plain text order so the order is total and stable.
public enum VersionOrder {
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        var left = a.utf8[...]
        var right = b.utf8[...]
        while let l = left.first, let r = right.first {
            if isDigit(l), isDigit(r) {
                let leftRun = left.prefix(while: isDigit)
                let rightRun = right.prefix(while: isDigit)
                let leftDigits = leftRun.drop { $0 == UInt8(ascii: "0") }
                let rightDigits = rightRun.drop { $0 == UInt8(ascii: "0") }
                if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count }
                if !leftDigits.elementsEqual(rightDigits) { return leftDigits.lexicographicallyPrecedes(rightDigits) }
                left = left.dropFirst(leftRun.count)
                right = right.dropFirst(rightRun.count)
            } else {
                if l != r { return l < r }
                left = left.dropFirst()
                right = right.dropFirst()
            }
        }
        if left.isEmpty != right.isEmpty { return left.isEmpty }
        return a < b
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
