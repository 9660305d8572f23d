extension CompactText {
    /// Session-id order (`OpenSession.idOrder`, `SessionEngine.idOrder`) of two inline texts of ASCII
    /// bytes, read from their words; nil when either is another text (non-ASCII, a packed UUID or more
    /// than 16 bytes), which the callers compare as `String`s.
    ///
    /// For ASCII, `String`'s order is the bytes' order (each byte is its Unicode scalar, and no ASCII
    /// text has another canonically equivalent spelling), and two texts of different bytes are different
    /// strings. Sorting the sessions that close at the end of input compares many ids: comparing their
    /// `String`s cost far more than a few words (figures: `Tests/Benchmarks/README.md`, "The session
    /// engine's own costs").
    ///
    /// The words hold bytes 0–7 and 8–15 little-endian, zero beyond the count: byte-swapped, they compare
    /// as the bytes do, and when the words are equal the shorter text is a prefix of the other (its
    /// missing bytes are the other's zeros), which sorts first.
    @inline(__always)
    func asciiIdOrder(before other: CompactText) -> Bool? {
        guard let mine = inlineParts, let theirs = other.inlineParts,
              mine.count <= UInt8(Self.inlineCapacity), theirs.count <= UInt8(Self.inlineCapacity),
              (mine.low | mine.high | theirs.low | theirs.high) & 0x8080_8080_8080_8080 == 0
        else { return nil }
        if mine.low != theirs.low { return mine.low.byteSwapped < theirs.low.byteSwapped }
        if mine.high != theirs.high { return mine.high.byteSwapped < theirs.high.byteSwapped }
        return mine.count < theirs.count
    }
}
