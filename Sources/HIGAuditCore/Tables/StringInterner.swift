/// Keeps one copy of each repeated string (rule ids, screens, devices, app versions) and hands out
/// small integer ids, so that a million stored violations cost a few bytes each for these fields.
///
/// A string is first looked for among the recent ones by its two words (`recent`), before the
/// dictionary hashes its bytes: the same few rule ids, screens and app versions come again and again
/// as sessions close. Equal words are the same string: they are the inline bytes of a small string, or
/// the storage of one the interner keeps (`strings`), which is never freed while the words are held,
/// so no other string can come to have them. A string equal to a kept one in other storage is found
/// by the dictionary, as before.
struct StringInterner: Sendable {
    private var ids: [String: Int] = [:]
    private(set) var strings: [String] = []
    /// By a hash of its words, the words of a kept string and its id; id -1 in an empty place.
    private var recent = [RecentString](repeating: RecentString(), count: StringInterner.recentPlaces)
    private static let recentPlaces = 64

    private struct RecentString: Sendable {
        var words: (UInt64, UInt64) = (0, 0)
        var id = -1
    }

    mutating func intern(_ string: String) -> Int {
        let words = Self.words(of: string)
        let place = Self.place(of: words)
        if recent[place].id >= 0, recent[place].words == words { return recent[place].id }
        let id: Int
        if let found = ids[string] {
            id = found
        } else {
            id = strings.count
            strings.append(string)
            ids[string] = id
        }
        // The kept string's words: its storage lives as long as the interner.
        let kept = Self.words(of: strings[id])
        recent[Self.place(of: kept)] = RecentString(words: kept, id: id)
        return id
    }

    subscript(id: Int) -> String { strings[id] }

    @inline(__always)
    private static func words(of string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func place(of words: (UInt64, UInt64)) -> Int {
        let mixed = (words.0 ^ (words.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed &>> 58)
    }
}
