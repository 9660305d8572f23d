/// Layouts of earlier export lines, so that a line laid out like one of them gets its tape
/// (`JSONTape`) without the general scan.
///
/// An SDK's exporter writes every event with the same keys in the same order and the same separators;
/// what changes from line to line is values (a timestamp, a session, an id, an event's own fields). A
/// layout is an earlier line whose string and number values (not keys) are *variable*; every other
/// byte (keys, punctuation, whitespace, `true`, `false`, `null`, the quotes around strings) is a run a
/// line must repeat exactly. Matching compares those runs and reads only the variable values, each
/// with the code the general scan reads them with (`JSONScanner.scanStringBody`, or its first step
/// `plainStringEnd` alone where that finds the end; `JSONNumber.scan`).
///
/// Why a match gives exactly the general scan's tape: the layout's line was read by the general scan.
/// A matching line is that line with some string contents replaced by valid string contents (each
/// scanned from the byte after its opening quote to its closing quote, as the general scan does, so
/// ending at the same quote and with the same "holds escapes" flag) and some numbers by numbers that
/// `JSONNumber.scan` reads (the literal the general scan's `scanNumber` reads, since that calls
/// `JSONNumber.scan` first), each starting with the byte that made the general scan choose its kind
/// (a quote in the run before, a `-` or digit checked here); every other byte is equal and the line
/// ends where the layout's does. So the general scan of the line takes the same steps, meets the same
/// values of the same kinds at the same nesting, and notes the same entries, each shifted by how much
/// longer or shorter the variable values before it (before its end, for an entry's end) became: what
/// `fill` writes. Anything else (a differing byte, a string that does not end or is invalid, a number
/// `JSONNumber.scan` does not read, a line of another length at the end) is no match, and the general
/// scan reads the line, so that a malformed line gets exactly the reason and column it gets without
/// layouts. Which layout matches changes only which one is tried first next time, never the tape.
///
/// A match also keeps each number's value as `JSONNumber.scan` read it (`JSONTape.knownNumber`), which
/// the decoder takes instead of reading the literal again (`FieldTableWriter.assign`'s `number`): `JSONNumber` is
/// the decoder's one reader of literals, so that is the value it would read from the same bytes (NaN,
/// where the scan leaves the value to the standard library, has the decoder read it as before).
///
/// Layouts are tried most recently matched first, a few a line; a line that matches none and that the
/// general scan reads becomes a layout in place of the least recently matched one, once its layout
/// was seen before (`learnRepeated`). Before those, the
/// last few layouts lines with the same first bytes matched (`leadPlace`, `leadWays`) are tried: an exporter that
/// writes an event's name first (PostHog's `{"event":"…"`) lays out lines of one name alike, and
/// lines of other names, tried first by recency alone, would be compared most of their length before
/// they differ. Where the name lies deep in a line (Datadog RUM's `action.target.name`, an OTLP
/// attribute), the place is also told by how many quotes the line holds (`countsQuotes`): two a key
/// and two a string value, so a count of the line's structure, which its values seldom change; an
/// OTLP line's place is told by its event's name as well, the place by quotes alone tried after it
/// (`EventImporter.otlpLinePlaces`). Where those places keep none that matches, the line's place by
/// its keys in their order (`keysPlace`) is tried: one event's layouts may be many more than a place
/// keeps (a writer ordering keys by each process's hash order, optional fields), and lines of one
/// layout share their keys whatever their values.
struct ExportLineLayouts {
    /// Layouts kept. Exports seen in the field hold hundreds of layouts (an SDK that writes keys in
    /// each process's hash order, optional properties, events of many kinds), a few hundred of them
    /// in use at once; a line whose layout was pushed out is read the general way and learned again.
    static let capacity = 256
    /// Layouts tried before a line is left to the general scan.
    static let triesPerLine = 6
    /// Longer lines, or lines with more values, are not learned: a layout keeps a copy of its line.
    static let maxLineLength = 8192
    static let maxEntries = 1024

    /// A variable value of a layout's line, with the constant run before it: what a match reads for
    /// it, in one record, so that the match holds few values of its own from slot to slot.
    struct Slot {
        /// Its tape entry.
        var entry: Int32
        /// The run before it: from the end of the slot before (0 for the first) to its start.
        var runStart: Int32
        var runLength: Int32
        /// The end of its byte range in the layout's line (a string's before its closing quote); the
        /// range begins at `runStart + runLength`.
        var end: Int32
        var isString: Bool
    }

    /// One learned line, in memory of its own (freed when the layout is replaced, or by `deallocate`).
    struct Layout {
        /// The layout's line, followed by `templatePadding` zero bytes (`runEqual` reads 16 bytes
        /// from any place in the line).
        var template: UnsafeMutablePointer<UInt8>
        var length: Int
        /// Where the run after the last slot begins (0 without slots).
        var restStart: Int
        var entries: UnsafeMutablePointer<JSONTape.Entry>
        var entryCount: Int
        var slots: UnsafeMutablePointer<Slot>
        var slotCount: Int
        /// The entries that are objects or arrays, in order: the only ones before a value whose end
        /// may lie after it.
        var containers: UnsafeMutablePointer<Int32>
        var containerCount: Int
        /// Per entry, how many slots end at or before its start, and at or before its end: which
        /// shift applies to each.
        var slotsBeforeStart: UnsafeMutablePointer<UInt16>
        var slotsBeforeEnd: UnsafeMutablePointer<UInt16>
        /// Names the layout for memos kept with it (`EventImporter`'s located envelopes): never reused.
        var serial: Int

        func free() {
            template.deallocate()
            containers.deallocate()
            entries.deallocate()
            slots.deallocate()
            slotsBeforeStart.deallocate()
            slotsBeforeEnd.deallocate()
        }
    }

    private var layouts: UnsafeMutablePointer<Layout>
    /// The layouts in order of recency, as a list linked both ways through their indices (-1 ends
    /// it): a layout found anywhere among hundreds moves to the front, and the least recent makes
    /// room, each in a few steps.
    private var newer: UnsafeMutablePointer<Int32>
    private var older: UnsafeMutablePointer<Int32>
    private var mostRecent = -1
    private var leastRecent = -1
    /// Per layout, the last `findStamp` under which `find` or `findValue` tried it and missed: each
    /// layout is tried once a line.
    private var triedStamps: UnsafeMutablePointer<Int>
    private var findStamp = 0
    /// Per layout, whether a line matched it since it was learned; and of the layouts pushed out
    /// lately, the share (out of 1,024, a running mean) that none had.
    private var matchedSinceLearned: UnsafeMutablePointer<Bool>
    private(set) var unmatchedEvictions = 0
    /// Above it (three in four), `learnRepeated` learns one layout in `sparseOdds`.
    static let churnBar = 768
    private(set) var used = 0
    private var nextSerial = 1
    /// A slot's value in a matched line: its byte range (a string's inside its quotes), the tape
    /// entry's flag, and a number's value as `JSONNumber.scan` read it (NaN for a string).
    typealias FoundValue = (start: Int32, end: Int32, flag: Bool, value: Double)

    /// Per slot of the layout being matched: the value's new range and flag, and the shift after it.
    private var found: UnsafeMutablePointer<FoundValue>
    private var shifts: UnsafeMutablePointer<Int32>
    /// A copy of `JSONNumber.powersOfTen` for the numbers' scans: read through the shared table's
    /// lazily initialised global, every number paid a `swift_once` check.
    private let powers: UnsafeMutableRawPointer
    /// The last `fill` or `refill` of a tape: its stamp (the tape keeps it, `JSONTape.filledBy`) and
    /// the layout's serial, and the shifts it applied (per slot count, as `shifts`). A tape stamped
    /// with it holds that layout's last line's entries, so the next line of the layout rewrites only
    /// what moved (`accept`): every entry is the layout's own shifted by the slots before its start
    /// or end, so where the shifts of the first `k` slots are the last line's, an entry that starts
    /// and ends before the end of the `k`-th slot is as it was. The entries before that slot's
    /// entry are such, but for the containers around it, whose ends are rewritten; the slots'
    /// own ends, flags and numbers are written every time. Stamps are never reused, so a tape read
    /// (`JSONTape.read` stamps 0) or filled since, by this or another tape's match, is filled anew.
    /// A line `confirm`ed in between fills no tape and changes neither: the tape still holds the last
    /// filled line, whose shifts `lastShifts` still are.
    private var fillStamp = 0
    private var lastFill = (stamp: -1, serial: 0)
    private var lastShifts: UnsafeMutablePointer<Int32>
    /// Per place of a line's first bytes (`leadPlace`), the last `leadWays` layouts lines with them
    /// matched or became, the most recent first; serial 0 where none.
    private var byLead: UnsafeMutablePointer<LayoutID>
    static let leadPlaces = 1024
    /// Layouts kept a place: an exporter's lines of several layouts may begin alike and hold as many
    /// quotes (Datadog RUM's actions of different names and fields), and, taking turns with one
    /// another among many others, would each miss the one layout a place kept and be learned again.
    static let leadWays = 4
    /// Whether a line's place among `leadPlaces` also counts its quotes (see the type's comment).
    let countsQuotes: Bool
    /// Whether a line's place by its keys (`keysPlace`) takes OTLP's attribute names too.
    let placesAttributeNames: Bool
    /// Layouts tried and not matched (for tests).
    private(set) var missedTries = 0
    /// Lines matched, and lines learned (for tests).
    private(set) var matched = 0
    private(set) var learned = 0
    /// Layouts seen once and not learned (`learnRepeated`), by signature (`signature(of:)`), each at
    /// the place its signature's high bits choose; 0 where none. Many times `capacity`: a layout
    /// seen once is still noted when it comes again after the other writers' new layouts between.
    private let seenOnce: UnsafeMutablePointer<UInt64>
    static let seenOnceCount = 4096
    /// Lines `learnRepeated` left unlearned, their layout seen for the first time (for tests).
    private(set) var firstSightings = 0
    /// Lines in a row that `learnRepeated` found seen for the first time. From `sparseAfter` on, it
    /// looks at the layout of one line in `sparseOdds`, picked at random (`sparseDraw`), and leaves the
    /// others unlearned unseen, until a layout is seen again.
    private var firstSightingsInARow = 0
    private var sparseDraw: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Far more new layouts in a row than an exporter of ordered lines has layouts.
    static let sparseAfter = 64
    /// A layout repeated among new ones is picked twice within a few dozen of its lines.
    static let sparseOdds: UInt64 = 16

    init(countsQuotes: Bool = false, placesAttributeNames: Bool = false) {
        self.countsQuotes = countsQuotes
        self.placesAttributeNames = placesAttributeNames
        layouts = .allocate(capacity: Self.capacity)
        newer = .allocate(capacity: Self.capacity)
        older = .allocate(capacity: Self.capacity)
        triedStamps = .allocate(capacity: Self.capacity)
        triedStamps.initialize(repeating: 0, count: Self.capacity)
        matchedSinceLearned = .allocate(capacity: Self.capacity)
        matchedSinceLearned.initialize(repeating: false, count: Self.capacity)
        found = .allocate(capacity: Self.maxEntries)
        shifts = .allocate(capacity: Self.maxEntries + 1)
        lastShifts = .allocate(capacity: Self.maxEntries + 1)
        byLead = .allocate(capacity: Self.leadPlaces * Self.leadWays)
        byLead.initialize(repeating: LayoutID(index: 0, serial: 0), count: Self.leadPlaces * Self.leadWays)
        powers = .allocate(byteCount: JSONNumber.powersOfTenByteCount, alignment: 8)
        powers.copyMemory(from: JSONNumber.powersOfTen, byteCount: JSONNumber.powersOfTenByteCount)
        seenOnce = .allocate(capacity: Self.seenOnceCount)
        seenOnce.initialize(repeating: 0, count: Self.seenOnceCount)
    }

    /// Frees every layout; not used again.
    func deallocate() {
        for i in 0..<used { layouts[i].free() }
        layouts.deallocate()
        newer.deallocate()
        older.deallocate()
        triedStamps.deallocate()
        matchedSinceLearned.deallocate()
        found.deallocate()
        shifts.deallocate()
        byLead.deallocate()
        lastShifts.deallocate()
        powers.deallocate()
        seenOnce.deallocate()
    }

    /// Which layout a line matched or became: its place (for memos kept beside the layouts) and its
    /// serial (a place is reused when its layout is replaced; a serial never is).
    struct LayoutID: Equatable {
        var index: Int
        var serial: Int
    }

    /// Fills `tape` with `line`'s entries when the line matches a layout; returns the layout, or nil
    /// (the tape is then unchanged in meaning: the caller reads the line with `JSONTape.read`).
    mutating func match(_ line: UnsafeRawBufferPointer, into tape: inout JSONTape) -> LayoutID? {
        guard let hit = find(line) else { return nil }
        return accept(hit, line, into: &tape)
    }

    /// A layout a line matched (`find`): its place.
    struct Hit {
        var index: Int
        var layout: LayoutID
    }

    /// The layout `line` matches, if any, with its values noted (`matchedValues`) until the next call; the line is then `accept`ed (its tape filled) or `confirm`ed (read from
    /// the values alone), either of which makes the layout the most recent.
    /// `lead` is the line's place among `leadPlaces` where the caller chose it (an OTLP line's, by its
    /// event's name too: `EventImporter.otlpLinePlaces`), else `leadPlace`'s; `alternative`, where the
    /// caller gives one, a second place whose ways are tried after the first's, before the most recent
    /// layouts, and which notes a layout the first did not keep: where lines of one layout may take
    /// several first places (lines of several names laid out alike), a layout new to one of them is
    /// still found where the others' lines noted it, rather than learned again when it is not among
    /// the most recent.
    mutating func find(_ line: UnsafeRawBufferPointer, lead chosen: Int? = nil, alternative: Int? = nil) -> Hit? {
        // Places in a line are kept in 32 bits (`FoundValue`, as `JSONTape`'s entries).
        guard let raw = line.baseAddress, used > 0, line.count < Int(Int32.max) else { return nil }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        let lead = chosen ?? Self.leadPlace(bytes, count: line.count, countsQuotes: countsQuotes)
        let ways = byLead + lead &* Self.leadWays
        let otherWays = alternative.flatMap { $0 == lead ? nil : byLead + $0 &* Self.leadWays }
        findStamp &+= 1
        var kept = tryWays(ways, bytes, count: line.count)
        let keptFirst = kept != nil
        if kept == nil, let otherWays { kept = tryWays(otherWays, bytes, count: line.count) }
        // Where neither kept it, the place by the line's keys (`keysPlace`), which lines of one
        // layout share whatever order their writer gave their keys; not while lines come in layouts
        // never seen before (`firstSightingsInARow`: a writer ordering keys anew on every line).
        var keysWays: UnsafeMutablePointer<LayoutID>?
        if kept == nil, firstSightingsInARow < Self.sparseAfter, line.count <= Self.keysPlaceReach {
            let place = Self.keysPlace(bytes, count: line.count, attributeNames: placesAttributeNames, besides: lead, alternative)
            keysWays = byLead + place &* Self.leadWays
            kept = tryWays(keysWays!, bytes, count: line.count)
        }
        if let hinted = kept {
            // Noted in the second place only when the first did not keep it: places are shared, and
            // notes of every line in both would push other lines' layouts out of their first places.
            Self.note(hinted, in: ways)
            if !keptFirst, let otherWays { Self.note(hinted, in: otherWays) }
            if let keysWays { Self.note(hinted, in: keysWays) }
            return Hit(index: hinted.index, layout: hinted)
        }
        var index = mostRecent
        for _ in 0..<Self.triesPerLine {
            guard index >= 0 else { break }
            defer { index = Int(older[index]) }
            guard triedStamps[index] != findStamp else { continue }
            guard Self.matches(bytes, count: line.count, layouts + index, found: found, shifts: shifts, powers: powers) else {
                missedTries &+= 1
                continue
            }
            let layout = LayoutID(index: index, serial: layouts[index].serial)
            Self.note(layout, in: ways)
            if let otherWays { Self.note(layout, in: otherWays) }
            if let keysWays { Self.note(layout, in: keysWays) }
            return Hit(index: index, layout: layout)
        }
        return nil
    }

    /// The layout of those a place's `ways` keep that `line` matches, trying none tried already for
    /// this line (`triedStamps`), and marking those it tries and misses.
    @inline(__always)
    private mutating func tryWays(_ ways: UnsafeMutablePointer<LayoutID>, _ bytes: UnsafePointer<UInt8>, count: Int) -> LayoutID? {
        for way in 0..<Self.leadWays {
            let hinted = ways[way]
            guard hinted.serial != 0 else { break }
            guard layouts[hinted.index].serial == hinted.serial, triedStamps[hinted.index] != findStamp else { continue }
            if Self.matches(bytes, count: count, layouts + hinted.index, found: found, shifts: shifts, powers: powers) {
                return hinted
            }
            missedTries &+= 1
            triedStamps[hinted.index] = findStamp
        }
        return nil
    }

    /// Makes `layout` the first of a place's `leadWays`, the others after it in their order.
    @inline(__always)
    private static func note(_ layout: LayoutID, in ways: UnsafeMutablePointer<LayoutID>) {
        var carried = layout
        for way in 0..<leadWays {
            let held = ways[way]
            ways[way] = carried
            if held == layout { return }
            carried = held
        }
    }

    /// The values `find` noted in the line it matched last, valid until its next call.
    var matchedValues: MatchedValues { MatchedValues(found: found, shifts: shifts) }

    /// A matched line's values, read in place.
    struct MatchedValues {
        fileprivate let found: UnsafeMutablePointer<FoundValue>
        fileprivate let shifts: UnsafeMutablePointer<Int32>

        /// Values a match noted elsewhere (`findValue`).
        init(found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>) {
            self.found = found
            self.shifts = shifts
        }

        /// The value of slot `k`.
        @inline(__always)
        func value(ofSlot k: Int) -> FoundValue { found[k] }

        /// How much longer (or shorter) the first `n` slots' values made the line than its layout's
        /// line: the shift of an entry of the layout that begins (or ends) after them.
        @inline(__always)
        func shift(afterSlots n: Int) -> Int32 { shifts[n] }
    }

    /// Where the value of a layout's entry stands in a line that matched the layout: a variable value
    /// (`slot`, read with `MatchedValues.value(ofSlot:)`), or a constant one (`constant`: the layout's
    /// own entry, which moves with the slots before its start and its end, `MatchedValues.shift`).
    enum Placement {
        case slot(Int)
        case constant(JSONTape.Entry, slotsBeforeStart: Int, slotsBeforeEnd: Int)
    }

    /// The placement of `entry` in lines of `layout`, or nil when the layout is no longer kept (or has
    /// no such entry).
    func placement(ofEntry entry: Int, in layout: LayoutID) -> Placement? {
        guard layout.index < used, layouts[layout.index].serial == layout.serial else { return nil }
        let kept = layouts[layout.index]
        guard entry >= 0, entry < kept.entryCount else { return nil }
        // Slots are in entry order.
        var low = 0
        var high = kept.slotCount
        while low < high {
            let middle = (low &+ high) / 2
            if Int(kept.slots[middle].entry) < entry { low = middle &+ 1 } else { high = middle }
        }
        if low < kept.slotCount, Int(kept.slots[low].entry) == entry { return .slot(low) }
        return .constant(
            kept.entries[entry], slotsBeforeStart: Int(kept.slotsBeforeStart[entry]),
            slotsBeforeEnd: Int(kept.slotsBeforeEnd[entry]))
    }

    /// Makes `hit`'s layout the most recent, without filling a tape: for a line read from the values
    /// `find` noted (`matchedValues`), which no tape holds.
    mutating func confirm(_ hit: Hit) {
        promote(hit.index)
        matched &+= 1
    }

    /// Makes the layout at `index` the most recent.
    private mutating func promote(_ index: Int) {
        matchedSinceLearned[index] = true
        guard index != mostRecent else { return }
        unlink(index)
        pushFront(index)
    }

    /// Takes the layout at `index` out of the order of recency.
    @inline(__always)
    private mutating func unlink(_ index: Int) {
        let n = Int(newer[index])
        let o = Int(older[index])
        if n >= 0 { older[n] = Int32(o) } else { mostRecent = o }
        if o >= 0 { newer[o] = Int32(n) } else { leastRecent = n }
    }

    /// Puts the layout at `index`, in no place of the order, first.
    @inline(__always)
    private mutating func pushFront(_ index: Int) {
        newer[index] = -1
        older[index] = Int32(mostRecent)
        if mostRecent >= 0 { newer[mostRecent] = Int32(index) } else { leastRecent = index }
        mostRecent = index
    }

    /// The place of a line among `leadPlaces`: a hash of its first 24 bytes (none of a shorter line's),
    /// read as three words, and with `countsQuotes` of its count of quotes. Which place a line takes
    /// changes only which layout is tried first.
    @inline(__always)
    static func leadPlace(_ line: UnsafePointer<UInt8>, count: Int, countsQuotes: Bool) -> Int {
        leadPlace(line, count: count, quotes: countsQuotes ? quotes(line, count: count) : nil)
    }

    /// `leadPlace` with the quotes counted by the caller (`quotes`, nil for none), and of `salt`.
    @inline(__always)
    static func leadPlace(_ line: UnsafePointer<UInt8>, count: Int, quotes: Int?, salt: UInt64 = 0) -> Int {
        var key: UInt64 = quotes.map { UInt64(truncatingIfNeeded: $0) &* 0xD6E8_FEB8_6659_FD93 } ?? 0
        key ^= salt &* 0xC2B2_AE3D_27D4_EB4F
        if count >= 24 {
            let raw = UnsafeRawPointer(line)
            let a = raw.loadUnaligned(as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            key ^= a ^ (b &<< 21 | b &>> 43) ^ (c &<< 42 | c &>> 22)
        }
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 &- leadPlaces.trailingZeroBitCount))
    }

    /// The place of a line by its keys in their order (each key's last bytes before the `":` that
    /// ends it, at most eight) and, with `attributeNames`, by each OTLP attribute's
    /// name (the eight bytes after a `"key":`): the same for every line of a layout, whose keys and attribute names are
    /// constant, and different for layouts of one event whose keys come in other orders (a writer
    /// that orders them by a hash map seeded per process) or that hold other keys, which the first
    /// bytes, a name and a count of quotes do not tell apart. A string value holding `":` adds to it
    /// too, so lines with such values may take other places: which place a line takes changes only
    /// which layouts are tried first.
    static func keysPlace(_ line: UnsafePointer<UInt8>, count: Int, attributeNames: Bool) -> Int {
        let raw = UnsafeRawPointer(line)
        var key: UInt64 = 0x243F_6A88_85A3_08D3
        // `"key` read as a little-endian word: the key `key` ends at the quote after it.
        let attributeKey: UInt32 = 0x7965_6B22
        @inline(__always) func mix(keyEnd at: Int) {
            // The key's last bytes, at most eight, after its opening quote: a short key's word would
            // hold the value before it.
            var tail: UInt64
            if at >= 8 {
                // The word of the eight bytes before the closing quote; its last quote, if any, opens
                // the key (each byte tested alone: no carry from one byte reaches the next).
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at &- 8, as: UInt64.self))
                let x = word ^ 0x2222_2222_2222_2222
                let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
                let quotes = ~(((x & low7) &+ low7) | x | low7)
                if quotes == 0 {
                    tail = word
                } else {
                    let after = UInt64(64 &- quotes.leadingZeroBitCount)  // the bits up to the quote's byte, and it
                    tail = after >= 64 ? 0 : word &>> after
                    tail |= UInt64(truncatingIfNeeded: (64 &- after) &>> 3) &<< 56
                }
            } else {
                var opening = at &- 1
                while opening >= 0, line[opening] != 0x22 { opening &-= 1 }
                tail = UInt64(truncatingIfNeeded: at &- (opening &+ 1)) &<< 56
                for k in (opening &+ 1)..<at { tail |= UInt64(line[k]) &<< UInt64((k &- opening &- 1) &* 8) }
            }
            key = (key ^ tail) &* 0x9E37_79B9_7F4A_7C15
            key ^= key &>> 29
            if attributeNames, at >= 4, at &+ 10 <= count,
               raw.loadUnaligned(fromByteOffset: at &- 4, as: UInt32.self) == attributeKey {
                key = (key ^ raw.loadUnaligned(fromByteOffset: at &+ 2, as: UInt64.self)) &* 0xC2B2_AE3D_27D4_EB4F
                key ^= key &>> 31
            }
        }
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let colon = SIMD16<UInt8>(repeating: 0x3A)
        var i = 0
        while i &+ 17 <= count {
            let here = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let next = raw.loadUnaligned(fromByteOffset: i &+ 1, as: SIMD16<UInt8>.self)
            var ends = JSONScanner.lanes((here .== quote) .& (next .== colon))
            while ends != 0 {
                mix(keyEnd: i &+ ends.trailingZeroBitCount)
                ends &= ends &- 1
            }
            i &+= 16
        }
        while i &+ 1 < count {
            if line[i] == 0x22, line[i &+ 1] == 0x3A { mix(keyEnd: i) }
            i &+= 1
        }
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 &- leadPlaces.trailingZeroBitCount))
    }

    /// Lines longer than this are not placed by their keys: a layout's line is at most
    /// `maxLineLength`, and only long values make a line of it much longer.
    static let keysPlaceReach = 64 << 10

    /// `keysPlace`, or the next place but one that is neither `lead` nor `alternative`: a layout noted
    /// only where the lines of every layout of its event are noted is soon pushed out of it.
    @inline(__always)
    static func keysPlace(_ line: UnsafePointer<UInt8>, count: Int, attributeNames: Bool, besides lead: Int, _ alternative: Int?) -> Int {
        var place = keysPlace(line, count: count, attributeNames: attributeNames)
        while place == lead || place == alternative { place = (place &+ 1) & (leadPlaces &- 1) }
        return place
    }

    /// The place of a line by `name` alone (`EventImporter.postHogLinePlaces`: a hash of its event's
    /// name), for lines whose first bytes differ line by line.
    @inline(__always)
    static func namedPlace(_ name: UInt64) -> Int {
        Int(truncatingIfNeeded: ((name &* 0xC2B2_AE3D_27D4_EB4F) &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 &- leadPlaces.trailingZeroBitCount))
    }

    /// How many `"` bytes `line` holds: sixteen bytes at a time, eight blocks a step, each lane's
    /// matches summed in a byte (a matching lane's mask is 0xFF, so subtracting it adds one; masks
    /// added first subtract as one) for up to 252 blocks before the lanes are added up; the last block
    /// overlaps the one before it, with the lanes counted already cleared. (The lanes' bits counted
    /// block by block took a software population count: the baseline x86-64 has no `popcnt`.)
    static func quotes(_ line: UnsafePointer<UInt8>, count: Int) -> Int {
        guard count >= 16 else {
            var n = 0
            for i in 0..<count where line[i] == 0x22 { n &+= 1 }
            return n
        }
        let quote = SIMD16<UInt8>(repeating: 0x22)
        let raw = UnsafeRawPointer(line)
        @inline(__always) func matches(_ at: Int) -> SIMD16<UInt8> {
            unsafeBitCast(raw.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) .== quote, to: SIMD16<UInt8>.self)
        }
        var n = 0
        var i = 0
        let lastBlock = count &- 16
        var sums = SIMD16<UInt8>(repeating: 0)
        while i <= lastBlock {
            // A lane adds at most one a block: 252 blocks (and the last, overlapping one) fit in a byte.
            let end = min(lastBlock, i &+ 16 &* 251)
            while i &+ 112 <= end {
                sums &-= (matches(i) &+ matches(i &+ 16)) &+ (matches(i &+ 32) &+ matches(i &+ 48))
                sums &-= (matches(i &+ 64) &+ matches(i &+ 80)) &+ (matches(i &+ 96) &+ matches(i &+ 112))
                i &+= 128
            }
            while i <= end {
                sums &-= matches(i)
                i &+= 16
            }
            if i <= lastBlock {
                n &+= byteSum(sums)
                sums = SIMD16<UInt8>(repeating: 0)
            }
        }
        let rest = count &- i
        if rest > 0 {
            // The last block's lanes before `16 - rest` were counted already.
            // Lane indices written here, not as a static property: that is initialised lazily, a check
            // on every call.
            let laneIndices = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
            let uncounted = laneIndices .>= SIMD16<UInt8>(repeating: UInt8(truncatingIfNeeded: 16 &- rest))
            sums &-= matches(lastBlock) & unsafeBitCast(uncounted, to: SIMD16<UInt8>.self)
        }
        return n &+ byteSum(sums)
    }

    /// The sum of a vector's bytes, added in 16-bit lanes of two words.
    @inline(__always)
    private static func byteSum(_ sums: SIMD16<UInt8>) -> Int {
        let words = unsafeBitCast(sums, to: SIMD2<UInt64>.self)
        let evenBytes: UInt64 = 0x00FF_00FF_00FF_00FF
        let pairs = (words[0] & evenBytes) &+ ((words[0] &>> 8) & evenBytes)
            &+ (words[1] & evenBytes) &+ ((words[1] &>> 8) & evenBytes)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
    }

    /// Fills `tape` from the line `find` just found laid out as `hit`'s layout, and makes that layout
    /// the most recent.
    mutating func accept(_ hit: Hit, _ line: UnsafeRawBufferPointer, into tape: inout JSONTape) -> LayoutID {
        let index = hit.index
        let bytes = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let count = line.count
        let layout = layouts[index]
        let slotCount = layout.slotCount
        // Every number of a layout's line is a slot (only strings are kept constant), so every
        // number entry gets its value from `setSlots`.
        func setSlots(_ entries: UnsafeMutablePointer<JSONTape.Entry>, _ numbers: UnsafeMutablePointer<Double>) {
            for k in 0..<slotCount {
                let slot = layout.slots[k]
                entries[Int(slot.entry)].end = found[k].end
                entries[Int(slot.entry)].flag = found[k].flag
                if !slot.isString { numbers[Int(slot.entry)] = found[k].value }
            }
        }
        fillStamp &+= 1
        if tape.filledBy == lastFill.stamp, lastFill.serial == layout.serial {
            // The tape holds this layout's last line: only the entries after the first value whose
            // length changed, and the ends of the containers before it, move (see `lastFill`).
            var first = 1
            while first <= slotCount, shifts[first] == lastShifts[first] { first &+= 1 }
            tape.refill(line: bytes, count: count, stamp: fillStamp) { entries, numbers in
                if first <= slotCount {
                    let from = Int(layout.slots[first &- 1].entry) &+ 1
                    for e in from..<layout.entryCount {
                        entries[e].start = layout.entries[e].start &+ shifts[Int(layout.slotsBeforeStart[e])]
                        entries[e].end = layout.entries[e].end &+ shifts[Int(layout.slotsBeforeEnd[e])]
                    }
                    for c in 0..<layout.containerCount {
                        let e = Int(layout.containers[c])
                        guard e < from else { break }
                        entries[e].end = layout.entries[e].end &+ shifts[Int(layout.slotsBeforeEnd[e])]
                    }
                }
                setSlots(entries, numbers)
            }
            if first <= slotCount { (lastShifts + first).update(from: shifts + first, count: slotCount &+ 1 &- first) }
        } else {
            tape.fill(
                line: bytes, count: count, template: layout.entries, entryCount: layout.entryCount,
                stamp: fillStamp
            ) { entries, numbers in
                for e in 0..<layout.entryCount {
                    entries[e].start &+= shifts[Int(layout.slotsBeforeStart[e])]
                    entries[e].end &+= shifts[Int(layout.slotsBeforeEnd[e])]
                }
                setSlots(entries, numbers)
            }
            lastShifts.update(from: shifts, count: slotCount &+ 1)
        }
        lastFill = (fillStamp, layout.serial)
        promote(index)
        matched &+= 1
        return hit.layout
    }

    /// Whether `line` is `layout`'s line with its variable values replaced (see the type's comment);
    /// notes the new values in `found` and the shifts in `shifts`.
    ///
    /// Static, and given the layout's place rather than the layout: a method, called from `find` (which
    /// mutates `self`), was handed copies of `self` and of the layout.
    private static func matches(
        _ line: UnsafePointer<UInt8>, count: Int, _ layout: UnsafePointer<Layout>,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>, powers: UnsafeRawPointer
    ) -> Bool {
        guard let p = matchedSlots(line, count: count, layout, origin: 0, found: found, shifts: shifts, powers: powers) else { return false }
        let restStart = layout.pointee.restStart
        let rest = layout.pointee.length &- restStart
        return count &- p == rest && runEqual(line + p, layout.pointee.template + restStart, count: rest, room: rest)
    }

    /// Where the layout's line, with its variable values replaced, ends when it begins at `origin` in
    /// `line`, or nil (`matches` from a place inside a line); notes the values in `found` and the
    /// shifts in `shifts`, which are places in `line` (they include `origin`).
    @inline(__always)
    private static func matchedEnd(
        _ line: UnsafePointer<UInt8>, count: Int, _ layout: UnsafePointer<Layout>, origin: Int,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>, powers: UnsafeRawPointer
    ) -> Int? {
        guard let p = matchedSlots(line, count: count, layout, origin: origin, found: found, shifts: shifts, powers: powers) else {
            return nil
        }
        let restStart = layout.pointee.restStart
        let rest = layout.pointee.length &- restStart
        guard count &- p >= rest, runEqual(line + p, layout.pointee.template + restStart, count: rest, room: count &- p) else {
            return nil
        }
        return p &+ rest
    }

    /// The part `matches` and `matchedEnd` share: the layout's runs and variable values read from
    /// `origin` in `line`, the values noted in `found` and the shifts in `shifts` (places in `line`);
    /// returns where the run after the last slot (`restStart`) begins in `line`, or nil. Inlined into
    /// each, so that a whole line's match (`origin` 0) holds no origin.
    @inline(__always)
    private static func matchedSlots(
        _ line: UnsafePointer<UInt8>, count: Int, _ layout: UnsafePointer<Layout>, origin: Int,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>, powers: UnsafeRawPointer
    ) -> Int? {
        let template = layout.pointee.template
        let slots = layout.pointee.slots
        let slotCount = layout.pointee.slotCount
        let restStart = layout.pointee.restStart
        // A place `t` in the layout's line is `t + shift` in this line (the shift after the slots so far).
        var shift = origin
        shifts[0] = Int32(truncatingIfNeeded: origin)
        // Walked by pointers, not by an index into three tables: fewer values held across a slot.
        var next = slots
        let last = slots + slotCount
        var noted = found
        var shiftAfter = shifts + 1
        while next < last {
            let slot = next.pointee
            next += 1
            let runStart = Int(slot.runStart)
            let run = Int(slot.runLength)
            var p = runStart &+ shift
            guard p &+ run <= count, runEqual(line + p, template + runStart, count: run, room: count &- p) else { return nil }
            p &+= run
            let end: Int
            let flag: Bool
            var value = Double.nan
            if slot.isString {
                // The opening quote was the run's last byte. A short plain string ends within the
                // first block or two (`plainStringEnd`); any other is read as `scanStringBody` reads it.
                if let quote = JSONScanner.plainStringEnd(line, from: p, end: count) {
                    end = quote
                    flag = false
                } else {
                    guard let scanned = stringEnd(line, count: count, from: p) else { return nil }
                    end = scanned.end
                    flag = scanned.escaped
                }
            } else {
                guard p < count, line[p] == 0x2D || JSONScanner.isDigit(line[p]),
                      let number = count &- p > nearEnd
                        ? JSONNumber.scan(line, from: p, end: count, powers: powers)
                        : scanNearEnd(line, from: p, count: count, powers: powers)
                else { return nil }
                end = number.end
                flag = number.integer
                value = number.value
            }
            // Below 2^31: `find` and `findValue` take no longer line.
            noted.pointee = (Int32(truncatingIfNeeded: p), Int32(truncatingIfNeeded: end), flag, value)
            noted += 1
            shift = end &- Int(slot.end)
            shiftAfter.pointee = Int32(truncatingIfNeeded: shift)
            shiftAfter += 1
        }
        return restStart &+ shift
    }

    /// Where the string whose contents begin at `start` ends (its closing quote), and whether it holds
    /// escapes, as `JSONScanner.scanStringBody` reads it; nil where that finds it malformed. Out of line:
    /// most strings end where `plainStringEnd` sees.
    @inline(never)
    private static func stringEnd(_ line: UnsafePointer<UInt8>, count: Int, from start: Int) -> (end: Int, escaped: Bool)? {
        var scanner = JSONScanner(base: line, count: count)
        scanner.pos = start
        guard let escaped = try? scanner.scanStringBody() else { return nil }
        return (scanner.pos &- 1, escaped)
    }

    /// Bytes a layout's line is followed by in its copy (`Layout.template`).
    static let templatePadding = 16

    /// Whether the `count` bytes at `a`, `room` of which (at least `count`) may be read, equal those at
    /// `b`, a place in a layout's line (`templatePadding` bytes past its end may be read).
    ///
    /// Runs between values are short in flat exports (`","uuid":"`) and long in nested ones (an OTLP
    /// attribute's `"}},{"key":…`): a short run is one 16-byte compare whose lanes past the run are
    /// ignored (where the line has room for 16 bytes), a run of up to 96 bytes two, four or six blocks
    /// compared at once (the last half overlapping the first), a longer one 32 bytes a step, the last
    /// 32 overlapping the ones before, so that nothing past `room` is read.
    @inline(__always)
    static func runEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, room: Int) -> Bool {
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        @inline(__always) func same(_ at: Int) -> SIMDMask<SIMD16<Int8>> {
            x.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) .== y.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self)
        }
        if count <= 16 {
            guard room >= 16 else { return ByteComparison.equal(a, b, count: count) }
            let differing = ~UInt32(JSONScanner.lanes(same(0)))
            return differing & ((1 &<< UInt32(truncatingIfNeeded: count)) &- 1) == 0
        }
        if count <= 32 { return JSONScanner.lanes(same(0) .& same(count &- 16)) == 0xFFFF }
        if count <= 64 {
            return JSONScanner.lanes((same(0) .& same(16)) .& (same(count &- 32) .& same(count &- 16))) == 0xFFFF
        }
        if count <= 96 {
            let first = (same(0) .& same(16)) .& same(32)
            return JSONScanner.lanes(first .& ((same(count &- 48) .& same(count &- 32)) .& same(count &- 16))) == 0xFFFF
        }
        var i = 0
        while i &+ 32 < count {
            guard JSONScanner.lanes(same(i) .& same(i &+ 16)) == 0xFFFF else { return false }
            i &+= 32
        }
        return JSONScanner.lanes(same(count &- 32) .& same(count &- 16)) == 0xFFFF
    }

    // MARK: Values inside a line

    /// The layout the value beginning at `origin` in `line` matches (its layout's line being a value
    /// learned alone: an OTLP request's record, `EventImporter.translateRecords`), and where the value
    /// ends, with its values noted in `found` and its shifts in `shifts` (places in `line`; room for
    /// `maxEntries` and one more each; read as `MatchedValues(found:shifts:)`, `slotCount` of them);
    /// the layout is made the most recent. `lead` is the value's place among `leadPlaces`, chosen by the
    /// caller (a value's first bytes do not tell it, as a line's do); it changes only which layouts
    /// are tried first.
    ///
    /// Why the value then reads as the general scan reads it where it stands: as for a whole line (see
    /// the type's comment), up to where the layout's line ends, which is a value's end; what follows
    /// it is the caller's to read.
    mutating func findValue(
        _ line: UnsafePointer<UInt8>, count: Int, at origin: Int, lead: Int,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>
    ) -> (hit: Hit, end: Int)? {
        guard used > 0, count < Int(Int32.max) else { return nil }
        let ways = byLead + lead &* Self.leadWays
        findStamp &+= 1
        if let (hinted, end) = tryValueWays(ways, line, count: count, at: origin, found: found, shifts: shifts) {
            Self.note(hinted, in: ways)
            promote(hinted.index)
            matched &+= 1
            return (Hit(index: hinted.index, layout: hinted), end)
        }
        var index = mostRecent
        for _ in 0..<Self.triesPerLine {
            guard index >= 0 else { break }
            defer { index = Int(older[index]) }
            guard triedStamps[index] != findStamp else { continue }
            guard let end = Self.matchedEnd(
                line, count: count, layouts + index, origin: origin, found: found, shifts: shifts, powers: powers
            ) else {
                missedTries &+= 1
                continue
            }
            let layout = LayoutID(index: index, serial: layouts[index].serial)
            Self.note(layout, in: ways)
            promote(index)
            matched &+= 1
            return (Hit(index: index, layout: layout), end)
        }
        return nil
    }

    /// `findValue` among the layouts the place `keys` keeps alone (the value's `keysPlace`, found once
    /// the general scan told where the value ends): values of one name whose layouts are more than a
    /// place's ways (an event's fields written in several orders by several writers) are told apart
    /// by their keys, rather than read the general way and learned again. A layout found so is noted
    /// in the `lead` place too. Called after `findValue(_:count:at:lead:found:shifts:)` missed the
    /// same value, whose stamp (`findStamp`) marks the layouts it tried: they are not tried again.
    mutating func findValue(
        _ line: UnsafePointer<UInt8>, count: Int, at origin: Int, keys: Int, lead: Int,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>
    ) -> (hit: Hit, end: Int)? {
        guard used > 0, count < Int(Int32.max) else { return nil }
        let ways = byLead + keys &* Self.leadWays
        // Those the lead place keeps were tried already (`triedStamps`, this value's stamp).
        guard let (hinted, end) = tryValueWays(ways, line, count: count, at: origin, found: found, shifts: shifts) else {
            return nil
        }
        Self.note(hinted, in: ways)
        Self.note(hinted, in: byLead + lead &* Self.leadWays)
        promote(hinted.index)
        matched &+= 1
        return (Hit(index: hinted.index, layout: hinted), end)
    }

    /// The layout of those a place's `ways` keep that the value at `origin` matches, and where it ends,
    /// trying none tried already for this value (`triedStamps`), and marking those it tries and misses.
    @inline(__always)
    private mutating func tryValueWays(
        _ ways: UnsafeMutablePointer<LayoutID>, _ line: UnsafePointer<UInt8>, count: Int, at origin: Int,
        found: UnsafeMutablePointer<FoundValue>, shifts: UnsafeMutablePointer<Int32>
    ) -> (layout: LayoutID, end: Int)? {
        for way in 0..<Self.leadWays {
            let hinted = ways[way]
            guard hinted.serial != 0 else { break }
            guard layouts[hinted.index].serial == hinted.serial, triedStamps[hinted.index] != findStamp else { continue }
            if let end = Self.matchedEnd(
                line, count: count, layouts + hinted.index, origin: origin, found: found, shifts: shifts, powers: powers
            ) {
                return (hinted, end)
            }
            missedTries &+= 1
            triedStamps[hinted.index] = findStamp
        }
        return nil
    }

    /// How many variable values the layout `hit` names has: how many values its match noted.
    func slotCount(_ hit: Hit) -> Int { layouts[hit.index].slotCount }

    /// Bytes left in a line below which `JSONNumber.scan` would read a number a byte at a time (it
    /// reads 16 bytes at once only when they are all the line's): a line's last numbers
    /// (`"x":600,"y":400}}`) are read from a padded copy instead (`scanNearEnd`).
    static let nearEnd = 24

    /// `JSONNumber.scan(line, from: start, end: count)`, read from a copy of the line's last bytes
    /// followed by spaces. A space can continue no number literal (nor begin a fraction or an
    /// exponent), so the scan of the copy stops, or fails, where the scan of the line stops at its
    /// end or fails: the same literal, the same end, and the same value (`JSONNumber` reads a literal
    /// one way on either of its paths), only with room to read 16 bytes at once.
    ///
    /// The copy is of the line's last `nearEnd` bytes as three words (a line that short is copied a
    /// byte at a time), not a call to copy memory. Inlined into `matches`: with the table of powers
    /// passed in, the optimiser otherwise left it a call.
    @inline(__always)
    private static func scanNearEnd(
        _ line: UnsafePointer<UInt8>, from start: Int, count: Int, powers: UnsafeRawPointer
    ) -> JSONNumber.Scanned? {
        let spaces: UInt64 = 0x2020_2020_2020_2020
        var padded: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (spaces, spaces, spaces, spaces, spaces, spaces)
        return withUnsafeMutableBytes(of: &padded) { room -> JSONNumber.Scanned? in
            // The copy's byte 0 is the line's byte `origin`.
            let origin: Int
            if count >= nearEnd {
                origin = count &- nearEnd
                let raw = UnsafeRawPointer(line + origin)
                room.storeBytes(of: raw.loadUnaligned(as: UInt64.self), toByteOffset: 0, as: UInt64.self)
                room.storeBytes(of: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                room.storeBytes(of: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
            } else {
                origin = 0
                for i in 0..<count { room[i] = line[i] }
            }
            let copy = UnsafePointer(room.baseAddress!.assumingMemoryBound(to: UInt8.self))
            guard let scanned = JSONNumber.scan(copy, from: start &- origin, end: room.count, powers: powers) else { return nil }
            return JSONNumber.Scanned(end: origin &+ scanned.end, integer: scanned.integer, value: scanned.value)
        }
    }

    /// Keeps the line the general scan just read into `tape` as a layout, in place of the least
    /// recently matched one; returns it, or nil when the line is too long to keep.
    ///
    /// String values of members named one of `constantKeys` are kept constant rather than variable
    /// (`EventImporter.layoutConstantKeys`): OTLP's attribute names (`{"key": "session.id", …}`), which
    /// an importer reads as it reads keys, so that what it finds from keys alone (`LayoutMemo`) holds
    /// for every line of the layout; and values an exporter writes alike on every line, compared with
    /// the runs around them rather than read.
    mutating func learn(
        _ tape: borrowing JSONTape, constantKeys: [StaticString] = [], lead: Int? = nil, alternative: Int? = nil
    ) -> LayoutID? {
        learn(tape, constantKeys: constantKeys, lead: lead, alternative: alternative, seenBefore: false)
    }

    /// `learn`, for a layout seen before; a layout seen for the first time is only noted, and nil
    /// returned (the line is read without a layout, as a line too long to keep). After many lines in a
    /// row of layouts seen for the first time, only some lines' layouts are looked at (`sparseAfter`):
    /// a layout is then learned once two of its lines were picked.
    ///
    /// Why: an exporter that orders keys anew on every line (a writer hashing its keys, as Foundation's
    /// `JSONEncoder` does) makes every line a new layout. Learning one, and planning its lines'
    /// writing (`EventImporter.planLayout`), costs many general scans, and would never be repaid; each
    /// new layout would also push out one that lines of the other writers still match. A layout
    /// learned and pushed out is learned again at once while its signature stays noted (at its next
    /// line looked at, after many new layouts in a row).
    mutating func learnRepeated(
        _ tape: borrowing JSONTape, constantKeys: [StaticString] = [], lead: Int? = nil, alternative: Int? = nil
    ) -> LayoutID? {
        learn(tape, constantKeys: constantKeys, lead: lead, alternative: alternative, seenBefore: true)
    }

    private mutating func learn(
        _ tape: borrowing JSONTape, constantKeys: [StaticString], lead: Int?, alternative: Int?, seenBefore: Bool
    ) -> LayoutID? {
        guard let base = tape.base, tape.count <= Self.maxLineLength, tape.entryCount <= Self.maxEntries else { return nil }
        if seenBefore {
            // A writer whose every line is a new layout would pay a signature a line for nothing.
            // Lines are picked at random rather than one in so many, so that a writer of a repeated
            // layout taking turns with it is picked too.
            if firstSightingsInARow >= Self.sparseAfter {
                sparseDraw ^= sparseDraw &<< 13
                sparseDraw ^= sparseDraw &>> 7
                sparseDraw ^= sparseDraw &<< 17
                guard sparseDraw % Self.sparseOdds == 0 else { return nil }
            }
            guard noteSighting(Self.signature(of: tape, base: base, constantKeys: constantKeys)) else {
                firstSightings &+= 1
                firstSightingsInARow &+= 1
                return nil
            }
            firstSightingsInARow = 0
            // While most layouts pushed out were never matched (more layouts in turn than `capacity`:
            // a writer ordering keys anew in each of thousands of processes), learning one costs more
            // than it saves: one in `sparseOdds`, at random, is learned, enough to keep those that do
            // come back soon.
            if used == Self.capacity, unmatchedEvictions > Self.churnBar {
                sparseDraw ^= sparseDraw &<< 13
                sparseDraw ^= sparseDraw &>> 7
                sparseDraw ^= sparseDraw &<< 17
                guard sparseDraw % Self.sparseOdds == 0 else { return nil }
            }
        }
        let length = tape.count
        let entryCount = tape.entryCount
        let source = tape.entries
        // Keys are strings too, but constant: marked by walking each object's members (`isKey` also
        // marks the values kept constant).
        let isKey = UnsafeMutablePointer<Bool>.allocate(capacity: entryCount)
        defer { isKey.deallocate() }
        isKey.initialize(repeating: false, count: entryCount)
        for o in 0..<entryCount where source[o].kind == .object {
            var i = o &+ 1
            let end = Int(source[o].after)
            while i < end {
                isKey[i] = true
                i = Int(source[i &+ 1].after)
            }
        }
        if !constantKeys.isEmpty {
            for o in 0..<entryCount where source[o].kind == .object {
                var i = o &+ 1
                let end = Int(source[o].after)
                while i < end {
                    if source[i &+ 1].kind == .string {
                        for key in constantKeys where tape.keyEquals(i, key) {
                            isKey[i &+ 1] = true
                            break
                        }
                    }
                    i = Int(source[i &+ 1].after)
                }
            }
        }
        var slotCount = 0
        var lastSlotEntry = 0
        for e in 0..<entryCount where !isKey[e] && (source[e].kind == .string || source[e].kind == .number) {
            slotCount &+= 1
            lastSlotEntry = e
        }
        var containerCount = 0
        for e in 0..<entryCount where source[e].kind == .object || source[e].kind == .array { containerCount &+= 1 }
        let layout = Layout(
            template: .allocate(capacity: tape.count &+ Self.templatePadding), length: tape.count,
            restStart: slotCount == 0 ? 0 : Int(source[lastSlotEntry].end),
            entries: .allocate(capacity: max(entryCount, 1)), entryCount: entryCount,
            slots: .allocate(capacity: max(slotCount, 1)), slotCount: slotCount,
            containers: .allocate(capacity: max(containerCount, 1)), containerCount: containerCount,
            slotsBeforeStart: .allocate(capacity: max(entryCount, 1)),
            slotsBeforeEnd: .allocate(capacity: max(entryCount, 1)), serial: nextSerial)
        nextSerial &+= 1
        layout.template.initialize(from: base, count: tape.count)
        (layout.template + tape.count).initialize(repeating: 0, count: Self.templatePadding)
        layout.entries.initialize(from: source, count: entryCount)
        var c = 0
        for e in 0..<entryCount where source[e].kind == .object || source[e].kind == .array {
            layout.containers[c] = Int32(e)
            c &+= 1
        }
        var k = 0
        var slotRunStart: Int32 = 0
        for e in 0..<entryCount where !isKey[e] && (source[e].kind == .string || source[e].kind == .number) {
            layout.slots[k] = Slot(
                entry: Int32(e), runStart: slotRunStart, runLength: source[e].start &- slotRunStart, end: source[e].end,
                isString: source[e].kind == .string)
            slotRunStart = source[e].end
            k &+= 1
        }
        // Slots are in line order (entries are), so the count of slots ending at or before a byte is
        // found by a binary search.
        func slotsEnding(atOrBefore position: Int32) -> UInt16 {
            var low = 0
            var high = slotCount
            while low < high {
                let middle = (low &+ high) / 2
                if layout.slots[middle].end <= position { low = middle &+ 1 } else { high = middle }
            }
            return UInt16(low)
        }
        for e in 0..<entryCount {
            layout.slotsBeforeStart[e] = slotsEnding(atOrBefore: source[e].start)
            layout.slotsBeforeEnd[e] = slotsEnding(atOrBefore: source[e].end)
        }
        // A slot begins after the slots before it only: an empty string ends where it begins, and
        // would otherwise count itself, moving its own start by its own change of length.
        for k in 0..<slotCount { layout.slotsBeforeStart[Int(layout.slots[k].entry)] = UInt16(k) }
        let index: Int
        if used < Self.capacity {
            index = used
            used &+= 1
        } else {
            index = leastRecent
            unlink(index)
            layouts[index].free()
            // A running share, out of 1,024, of the last few dozen layouts pushed out that no line matched.
            unmatchedEvictions &+= ((matchedSinceLearned[index] ? 0 : 1024) &- unmatchedEvictions) &>> 4
        }
        layouts[index] = layout
        matchedSinceLearned[index] = false
        pushFront(index)
        let place = lead ?? Self.leadPlace(base, count: length, countsQuotes: countsQuotes)
        Self.note(LayoutID(index: index, serial: layout.serial), in: byLead + place &* Self.leadWays)
        if let alternative, alternative != place {
            Self.note(LayoutID(index: index, serial: layout.serial), in: byLead + alternative &* Self.leadWays)
        }
        let keys = Self.keysPlace(base, count: length, attributeNames: placesAttributeNames, besides: place, alternative)
        Self.note(LayoutID(index: index, serial: layout.serial), in: byLead + keys &* Self.leadWays)
        learned &+= 1
        return LayoutID(index: index, serial: layout.serial)
    }

    /// Whether a layout of `signature` was seen before (its signature still at its place); notes it
    /// there otherwise. Two layouts of one signature are taken for one: that changes only what is
    /// learned, never a line's tape (see the type's comment).
    private mutating func noteSighting(_ signature: UInt64) -> Bool {
        let place = Int(truncatingIfNeeded: signature &>> UInt64(64 &- Self.seenOnceCount.trailingZeroBitCount))
        if seenOnce[place] == signature { return true }
        seenOnce[place] = signature
        return false
    }

    /// A signature of the layout `tape`'s line would become, never 0: its entries' kinds in order
    /// (with a container's size and a boolean's value, which are part of a layout), its keys, and the
    /// string values of members named one of `constantKeys` (which the layout keeps constant: an OTLP
    /// record's attribute names, in whatever order its exporter writes them). Two lines of one layout
    /// have the same; lines of others seldom do, which decides only what is learned.
    private static func signature(
        of tape: borrowing JSONTape, base: UnsafePointer<UInt8>, constantKeys: [StaticString]
    ) -> UInt64 {
        let count = tape.count
        let entries = tape.entries
        var hash: UInt64 = 0x243F_6A88_85A3_08D3
        var valueKeptConstant = false
        // Keys of other lengths than `constantKeys`' are not compared with them.
        var constantKeyLengths: UInt64 = 0
        for key in constantKeys where key.utf8CodeUnitCount < 64 { constantKeyLengths |= 1 &<< UInt64(key.utf8CodeUnitCount) }
        for e in 0..<tape.entryCount {
            let entry = entries[e]
            let flag: UInt64 = entry.kind == .bool && entry.flag ? 1 : 0
            let size = UInt64(truncatingIfNeeded: Int(entry.after) &- e)
            hash = mix(hash, UInt64(entry.kind.rawValue) | flag &<< 8 | size &<< 16)
            guard entry.kind == .string else {
                valueKeptConstant = false
                continue
            }
            let start = Int(entry.start)
            let length = Int(entry.end) &- start
            // A key is followed by its colon, after any whitespace; a string value never is.
            var after = Int(entry.end) &+ 1
            while after < count, base[after] <= 0x20 { after &+= 1 }
            let isKey = after < count && base[after] == 0x3A
            if isKey || valueKeptConstant { hash = mix(hash, bytes: base + start, count: length, readable: count &- start) }
            valueKeptConstant = false
            if isKey, entry.flag || (length < 64 && constantKeyLengths & (1 &<< UInt64(length)) != 0) {
                for key in constantKeys where tape.keyEquals(e, key) {
                    valueKeptConstant = true
                    break
                }
            }
        }
        return hash | 1
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let h = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        return h ^ (h &>> 32)
    }

    /// `hash` with the `count` bytes at `bytes` and their count mixed in, eight bytes a step; `readable`
    /// bytes from `bytes` may be read (at least `count`).
    @inline(__always)
    private static func mix(_ hash: UInt64, bytes: UnsafePointer<UInt8>, count: Int, readable: Int) -> UInt64 {
        var h = mix(hash, UInt64(truncatingIfNeeded: count))
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        while i &+ 8 <= count {
            h = mix(h, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i &+= 8
        }
        guard i < count else { return h }
        let left = count &- i
        if readable &- i >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            return mix(h, word & (UInt64.max &>> UInt64(64 &- 8 &* left)))
        }
        // The bytes as the word above holds them (the first lowest), so that a string hashes alike
        // wherever it stands.
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(bytes[i]) &<< shift
            shift &+= 8
            i &+= 1
        }
        return mix(h, tail)
    }
}

/// Per layout, something an importer finds in a line from its structure and keys alone (where the
/// envelope's members are, which keys are fields of ours): the same for every line of the layout, since
/// a matching line differs from the layout's line only in variable values (`ExportLineLayouts`), so
/// found once a layout and kept beside it. A line read without a layout finds it afresh.
///
/// Kept in place and handed out by address (`place`), so that a line reads the few members it needs
/// rather than a copy of them all.
final class LayoutMemo<Value> {
    /// One place a layout, and one more for a line read without a layout.
    private static var places: Int { ExportLineLayouts.capacity + 1 }
    private let values: UnsafeMutablePointer<Value>
    /// Per place, the serial of the layout whose value it holds; 0 when it holds none (never
    /// initialised), -1 for the last line read without a layout.
    private let serials: UnsafeMutablePointer<Int>
    /// Called with a value as it is forgotten (replaced, or with the memo): for values that own memory
    /// of their own (`ConventionPlan`).
    private let forget: (Value) -> Void

    init(forget: @escaping (Value) -> Void = { _ in }) {
        self.forget = forget
        values = .allocate(capacity: Self.places)
        serials = .allocate(capacity: Self.places)
        serials.initialize(repeating: 0, count: Self.places)
    }

    deinit {
        for place in 0..<Self.places where serials[place] != 0 {
            forget(values[place])
            (values + place).deinitialize(count: 1)
        }
        values.deallocate()
        serials.deallocate()
    }

    /// The value kept for `layout`, if one is: valid until the next `keep` or `place`.
    @inline(__always)
    func kept(for layout: ExportLineLayouts.LayoutID) -> UnsafePointer<Value>? {
        serials[layout.index] == layout.serial ? UnsafePointer(values + layout.index) : nil
    }

    /// Keeps `value` for `layout`, in place of what its place held.
    func keep(_ value: Value, for layout: ExportLineLayouts.LayoutID) {
        _ = keep(value, at: layout.index, serial: layout.serial)
    }

    /// The value kept for `layout`, or `find()`'s, kept for it: valid until the next call.
    @inline(__always)
    func place(_ layout: ExportLineLayouts.LayoutID?, _ find: () -> Value) -> UnsafePointer<Value> {
        guard let layout else { return keep(find(), at: Self.places - 1, serial: -1) }
        if serials[layout.index] == layout.serial { return UnsafePointer(values + layout.index) }
        return keep(find(), at: layout.index, serial: layout.serial)
    }

    /// `place`'s value, copied.
    @inline(__always)
    func value(_ layout: ExportLineLayouts.LayoutID?, _ find: () -> Value) -> Value {
        place(layout, find).pointee
    }

    private func keep(_ value: Value, at place: Int, serial: Int) -> UnsafePointer<Value> {
        if serials[place] != 0 {
            forget(values[place])
            values[place] = value
        } else {
            (values + place).initialize(to: value)
        }
        serials[place] = serial
        return UnsafePointer(values + place)
    }
}
