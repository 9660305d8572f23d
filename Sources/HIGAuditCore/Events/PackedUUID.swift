/// A UUID written the canonical way (8-4-4-4-12 hex digits, all lowercase or all uppercase), held in
/// `CompactText`'s two inline words as its 128 bits, with a count code for its case in place of a byte
/// count.
///
/// Session ids are UUIDs in most apps' logs (`UUID().uuidString` writes the uppercase form, most
/// other libraries the lowercase one), and at 36 bytes they are too long to be inline: each event then
/// carried a `String` to compare, retain and release, and with `--jobs` the reader threads retained
/// what the engine's thread released. Packed, such an id costs what a short one does.
///
/// Every text has exactly one form: a canonical UUID is always packed (from a line's bytes or from a
/// `String`), anything else (mixed case, braces, other lengths) never is, and a UUID without letters,
/// the same in both cases, is packed as lowercase. So equal texts stay equal values, and `string`
/// gives back the bytes that were packed.
enum PackedUUID {
    /// The length of the canonical text.
    static let textLength = 36
    /// `CompactText` counts that mean a packed UUID; inline texts count 0–16 bytes.
    static let lowercase: UInt8 = 0xF0
    static let uppercase: UInt8 = 0xF1

    @inline(__always)
    static func isPacked(count: UInt8) -> Bool { count == lowercase || count == uppercase }

    /// Whether the `index`th byte of the text is a dash (after 8, 12, 16 and 20 digits).
    @inline(__always)
    private static func isDash(_ index: Int) -> Bool { index == 8 || index == 13 || index == 18 || index == 23 }

    /// The words and count code of the 36 bytes at `start` when they are a canonical UUID; nil otherwise.
    /// Out of line: the decoder's text path stays small for the short texts nearly every field has.
    @inline(never)
    static func pack(_ start: UnsafePointer<UInt8>) -> (low: UInt64, high: UInt64, count: UInt8)? {
        guard start[8] == dash, start[13] == dash, start[18] == dash, start[23] == dash else { return nil }
        let raw = UnsafeRawPointer(start)
        func four(_ offset: Int) -> UInt64 { UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        // The 32 digits as four words of eight, the first digit of each in its lowest byte.
        let groups = (
            UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)), four(9) | four(14) &<< 32,
            four(19) | four(24) &<< 32, UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt64.self)))
        guard let g0 = eightDigits(groups.0), let g1 = eightDigits(groups.1), let g2 = eightDigits(groups.2),
              let g3 = eightDigits(groups.3)
        else { return nil }
        let lower = g0.letters.lower | g1.letters.lower | g2.letters.lower | g3.letters.lower
        let upper = g0.letters.upper | g1.letters.upper | g2.letters.upper | g3.letters.upper
        if lower != 0 && upper != 0 { return nil }
        return (g0.value &<< 32 | g1.value, g2.value &<< 32 | g3.value, upper != 0 ? uppercase : lowercase)
    }

    private static let dash = UInt8(ascii: "-")
    private static let lanes: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Per byte of `word`, the high bit set when the byte is from `low` to `high` (bytes under 0x80).
    @inline(__always)
    private static func inRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        let atLeastLow = (word | highBits) &- UInt64(low) &* lanes
        let atMostHigh = (UInt64(high) &* lanes | highBits) &- word
        return atLeastLow & atMostHigh & highBits
    }

    /// The value of eight hex digits (the first in the lowest byte) and which bytes were lowercase or
    /// uppercase letters (their high bits); nil when a byte is not a hex digit. Eight bytes at once, as
    /// lanes of a word.
    @inline(__always)
    private static func eightDigits(_ word: UInt64) -> (value: UInt64, letters: (lower: UInt64, upper: UInt64))? {
        guard word & highBits == 0 else { return nil }
        let digits = inRange(word, 0x30, 0x39)
        let upper = inRange(word, 0x41, 0x46)
        let lower = inRange(word, 0x61, 0x66)
        guard digits | upper | lower == highBits else { return nil }
        // '0'–'9' end in their value, 'A'–'F' and 'a'–'f' in their value less 9.
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((upper | lower) &>> 7) &* 9
        // The first digit most significant: pairs of lanes, then pairs of pairs, then the two halves.
        let bytes = (nibbles &<< 4 | nibbles &>> 8) & 0x00FF_00FF_00FF_00FF
        let shorts = (bytes &<< 8 | bytes &>> 16) & 0x0000_FFFF_0000_FFFF
        let value = (shorts &<< 16 | shorts &>> 32) & 0xFFFF_FFFF
        return (value, (lower, upper))
    }

    /// The canonical text of a packed UUID, written into 36 bytes for `body`.
    static func withText<Result>(
        low: UInt64, high: UInt64, count: UInt8, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let letterBase: UInt8 = count == uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: textLength) { text in
            var digit = 0
            for index in 0..<textLength {
                if isDash(index) {
                    text[index] = UInt8(ascii: "-")
                    continue
                }
                let word = digit < 16 ? low : high
                let nibble = UInt8(truncatingIfNeeded: word &>> UInt64(4 &* (15 &- digit % 16))) & 0xF
                text[index] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : letterBase &+ (nibble &- 10)
                digit &+= 1
            }
            return body(UnsafeRawBufferPointer(text))
        }
    }

    static func string(low: UInt64, high: UInt64, count: UInt8) -> String {
        withText(low: low, high: high, count: count) { String(decoding: $0, as: UTF8.self) }
    }

    /// `EventIdentity.fingerprint` of the text, as it was before packing, so that an id keeps its
    /// fingerprint in checkpoints written either way. Hashed digit by digit from the words, without
    /// writing the text out: duplicate detection asks it for every event whose id is a UUID.
    static func fingerprint(low: UInt64, high: UInt64, count: UInt8) -> UInt64 {
        // A nibble of 10 or more becomes a letter: `letters` + nibble.
        let letters: UInt64 = (count == uppercase ? UInt64(UInt8(ascii: "A")) : UInt64(UInt8(ascii: "a"))) &- 10
        var hash = EventIdentity.offsetBasis
        @inline(__always) func add(_ byte: UInt64) { hash = (hash ^ byte) &* EventIdentity.prime }
        @inline(__always) func digits(_ word: UInt64, from first: Int, count: Int) {
            for index in first..<(first &+ count) {
                let nibble = (word &>> UInt64(60 &- 4 &* index)) & 0xF
                add(nibble < 10 ? UInt64(UInt8(ascii: "0")) &+ nibble : letters &+ nibble)
            }
        }
        let dash = UInt64(UInt8(ascii: "-"))
        digits(low, from: 0, count: 8)
        add(dash)
        digits(low, from: 8, count: 4)
        add(dash)
        digits(low, from: 12, count: 4)
        add(dash)
        digits(high, from: 0, count: 4)
        add(dash)
        digits(high, from: 4, count: 12)
        return hash
    }
}
