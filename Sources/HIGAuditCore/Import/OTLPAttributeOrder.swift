#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// An OTLP request with its attribute lists in the order of their names, for the importer to read in
/// place of the export's line (SPEC §7 leaves the order of an event's own fields to the importer: an
/// OTLP attribute list is a map).
///
/// Why: OpenTelemetry Swift writes a record's attributes, and a resource's, in the order of a Swift
/// dictionary, which differs from one dictionary to the next. Such records seldom repeat a layout
/// (`ExportLineLayouts`) and were each read the general way, at about twice what a record costs whose
/// layout's plan reads it. In the order of their names, records of one set of names are one layout
/// whatever order their writer chose.
///
/// The lists are found by their key, `"attributes":[` after a `{` or a `,`: in valid JSON a quote
/// there opens a key (inside a string a quote is escaped), so such a list is a resource's, a scope's
/// or a record's, and those the importer reads are among them. A list is reordered when each of its
/// elements is an object whose first member is a plain `key` string and nothing stands between its
/// tokens; any other is left as it stands. The line is not validated here: the importer reads the
/// reordered line in full, and reads the export's line as it stands instead when that one is
/// malformed (`EventImporter.translate`), so that a malformed line is reported as it is written.
///
/// Lines are reordered only while the export changes the order of its lists: a writer that keeps
/// one order a set of names (whatever it is) is read as it stands, and its own fields written in its
/// order (`reorder`, `decide`). The decision rests on the lines it is given alone, so it is the same
/// however the importer reads them (with layouts or without); of a collector's batches the importer
/// gives only those that go to its layouts of records (`EventImporter.recordsSortLine`).
///
/// What the importer reads does not change: of each name it reads the first attribute, and the sort
/// is stable, so two attributes of one name keep their order (a list holding a name with escapes,
/// which could equal another once unescaped, is left as it stands). A problem found in a reordered
/// line is located in the export's line (`sourceColumn`).
final class OTLPAttributeOrder {
    /// One attribute of a list: its bytes and its name's, in the line, and its name's first eight
    /// bytes as a big-endian word (zeros past a shorter name's end), which order most pairs of names.
    private struct Element {
        var start: Int32
        var end: Int32
        var nameStart: Int32
        var nameEnd: Int32
        var prefix: UInt64
    }

    /// An attribute the reordered line holds elsewhere than the export's: `count` bytes at `to`
    /// were at `from`.
    private struct Move {
        var to: Int32
        var from: Int32
        var count: Int32
    }

    /// Lists longer than this are left in their order (an insertion sort's cost grows as its square).
    static let longestSortedList = 64

    /// Whether lines are reordered (`reorder`): while the orders of the lists it reads change from
    /// one list of a set of names to the next (`noteOrder`). Set for good by tests (`sortsEveryLine`).
    private(set) var sorting: Bool
    let sortsEveryLine: Bool
    /// Lines given to `reorder`, and of them those read for their lists' orders.
    private(set) var lines = 0
    private(set) var linesRead = 0
    /// Of the lists read since the last decision, those whose set of names was seen before, and of
    /// them those in another order than the set's first (`orders`).
    private var blockRepeats = 0
    private var blockChanges = 0
    /// Per set of names (a hash of its names, whatever their order), the order first seen (a hash
    /// of its names in order); 0 for a slot that holds none.
    private let orders = UnsafeMutablePointer<(names: UInt64, order: UInt64)>.allocate(capacity: orderSlots)
    private static let orderSlots = 256
    /// Lists of repeated sets a decision rests on, the lines read for it while lines are not
    /// reordered (one in `stableOdds` past the first `firstLinesRead`), and the share of them in
    /// another order (one in `changeShare`) that makes lines reordered: a writer that changes the
    /// order of a few of its records (one of several writers of an export) gains less than the
    /// reading of every line costs.
    static let decisionLists = 64
    /// A power of two.
    static let stableOdds = 64
    static let firstLinesRead = 64
    static let changeShare = 3

    private var line = GrowingBytes(capacity: 4096)
    /// The attributes of the list being read (at most `longestSortedList`).
    private let attributes = UnsafeMutablePointer<Element>.allocate(capacity: longestSortedList)
    private var attributeCount = 0
    private var moves = PlainList<Move>()
    /// Whether the last line given to `reorder` was reordered (its problems' columns then move back).
    private(set) var reordered = false

    init(sortsEveryLine: Bool = false) {
        self.sortsEveryLine = sortsEveryLine
        sorting = sortsEveryLine
        orders.initialize(repeating: (0, 0), count: Self.orderSlots)
    }

    deinit {
        attributes.deallocate()
        moves.deallocate()
        orders.deallocate()
    }

    /// The request `source` with its attribute lists in name order, valid until the next call; nil
    /// when it is to be read as it stands: no list is out of order, or the export keeps one order a
    /// set of names (`sorting` is off; one line in `stableOdds` is then read, up to the next decision,
    /// to see whether that still holds).
    ///
    /// Why not always: reading a line's lists costs a good part of what reading a line by its
    /// layout's plan costs. A writer that keeps one order a set of names gains nothing from it (its
    /// lines repeat their layouts as they stand); one that changes it (a dictionary's order) gains a
    /// layout for every set of names.
    ///
    /// `takesLine` tells first whether the line is read at all.
    func reorder(_ source: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        forgetLine()
        linesRead &+= 1
        guard let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self), source.count < Int(Int32.max) else { return nil }
        let count = source.count
        let keyLength = Self.listKey.utf8CodeUnitCount
        // Where the search goes on: past a list read in full, whose elements' own lists (moved with
        // them when the list is reordered) are left as they stand.
        var resume = 0
        var block = 0
        // A line read only for its orders (lines are not reordered) is read up to the decision, so
        // that a collector's batch of many records is not read whole for it: nothing of it is written.
        let readsForDecision = !sorting
        // Sixteen places a step, where the key's first and last bytes stand; its other bytes are
        // compared only there.
        scan: while block &+ keyLength &+ 15 <= count {
            var candidates = Self.keyCandidates(base, at: block, keyLength: keyLength)
            while candidates != 0 {
                let place = block &+ candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                guard place >= resume, Self.opensList(base, at: place, count: count) else { continue }
                resume = sortList(base, at: place &+ keyLength &- 1, count: count) ?? place &+ 1
                if readsForDecision, blockRepeats >= Self.decisionLists { break scan }
            }
            block = max(block &+ 16, resume)
        }
        var place = max(block, resume)
        while place &+ keyLength <= count, !(readsForDecision && blockRepeats >= Self.decisionLists) {
            if Self.opensList(base, at: place, count: count) {
                place = sortList(base, at: place &+ keyLength &- 1, count: count) ?? place &+ 1
            } else {
                place &+= 1
            }
        }
        decide()
        return reordered ? UnsafeRawBufferPointer(start: line.start, count: count) : nil
    }

    /// Counts a line of the export and says whether `reorder` reads it: every line while lines are
    /// reordered, else the first `firstLinesRead` and one in `stableOdds`.
    @inline(__always)
    func takesLine() -> Bool {
        lines &+= 1
        return sorting || lines <= Self.firstLinesRead || lines & (Self.stableOdds &- 1) == 0
    }

    /// Forgets the last line reordered: problems' columns are the export's line's again.
    func forgetLine() {
        reordered = false
        moves.removeAll()
    }

    /// Where the byte at `column` of the last reordered line stands in the export's line.
    func sourceColumn(_ column: Int) -> Int {
        for index in moves.indices {
            let move = moves[index]
            let offset = column &- Int(move.to)
            if offset >= 0, offset < Int(move.count) { return Int(move.from) &+ offset }
        }
        return column
    }

    private static let listKey: StaticString = "\"attributes\":["

    /// One bit per place of the 16 from `block` at which a quote stands and, `keyLength - 1` bytes on,
    /// a `[`.
    @inline(__always)
    private static func keyCandidates(_ base: UnsafePointer<UInt8>, at block: Int, keyLength: Int) -> UInt16 {
        let first = UnsafeRawPointer(base + block).loadUnaligned(as: SIMD16<UInt8>.self)
        let last = UnsafeRawPointer(base + (block &+ keyLength &- 1)).loadUnaligned(as: SIMD16<UInt8>.self)
        return JSONScanner.lanes((first .== SIMD16(repeating: 0x22)) .& (last .== SIMD16(repeating: 0x5B)))
    }

    /// Whether the key `"attributes":[` is at `place`, after a `{` or a `,`.
    @inline(__always)
    private static func opensList(_ base: UnsafePointer<UInt8>, at place: Int, count: Int) -> Bool {
        guard place > 0, place &+ listKey.utf8CodeUnitCount <= count,
              ByteComparison.equal(base + place, listKey.utf8Start, count: listKey.utf8CodeUnitCount)
        else { return false }
        let before = base[place &- 1]
        return before == 0x7B || before == 0x2C
    }

    /// The attribute list whose `[` is at `listStart`: reordered when its elements are attributes as
    /// `reorder` takes them and out of order, else left as it stands. Returns where the list ends (past
    /// its `]`) when it was read in full.
    private func sortList(_ base: UnsafePointer<UInt8>, at listStart: Int, count: Int) -> Int? {
        var s = JSONScanner(base: base, count: count)
        s.pos = listStart &+ 1
        attributeCount = 0
        var inOrder = true
        var names: UInt64 = 0
        var order: UInt64 = 0
        while true {
            let start = s.pos
            guard Self.holds(s, start, "{\"key\":\"") else { return nil }
            let nameStart = start &+ 8
            // A name with an escape (or not closed) leaves the list as it stands.
            guard let nameEnd = JSONScanner.plainStringEnd(base, from: nameStart, end: count)
                ?? Self.plainStringEndByLoop(base, from: nameStart, end: count)
            else { return nil }
            if !Self.passCompactAttribute(&s, nameEnd: nameEnd) {
                s.pos = start
                guard (try? s.skipObject(depth: 1)) != nil else { return nil }
            }
            guard attributeCount < Self.longestSortedList, s.pos < count else { return nil }
            let element = Element(
                start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: s.pos),
                nameStart: Int32(truncatingIfNeeded: nameStart), nameEnd: Int32(truncatingIfNeeded: nameEnd),
                prefix: Self.prefix(base, from: nameStart, count: nameEnd &- nameStart, end: count))
            if inOrder, attributeCount > 0, Self.precedes(element, attributes[attributeCount &- 1], base) { inOrder = false }
            // The name's first eight bytes, its last and its length stand for it (two names alike in
            // those are one only to the decision, never to the order).
            let last = nameEnd > nameStart ? UInt64(base[nameEnd &- 1]) : 0
            let name = element.prefix &+ UInt64(truncatingIfNeeded: nameEnd &- nameStart) &+ last &<< 8
            names &+= name
            order = (order &+ name) &* 0x9E37_79B9_7F4A_7C15
            attributes[attributeCount] = element
            attributeCount &+= 1
            let byte = base[s.pos]
            s.pos &+= 1
            if byte == 0x5D { break }
            guard byte == 0x2C else { return nil }
        }
        noteOrder(names: names, order: order)
        if !inOrder, sorting {
            sortElements(base)
            write(list: listStart, from: base, count: count)
        }
        return s.pos
    }

    /// Notes a list read in full, by the hashes of its set of names and of their order: whether its
    /// set was seen before, and in another order than its first (`decide`: lines are reordered while
    /// one in `changeShare` of those did).
    private func noteOrder(names: UInt64, order: UInt64) {
        let mixed = names &* 0xC2B2_AE3D_27D4_EB4F
        let slot = orders + Int(truncatingIfNeeded: mixed &>> 56)
        // 0 marks an empty slot: a set hashed to 0 (or an order hashed to 0) is noted as 1.
        let names = names | 1
        let order = order | 1
        guard slot.pointee.names == names else {
            slot.pointee = (names, order)
            return
        }
        blockRepeats &+= 1
        if slot.pointee.order != order { blockChanges &+= 1 }
    }

    /// At a line's end, after `decisionLists` lists of sets seen before, decides whether the lines
    /// that follow are reordered.
    private func decide() {
        guard blockRepeats >= Self.decisionLists else { return }
        if !sortsEveryLine { sorting = blockChanges &* Self.changeShare >= blockRepeats }
        blockRepeats = 0
        blockChanges = 0
    }

    /// Where the plain string starting at `from` ends (its closing quote), read byte by byte: for
    /// names `JSONScanner.plainStringEnd` leaves (long ones, non-ASCII ones); nil for one with an
    /// escape or a control character, or not closed.
    private static func plainStringEndByLoop(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        var place = from
        while place < end {
            let byte = base[place]
            if byte == 0x22 { return place }
            if byte == 0x5C || byte < 0x20 { return nil }
            place &+= 1
        }
        return nil
    }

    /// The first eight bytes of the name of `count` bytes at `from`, big-endian, zeros past its end.
    @inline(__always)
    private static func prefix(_ base: UnsafePointer<UInt8>, from: Int, count: Int, end: Int) -> UInt64 {
        var word: UInt64 = 0
        if end &- from >= 8 {
            word = UnsafeRawPointer(base + from).loadUnaligned(as: UInt64.self).bigEndian
        } else {
            for index in 0..<(end &- from) { word |= UInt64(base[from &+ index]) << (56 &- 8 &* UInt64(index)) }
        }
        return count >= 8 ? word : word & ~(UInt64.max >> (8 &* UInt64(count)))
    }

    /// Passes the attribute whose name ends at `nameEnd` when it is written as OTLP/JSON writers write
    /// one, `{"key":"…","value":{"<kind>Value":…}}` with nothing between its tokens and a string,
    /// number or literal value, leaving `s.pos` after it (true); false for any other, which
    /// `JSONScanner.skipObject` then reads. A number is only scanned: a malformed one is found by
    /// the importer's reading of the line.
    @inline(__always)
    private static func passCompactAttribute(_ s: inout JSONScanner, nameEnd: Int) -> Bool {
        guard holds(s, nameEnd, "\",\"value\":{\"") else { return false }
        let kindStart = nameEnd &+ 12
        let valueStart: Int
        if holds(s, kindStart, "stringValue\":") || holds(s, kindStart, "doubleValue\":") {
            valueStart = kindStart &+ 13
        } else if holds(s, kindStart, "intValue\":") {
            valueStart = kindStart &+ 10
        } else if holds(s, kindStart, "boolValue\":") {
            valueStart = kindStart &+ 11
        } else {
            return false
        }
        guard valueStart < s.end else { return false }
        var end: Int
        switch s.base[valueStart] {
        case 0x22:
            if let quote = JSONScanner.plainStringEnd(s.base, from: valueStart &+ 1, end: s.end) {
                end = quote &+ 1
            } else {
                s.pos = valueStart &+ 1
                guard (try? s.scanStringBody()) != nil else { return false }
                end = s.pos
            }
        case 0x2D, 0x30...0x39:
            end = valueStart &+ 1
            while end < s.end, Self.isNumberByte(s.base[end]) { end &+= 1 }
        case 0x74:
            guard holds(s, valueStart, "true") else { return false }
            end = valueStart &+ 4
        case 0x66:
            guard holds(s, valueStart, "false") else { return false }
            end = valueStart &+ 5
        default:
            return false
        }
        guard holds(s, end, "}}") else { return false }
        s.pos = end &+ 2
        return true
    }

    @inline(__always)
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || byte == 0x2E || byte == 0x65 || byte == 0x45 || byte == 0x2B || byte == 0x2D
    }

    /// Sorts `attributes` by name, stably.
    private func sortElements(_ base: UnsafePointer<UInt8>) {
        for index in 1..<attributeCount {
            let element = attributes[index]
            var place = index
            while place > 0, Self.precedes(element, attributes[place &- 1], base) {
                attributes[place] = attributes[place &- 1]
                place &-= 1
            }
            attributes[place] = element
        }
    }

    /// Writes the sorted `attributes` over the list whose `[` is at `listStart` in the reordered line
    /// (a copy of the source's, made at the first list reordered), one comma between them as in the
    /// source, and notes where each went.
    private func write(list listStart: Int, from base: UnsafePointer<UInt8>, count: Int) {
        if !reordered {
            line.count = 0
            line.reserve(count)
            line.append(UnsafeRawBufferPointer(start: base, count: count))
            reordered = true
        }
        var to = listStart &+ 1
        for index in 0..<attributeCount {
            let element = attributes[index]
            let length = Int(element.end &- element.start)
            if index > 0 {
                line.start[to] = 0x2C
                to &+= 1
            }
            Self.copy(base + Int(element.start), to: line.start + to, count: length)
            if to != Int(element.start) {
                moves.append(Move(to: Int32(truncatingIfNeeded: to), from: element.start, count: Int32(truncatingIfNeeded: length)))
            }
            to &+= length
        }
    }

    /// Copies `count` bytes (at least 16: an attribute is longer) sixteen at a time, the last
    /// sixteen overlapping those before: an attribute is a few dozen bytes, for which a call of
    /// `memcpy` costs more than the copy.
    @inline(__always)
    private static func copy(_ from: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, count: Int) {
        guard count >= 16 else { return to.update(from: from, count: count) }
        let source = UnsafeRawPointer(from)
        let target = UnsafeMutableRawPointer(to)
        var offset = 0
        while offset &+ 16 < count {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset, as: SIMD16<UInt8>.self)
            offset &+= 16
        }
        target.storeBytes(
            of: source.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self), toByteOffset: count &- 16, as: SIMD16<UInt8>.self)
    }

    /// Whether `a`'s name comes before `b`'s in the order of their bytes (a name before its extensions).
    @inline(__always)
    private static func precedes(_ a: Element, _ b: Element, _ base: UnsafePointer<UInt8>) -> Bool {
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        let aCount = Int(a.nameEnd &- a.nameStart)
        let bCount = Int(b.nameEnd &- b.nameStart)
        // Alike in their first eight bytes (or all of a shorter name's): the rest decides.
        let aStart = base + Int(a.nameStart)
        let bStart = base + Int(b.nameStart)
        var index = 8
        let shorter = min(aCount, bCount)
        while index < shorter {
            let x = aStart[index]
            let y = bStart[index]
            if x != y { return x < y }
            index &+= 1
        }
        return aCount < bCount
    }

    // MARK: The grammar's steps

    @inline(__always)
    private static func at(_ s: JSONScanner, _ byte: UInt8) -> Bool {
        s.pos < s.end && s.base[s.pos] == byte
    }

    @inline(__always)
    private static func holds(_ s: JSONScanner, _ place: Int, _ literal: StaticString) -> Bool {
        s.end &- place >= literal.utf8CodeUnitCount
            && ByteComparison.equal(s.base + place, literal.utf8Start, count: literal.utf8CodeUnitCount)
    }
}
