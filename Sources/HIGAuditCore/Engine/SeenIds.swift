/// The ids one session has accepted, for duplicate detection (SPEC §2: "a later event with an `id`
/// already seen in its session is a duplicate").
///
/// Most apps number a session's events (`e1`, `e2`, … or `1`, `2`, …). Such an id goes to a bitmap
/// indexed by its number (`NumberedIds`), where consecutive ids share a word: checking and recording
/// one is a few dozen instructions and a load that is nearly always cached. Every other id goes to
/// the fingerprint set, where its 64-bit hash is computed byte by byte and its table probe misses the
/// cache once the session has a few thousand ids.
///
/// An id is always looked up in the structure it was recorded in: which one it belongs to never
/// changes over a session (see `NumberedIds`). The bitmap is exact: it holds only ids made of the
/// session's numbering prefix and a number written without leading zeros, so a bit stands for one
/// byte string. The fingerprint set is as exact as `EventIdentity` says.
///
/// A checkpoint keeps every id as its fingerprint, those in the bitmap included, so its format and
/// contents are as before. A session restored from one has all its ids in the fingerprint set; it
/// then also looks a numbered id up there before taking it as new.
///
/// **The bound.** One session keeps at most `exactLimit` ids exactly (the bitmap stops growing and
/// the fingerprint set stops taking ids once the two hold that many). Later ids that neither holds
/// go to `IdFilter`, a Bloom filter of fixed size made at that moment: memory and checkpoint stay
/// bounded however many ids one hostile or broken device sends in one session. The filter never
/// misses a duplicate but may take a new id for one; a duplicate it reports is counted by the
/// engine as a duplicate and, as such, an unverified one (`takeUnverifiedDuplicate`).
///
/// Noncopyable, so that it owns the bitmap's raw memory (freed in `deinit`, exactly once); it lives
/// inside its session (`OpenSession`), which the engine updates in place.
struct SeenIds: ~Copyable {
    /// Ids one session keeps exactly: 3 × 2^18, what a fingerprint table of 2^20 slots (8 MiB)
    /// holds at three quarters full.
    static let exactLimit = 786_432

    private var fingerprints = FingerprintSet()
    private var numbered = NumberedIds()
    /// Set when restored from a checkpoint that had ids: numbered ids recorded before it are in
    /// `fingerprints`, not in the bitmap.
    private var fingerprintsMayHoldNumbered = false
    /// The ids past `exactLimit`; nil until the session has that many. While it exists the bitmap's
    /// covered range no longer grows, so an id is still always looked up where it was recorded.
    private var filter: IdFilter?
    /// Whether the last "seen" answer came from the filter, until the engine takes it.
    private var answeredFromFilter = false

    init() {}

    /// A restored session: every id it had seen, as `checkpointFingerprints` gave them.
    init(fingerprints restored: [UInt64]) {
        if let (exact, filter) = Self.decodeFiltered(restored) {
            fingerprints = FingerprintSet(exact)
            self.filter = filter
            fingerprintsMayHoldNumbered = true
        } else {
            fingerprints = FingerprintSet(restored)
            fingerprintsMayHoldNumbered = !restored.isEmpty
        }
    }

    deinit {
        // `NumberedIds` is a copyable value holding the pointer: freed through a copy, once.
        var bits = numbered
        bits.deallocate()
    }

    /// Records the id of the event with `texts`; false when the session had it already (a duplicate).
    /// An event without an id is never a duplicate. Inlined for a numbered id the bitmap covers.
    @inline(__always)
    mutating func insert(idOf texts: borrowing EventTexts) -> Bool {
        if let id = texts.inlineWords(.id), !fingerprintsMayHoldNumbered {
            let bit = numbered.quickBit(id)
            if bit >= 0 { return numbered.insert(bit) }
        }
        return insertOther(idOf: texts)
    }

    /// `insert` for any other id: the first numbered one, one the bitmap must grow to, one that is
    /// not numbered, a long one, none, or any in a restored session.
    @inline(never)
    private mutating func insertOther(idOf texts: borrowing EventTexts) -> Bool {
        if filter == nil, numbered.count &+ fingerprints.count >= Self.exactLimit { filter = IdFilter() }
        if filter != nil { return insertPastLimit(idOf: texts) }
        guard let id = texts.inlineWords(.id) else {
            guard let fingerprint = texts.fingerprint(.id) else { return true }
            return fingerprints.insert(fingerprint).inserted
        }
        if let bit = numbered.place(id) {
            if numbered.contains(bit) || fingerprintsMayHoldNumbered && fingerprints.contains(Self.fingerprint(id)) {
                return false
            }
            return numbered.insert(bit)
        }
        return fingerprints.insert(Self.fingerprint(id)).inserted
    }

    /// `insert` once the filter exists: ids the bitmap covers and ids already fingerprinted are
    /// answered exactly, as before; any other goes to the filter, which grows nothing.
    private mutating func insertPastLimit(idOf texts: borrowing EventTexts) -> Bool {
        let fingerprint: UInt64
        if let id = texts.inlineWords(.id) {
            fingerprint = Self.fingerprint(id)
            if let bit = numbered.bit(of: id) {
                if numbered.contains(bit) || fingerprintsMayHoldNumbered && fingerprints.contains(fingerprint) {
                    return false
                }
                return numbered.insert(bit)
            }
        } else {
            guard let long = texts.fingerprint(.id) else { return true }
            fingerprint = long
        }
        if fingerprints.contains(fingerprint) { return false }
        if filter!.insert(fingerprint) { return true }
        answeredFromFilter = true
        return false
    }

    /// Whether the session has the id of the event with `texts` (false for an event without one),
    /// recording nothing: for a late event, which is a duplicate if seen and otherwise dropped.
    mutating func contains(idOf texts: borrowing EventTexts) -> Bool {
        let fingerprint: UInt64
        if let id = texts.inlineWords(.id) {
            // An id the bitmap does not cover now was never recorded there: if seen, it is a fingerprint.
            if let bit = numbered.bit(of: id), numbered.contains(bit) { return true }
            fingerprint = Self.fingerprint(id)
        } else {
            guard let long = texts.fingerprint(.id) else { return false }
            fingerprint = long
        }
        if fingerprints.contains(fingerprint) { return true }
        guard let filter, filter.contains(fingerprint) else { return false }
        answeredFromFilter = true
        return true
    }

    /// Whether the duplicate just reported (by `insert` returning false or `contains` true) was
    /// decided by the filter, and so may be a new id; clears it. The engine asks after each
    /// duplicate, so an answer is never counted twice or left for a later event.
    mutating func takeUnverifiedDuplicate() -> Bool {
        defer { answeredFromFilter = false }
        return answeredFromFilter
    }

    /// Whether no id was ever recorded: such a set is the same as a new one, and a parked session
    /// does not keep it (`ParkedSession`).
    var isEmpty: Bool {
        numbered.count == 0 && numbered.bitmapWords == 0 && fingerprints.count == 0 && filter == nil
            && !fingerprintsMayHoldNumbered
    }

    /// Whether the session holds more ids than it keeps exactly, for tests.
    var isPastExactLimit: Bool { filter != nil }

    /// Every id seen, as its `EventIdentity` fingerprint, ascending and each once (a numbered id and
    /// another may share one, as two ids in the fingerprint set would): what a checkpoint keeps.
    ///
    /// A session past `exactLimit` has the filter too, in a form no plain list can take (a plain
    /// list is strictly ascending, so never starts with `UInt64.max` followed by anything):
    /// `[UInt64.max, 0, n]`, the `n` exact fingerprints ascending, then the filter's words. The
    /// checkpoint's format (`SessionCheckpoint.seenIds`) is unchanged, and so is every checkpoint of
    /// a session below the limit.
    var checkpointFingerprints: [UInt64] {
        let exact = exactFingerprints
        guard let filter else { return exact }
        return [UInt64.max, 0, UInt64(exact.count)] + exact + filter.words
    }

    /// A checkpoint list in the filtered form, split; nil for a plain list.
    private static func decodeFiltered(_ list: [UInt64]) -> (exact: ArraySlice<UInt64>, filter: IdFilter)? {
        guard list.count >= 3, list[0] == .max, list[1] == 0, let count = Int(exactly: list[2]),
              count <= list.count &- 3
        else { return nil }
        let words = list[(3 &+ count)...]
        return (list[3..<(3 &+ count)], IdFilter(words: words) ?? IdFilter())
    }

    private var exactFingerprints: [UInt64] {
        var all = Array(fingerprints)
        all.append(contentsOf: numbered.members.lazy.map { EventIdentity.fingerprint($0) })
        all.sort()
        var kept = 0
        for fingerprint in all where kept == 0 || all[kept &- 1] != fingerprint {
            all[kept] = fingerprint
            kept &+= 1
        }
        all.removeLast(all.count &- kept)
        return all
    }

    /// Ids in the bitmap and words it takes, for tests.
    var numberedCount: Int { numbered.count }
    var bitmapWords: Int { numbered.bitmapWords }

    @inline(__always)
    private static func fingerprint(_ id: InlineId) -> UInt64 {
        CompactText.inlineFingerprint(low: id.low, high: id.high, count: UInt8(truncatingIfNeeded: id.count))
    }
}
