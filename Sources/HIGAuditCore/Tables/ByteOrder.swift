extension String {
    /// Whether this string's UTF-8 bytes sort before `other`'s: the order of paths on the command line,
    /// of SQLite's `BINARY` collation and of `LC_ALL=C sort`, which the inputs and the stored rows
    /// follow. The same answer as `utf8.lexicographicallyPrecedes(other.utf8)`, read from the two
    /// strings' contiguous bytes rather than through the views' indices, which cost several times
    /// more a byte where thousands of paths or rows are sorted or merged.
    public func precedesInByteOrder(_ other: String) -> Bool {
        let answer = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                let common = Swift.min(left.count, right.count)
                var index = 0
                while index < common {
                    if left[index] != right[index] { return left[index] < right[index] }
                    index &+= 1
                }
                return left.count < right.count
            }
        }
        if let answer, let answer { return answer }
        return utf8.lexicographicallyPrecedes(other.utf8)
    }
}
