/// The values naming one group of `query --group-by`, equal when their bytes are.
///
/// Why not `[String]`: SQLite groups text by its bytes (the BINARY collation), while Swift's `String`
/// compares canonically equivalent texts equal (NFC "é" and NFD "e" + U+0301): two of SQLite's groups
/// became one key, and one group's counts overwrote the other's. Keyed by bytes, each group SQLite
/// counted keeps its own row, and the rows add up to the violations counted.
struct GroupKey: Hashable {
    var values: [String]

    init(_ values: [String]) { self.values = values }

    subscript(index: Int) -> String { values[index] }

    static func == (a: GroupKey, b: GroupKey) -> Bool {
        a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    func hash(into hasher: inout Hasher) {
        for value in values {
            var value = value
            hasher.combine(value.utf8.count)
            value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Whether the value at `index` has other bytes than `other`'s.
    func differs(from other: GroupKey, at index: Int) -> Bool {
        !values[index].utf8.elementsEqual(other.values[index].utf8)
    }

    /// Byte order of the whole key: the last tie-break between keys their dimensions order alike.
    func precedesInBytes(_ other: GroupKey) -> Bool {
        for (a, b) in zip(values, other.values) where !a.utf8.elementsEqual(b.utf8) {
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return false
    }
}
