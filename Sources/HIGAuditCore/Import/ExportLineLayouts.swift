/// Layouts of earlier export lines, so that a line laid out like one of them gets its tape
/// (`JSONTape`) without the general scan.
///
/// An SDK's exporter writes every event with the same keys in the same order and the same separators;
/// what changes from line to line is values (a timestamp, a session, an id, an event's own fields). A
/// layout is an earlier line whose string and number values (not keys) are *variable*; every other
/// byte (keys, punctuation, whitespace, `true`, `false`, `null`, the quotes around strings) is a run a
/// line must repeat exactly. Matching compares those runs and reads only the variable values, each
/// with the code the general scan reads them with (`JSONScanner.scanStringBody`, `JSONNumber.scan`).
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
/// the decoder takes instead of reading the literal again (`FieldAssignment.number`): `JSONNumber` is
/// the decoder's one reader of literals, so that is the value it would read from the same bytes (NaN,
/// where the scan leaves the value to the standard library, has the decoder read it as before).
///
/// Layouts are tried most recently matched first, a few a line; a line that matches none and that the
/// general scan reads becomes a layout in place of the least recently matched one.
struct ExportLineLayouts {
    /// Layouts kept.
    static let capacity = 24
    /// Layouts tried before a line is left to the general scan.
    static let triesPerLine = 6
    /// Longer lines, or lines with more values, are not learned: a layout keeps a copy of its line.
    static let maxLineLength = 8192
    static let maxEntries = 1024

    /// A variable value of a layout's line.
    struct Slot {
        /// Its tape entry.
        var entry: Int32
        /// Its byte range in the layout's line (a string's inside its quotes).
        var start: Int32
        var end: Int32
        var isString: Bool
    }

    /// One learned line, in memory of its own (freed when the layout is replaced, or by `deallocate`).
    struct Layout {
        var template: UnsafeMutablePointer<UInt8>
        var length: Int
        var entries: UnsafeMutablePointer<JSONTape.Entry>
        var entryCount: Int
        var slots: UnsafeMutablePointer<Slot>
        var slotCount: Int
        /// Per entry, how many slots end at or before its start, and at or before its end: which
        /// shift applies to each.
        var slotsBeforeStart: UnsafeMutablePointer<UInt16>
        var slotsBeforeEnd: UnsafeMutablePointer<UInt16>
        /// Names the layout for memos kept with it (`EventImporter`'s located envelopes): never reused.
        var serial: Int

        func free() {
            template.deallocate()
            entries.deallocate()
            slots.deallocate()
            slotsBeforeStart.deallocate()
            slotsBeforeEnd.deallocate()
        }
    }

    private var layouts: UnsafeMutablePointer<Layout>
    /// Indices into `layouts`, most recently matched first.
    private var order: UnsafeMutablePointer<Int>
    private(set) var used = 0
    private var nextSerial = 1
    /// Per slot of the layout being matched: the value's new range and flag, and the shift after it.
    private var found: UnsafeMutablePointer<(start: Int32, end: Int32, flag: Bool, value: Double)>
    private var shifts: UnsafeMutablePointer<Int32>
    /// Lines matched, and lines learned (for tests).
    private(set) var matched = 0
    private(set) var learned = 0

    init() {
        layouts = .allocate(capacity: Self.capacity)
        order = .allocate(capacity: Self.capacity)
        found = .allocate(capacity: Self.maxEntries)
        shifts = .allocate(capacity: Self.maxEntries + 1)
    }

    /// Frees every layout; not used again.
    func deallocate() {
        for i in 0..<used { layouts[i].free() }
        layouts.deallocate()
        order.deallocate()
        found.deallocate()
        shifts.deallocate()
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
        guard let raw = line.baseAddress, used > 0 else { return nil }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        let tries = min(used, Self.triesPerLine)
        for rank in 0..<tries {
            let index = order[rank]
            guard matches(bytes, count: line.count, layouts[index]) else { continue }
            let layout = layouts[index]
            tape.fill(line: bytes, count: line.count, template: layout.entries, entryCount: layout.entryCount) { entries, numbers in
                for e in 0..<layout.entryCount {
                    entries[e].start &+= shifts[Int(layout.slotsBeforeStart[e])]
                    entries[e].end &+= shifts[Int(layout.slotsBeforeEnd[e])]
                }
                // Every number of a layout's line is a slot (only strings are kept constant), so
                // every number entry gets its value here.
                for k in 0..<layout.slotCount {
                    let slot = layout.slots[k]
                    entries[Int(slot.entry)].end = found[k].end
                    entries[Int(slot.entry)].flag = found[k].flag
                    if !slot.isString { numbers[Int(slot.entry)] = found[k].value }
                }
            }
            if rank > 0 {
                (order + 1).update(from: order, count: rank)
                order[0] = index
            }
            matched &+= 1
            return LayoutID(index: index, serial: layout.serial)
        }
        return nil
    }

    /// Whether `line` is `layout`'s line with its variable values replaced (see the type's comment);
    /// notes the new values in `found` and the shifts in `shifts`.
    private func matches(_ line: UnsafePointer<UInt8>, count: Int, _ layout: Layout) -> Bool {
        var p = 0
        var t = 0
        var shift: Int32 = 0
        shifts[0] = 0
        for k in 0..<layout.slotCount {
            let slot = layout.slots[k]
            let run = Int(slot.start) &- t
            guard p &+ run <= count, ByteComparison.equal(line + p, layout.template + t, count: run) else { return false }
            p &+= run
            let end: Int
            let flag: Bool
            var value = Double.nan
            if slot.isString {
                // The opening quote was the run's last byte.
                var scanner = JSONScanner(base: line, count: count)
                scanner.pos = p
                guard let escaped = try? scanner.scanStringBody() else { return false }
                end = scanner.pos &- 1
                flag = escaped
            } else {
                guard p < count, line[p] == 0x2D || JSONScanner.isDigit(line[p]),
                      let number = count &- p > Self.nearEnd
                        ? JSONNumber.scan(line, from: p, end: count) : Self.scanNearEnd(line, from: p, count: count)
                else { return false }
                end = number.end
                flag = number.integer
                value = number.value
            }
            found[k] = (Int32(p), Int32(end), flag, value)
            shift &+= Int32(end &- p) &- (slot.end &- slot.start)
            shifts[k &+ 1] = shift
            p = end
            t = Int(slot.end)
        }
        let rest = layout.length &- t
        return count &- p == rest && ByteComparison.equal(line + p, layout.template + t, count: rest)
    }

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
    /// byte at a time), not a call to copy memory.
    private static func scanNearEnd(_ line: UnsafePointer<UInt8>, from start: Int, count: Int) -> JSONNumber.Scanned? {
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
            guard let scanned = JSONNumber.scan(copy, from: start &- origin, end: room.count) else { return nil }
            return JSONNumber.Scanned(end: origin &+ scanned.end, integer: scanned.integer, value: scanned.value)
        }
    }

    /// Keeps the line the general scan just read into `tape` as a layout, in place of the least
    /// recently matched one; returns it, or nil when the line is too long to keep.
    ///
    /// String values of members named `constantKey` are kept constant rather than variable: OTLP's
    /// attribute names (`{"key": "session.id", …}`), which an importer reads as it reads keys, so that
    /// what it finds from keys alone (`LayoutMemo`) holds for every line of the layout.
    mutating func learn(_ tape: borrowing JSONTape, constantKey: StaticString? = nil) -> LayoutID? {
        guard let base = tape.base, tape.count <= Self.maxLineLength, tape.entryCount <= Self.maxEntries else { return nil }
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
        if let constantKey {
            for o in 0..<entryCount where source[o].kind == .object {
                var i = o &+ 1
                let end = Int(source[o].after)
                while i < end {
                    if source[i &+ 1].kind == .string, tape.keyEquals(i, constantKey) { isKey[i &+ 1] = true }
                    i = Int(source[i &+ 1].after)
                }
            }
        }
        var slotCount = 0
        for e in 0..<entryCount where !isKey[e] && (source[e].kind == .string || source[e].kind == .number) { slotCount &+= 1 }
        let layout = Layout(
            template: .allocate(capacity: max(tape.count, 1)), length: tape.count,
            entries: .allocate(capacity: max(entryCount, 1)), entryCount: entryCount,
            slots: .allocate(capacity: max(slotCount, 1)), slotCount: slotCount,
            slotsBeforeStart: .allocate(capacity: max(entryCount, 1)),
            slotsBeforeEnd: .allocate(capacity: max(entryCount, 1)), serial: nextSerial)
        nextSerial &+= 1
        layout.template.initialize(from: base, count: tape.count)
        layout.entries.initialize(from: source, count: entryCount)
        var k = 0
        for e in 0..<entryCount where !isKey[e] && (source[e].kind == .string || source[e].kind == .number) {
            layout.slots[k] = Slot(entry: Int32(e), start: source[e].start, end: source[e].end, isString: source[e].kind == .string)
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
        let index: Int
        if used < Self.capacity {
            index = used
            used &+= 1
            (order + 1).update(from: order, count: used &- 1)
        } else {
            index = order[used &- 1]
            layouts[index].free()
            (order + 1).update(from: order, count: used &- 1)
        }
        layouts[index] = layout
        order[0] = index
        learned &+= 1
        return LayoutID(index: index, serial: layout.serial)
    }
}

/// Per layout, something an importer finds in a line from its structure and keys alone (where the
/// envelope's members are, which keys are fields of ours): the same for every line of the layout, since
/// a matching line differs from the layout's line only in variable values (`ExportLineLayouts`), so
/// found once a layout and kept beside it. A line read without a layout finds it afresh.
struct LayoutMemo<Value> {
    private var values: [(serial: Int, value: Value)?] = Array(repeating: nil, count: ExportLineLayouts.capacity)

    /// The value kept for `layout`, or `find()`'s, kept for it.
    @inline(__always)
    mutating func value(_ layout: ExportLineLayouts.LayoutID?, _ find: () -> Value) -> Value {
        guard let layout else { return find() }
        if let kept = values[layout.index], kept.serial == layout.serial { return kept.value }
        let value = find()
        values[layout.index] = (layout.serial, value)
        return value
    }
}
