/// A short event id as `EventTexts` keeps it: its bytes as `CompactText`'s inline words (zero after
/// `count`) and its length, at most 16.
typealias InlineId = (low: UInt64, high: UInt64, count: Int)

/// One session's numbered ids, as bits of a bitmap indexed by their number (see `SeenIds`).
///
/// A numbered id is a prefix of any bytes, possibly none, followed by a decimal number of at most 16
/// digits without leading zeros (`e1`, `e10`, `42`; not `e07`), so that a number is written one way
/// only. The first one the session records fixes the prefix (its bytes before the trailing digits)
/// and the bitmap's `base`, `slack` below its number for ids that arrive out of order.
///
/// An id belongs to the bitmap when it has the prefix and its number is in `base ..< ceiling`. The
/// bitmap covers `base ..< base + coveredBits` and grows upwards to the ids that belong to it while
/// it stays dense: at most `bitsPerId` bits for each id it holds, plus a start, so it never takes
/// more memory than the fingerprint set would for the same ids (8-byte slots, at most three quarters
/// full). A number it may not grow to becomes the `ceiling`, and that id, like every one above it,
/// belongs to the fingerprint set from then on. `ceiling` only falls, never into the covered bits,
/// and the prefix and `base` never change: an id never moves from one structure to the other.
///
/// The bits are raw memory, read on every event without uniqueness or bounds checks; the owner
/// (`SeenIds`, noncopyable) frees them with `deallocate()`, exactly once.
struct NumberedIds {
    /// The prefix as inline words and its length; -1 before the first numbered id.
    private var prefixLow: UInt64 = 0
    private var prefixHigh: UInt64 = 0
    private var prefixCount = -1
    /// What `quickBit` compares an id's low word with, under `quickMask`: the prefix when it is
    /// shorter than a word, and otherwise a value no masked word equals (1 under a zero mask).
    private var quickPrefix: UInt64 = 1
    private var quickMask: UInt64 = 0
    private var base: UInt64 = 0
    private var ceiling: UInt64 = .max
    private var words: UnsafeMutablePointer<UInt64>?
    private var wordCount = 0
    private var coveredBits: UInt64 = 0
    /// Ids held.
    private(set) var count = 0

    /// Bits kept below the first number, for ids that arrive before it (reordered uploads).
    static let slack: UInt64 = 192
    /// Covers the slack and the first number.
    static let startingWords = 4
    /// The density bound: 16 bytes an id, what the fingerprint set spends on average.
    static let bitsPerId: UInt64 = 128
    /// Ids the bound allows for before any is held (1 KiB of bits).
    static let startingAllowance: UInt64 = 64

    init() {}

    /// Frees the bits.
    mutating func deallocate() {
        words?.deallocate()
        words = nil
        wordCount = 0
        coveredBits = 0
    }

    /// The id's bit when the id has the prefix in its low word, is numbered, and the bitmap covers it;
    /// -1 otherwise, which says nothing (`place` decides). Most ids of a numbered session are like
    /// this: their digits are where the prefix ends and are only checked, one word at once. The
    /// prefix ends in a byte that is not a digit, so `split` would find the same digits.
    @inline(__always)
    func quickBit(_ id: InlineId) -> Int {
        let digits = id.count &- prefixCount
        guard id.count <= 8, digits > 0, id.low & quickMask == quickPrefix else { return -1 }
        let word = id.low &>> UInt64(truncatingIfNeeded: (prefixCount &* 8) & 63)
        // `digits` is 1–8 here: the prefix is shorter than a word.
        let kept = UInt64.max &>> UInt64(truncatingIfNeeded: (64 &- digits &* 8) & 63)
        guard Self.notDigits(word) & kept == 0, digits == 1 || word & 0xFF != 0x30 else { return -1 }
        let number = Self.digitsValue(word, count: digits)
        let bit = number &- base
        guard number >= base, number < ceiling, bit < coveredBits else { return -1 }
        return Int(truncatingIfNeeded: bit)
    }

    /// The id's bit if it belongs to the bitmap, which grows to cover it; nil if it belongs to the
    /// fingerprint set. The first numbered id fixes the prefix and `base`; a number the bitmap may not
    /// grow to becomes the `ceiling`. Placing an id again gives the same answer and changes nothing.
    mutating func place(_ id: InlineId) -> Int? {
        guard let (prefix, number) = Self.split(id) else { return nil }
        if prefixCount < 0 { adopt(id, prefixCount: prefix, number: number) }
        guard hasPrefix(id, count: prefix), number >= base, number < ceiling else { return nil }
        let bit = number &- base
        if bit >= coveredBits, !grow(toHold: bit) {
            ceiling = number
            return nil
        }
        return Int(truncatingIfNeeded: bit)
    }

    /// The id's bit if it belongs to the bitmap and the bitmap covers it; records nothing.
    func bit(of id: InlineId) -> Int? {
        guard let (prefix, number) = Self.split(id), hasPrefix(id, count: prefix), number >= base, number < ceiling
        else { return nil }
        let bit = number &- base
        return bit < coveredBits ? Int(truncatingIfNeeded: bit) : nil
    }

    /// Whether a covered bit is set.
    @inline(__always)
    func contains(_ bit: Int) -> Bool {
        guard let words else { return false }
        return words[bit &>> 6] & (1 &<< UInt64(truncatingIfNeeded: bit & 63)) != 0
    }

    /// Sets a covered bit; false if it was set already.
    @inline(__always)
    mutating func insert(_ bit: Int) -> Bool {
        guard let words else { return false }
        let word = words + (bit &>> 6)
        let mask: UInt64 = 1 &<< UInt64(truncatingIfNeeded: bit & 63)
        if word.pointee & mask != 0 { return false }
        word.pointee |= mask
        count &+= 1
        return true
    }

    /// The ids held, spelled out (for a checkpoint).
    var members: [String] {
        guard prefixCount >= 0, let words else { return [] }
        let prefix = CompactText(low: prefixLow, high: prefixHigh, count: UInt8(truncatingIfNeeded: prefixCount)).string
        var ids: [String] = []
        ids.reserveCapacity(count)
        for index in 0..<wordCount where words[index] != 0 {
            for offset in 0..<64 where words[index] & (1 &<< UInt64(offset)) != 0 {
                ids.append(prefix + String(base &+ UInt64(index &* 64 &+ offset)))
            }
        }
        return ids
    }

    /// Words the bitmap takes, for tests of the density bound.
    var bitmapWords: Int { wordCount }

    /// Where the id's trailing digits start and their value, if it is a numbered id.
    static func split(_ id: InlineId) -> (prefixCount: Int, number: UInt64)? {
        var start = id.count
        while start > 0, digit(id, at: start &- 1) < 10 { start &-= 1 }
        let digits = id.count &- start
        guard digits > 0, digits == 1 || digit(id, at: start) != 0 else { return nil }
        var number: UInt64 = 0
        for index in start..<id.count { number = number &* 10 &+ digit(id, at: index) }
        return (start, number)
    }

    /// The byte at `index` minus `0`: 0–9 for a digit, more for anything else.
    @inline(__always)
    private static func digit(_ id: InlineId, at index: Int) -> UInt64 {
        let word = index < 8 ? id.low : id.high
        return ((word &>> UInt64(truncatingIfNeeded: (index & 7) &* 8)) & 0xFF) &- 0x30
    }

    /// Bit 7 of each byte of `word` that is not an ASCII digit. Exact for every byte: no carry
    /// crosses into the next byte.
    @inline(__always)
    private static func notDigits(_ word: UInt64) -> UInt64 {
        let offset = word ^ 0x3030_3030_3030_3030
        // A byte of `offset` is 10 or more when its low seven bits plus 0x76 reach 0x80, or bit 7 is set.
        return (((offset & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | offset) & 0x8080_8080_8080_8080
    }

    /// The value of the first `count` (1–8) ASCII digits of `word`, lowest byte first: moved to the top
    /// bytes, then pairs, fours and eights combined.
    @inline(__always)
    private static func digitsValue(_ word: UInt64, count: Int) -> UInt64 {
        var value = (word &<< UInt64(truncatingIfNeeded: (64 &- 8 &* count) & 63)) & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) &>> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
    }

    /// The first `count` bytes of the id's words, the others zero.
    private static func masked(_ id: InlineId, to count: Int) -> (low: UInt64, high: UInt64) {
        let low = count >= 8 ? id.low : id.low & ((1 &<< UInt64(count &* 8)) &- 1)
        let high = count >= 16 ? id.high : count <= 8 ? 0 : id.high & ((1 &<< UInt64((count &- 8) &* 8)) &- 1)
        return (low, high)
    }

    private func hasPrefix(_ id: InlineId, count: Int) -> Bool {
        guard count == prefixCount else { return false }
        let prefix = Self.masked(id, to: count)
        return prefix.low == prefixLow && prefix.high == prefixHigh
    }

    private mutating func adopt(_ id: InlineId, prefixCount count: Int, number: UInt64) {
        (prefixLow, prefixHigh) = Self.masked(id, to: count)
        prefixCount = count
        if count < 8 {
            quickPrefix = prefixLow
            quickMask = (1 &<< UInt64(count &* 8)) &- 1
        }
        base = number &- min(number, Self.slack)
        resize(to: Self.startingWords)
    }

    /// Grows the bitmap to cover `bit` (at least doubling it) if the density bound allows.
    private mutating func grow(toHold bit: UInt64) -> Bool {
        let limit = (UInt64(count) &+ Self.startingAllowance) &* Self.bitsPerId
        guard bit < limit else { return false }
        let needed = Int(truncatingIfNeeded: bit &>> 6) &+ 1
        let allowed = Int(truncatingIfNeeded: (limit &+ 63) &>> 6)
        resize(to: min(max(needed, wordCount &* 2), allowed))
        return true
    }

    private mutating func resize(to newCount: Int) {
        let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: newCount)
        larger.initialize(repeating: 0, count: newCount)
        if let words {
            larger.update(from: words, count: wordCount)
            words.deallocate()
        }
        words = larger
        wordCount = newCount
        coveredBits = UInt64(newCount) &* 64
    }
}
