/// OTLP requests of many records a line (a collector's batch processor and file exporter), read record
/// by record: each record matched against layouts of records (`recordLayouts`, `ExportLineLayouts
/// .findValue`) and, where its layout has a plan (`ConventionPlan.takesResource`), read from its
/// match, its resource's attributes found once a resource (`RecordResource`). Such lines hardly repeat
/// whole, so the layouts of whole lines miss them, while their records repeat a few layouts.
///
/// Why this gives what the general way (`JSONTape.read`, `otlpRecords`) gives. The line is read in two
/// passes. The first reads its frame, `{"resourceLogs":[{"resource":…,"scopeLogs":[{…,"logRecords":
/// [record,…]}]}]}`, byte by byte as the general scan does (the same whitespace, the same structure),
/// every value other than a record (a resource, a scope) with the general scan itself
/// (`JSONTape.appendValue`, as deep as it stands), and each record by a layout's match or, where
/// none matches, by the general scan too (then by a layout its keys place keeps, else learned if its
/// layout was seen before). Anything else
/// (a key with escapes, a key named twice, `scopeLogs` or `logRecords` not arrays, a member the
/// general way would read but this frame does not know, a value that does not scan) hands the line,
/// untouched, to the general way, which then gives its reason and column: nothing is handed over
/// before the whole line has been read. So when the first pass ends, the line is valid JSON and its
/// records and resources are where the general way's `otlpPlaces` finds them, in the same order. The
/// second pass hands them over: a record of a planned layout under a resource whose attributes are
/// of their kinds by its plan (what `translatePlanned` gives a line of one record), any other with its
/// resource and itself read into the tape by the general scan, at their places in the line, and read
/// as `otlpRecords` reads one.
extension EventImporter {
    /// A record of the request being read: where it is, its resource (an index into the batch's
    /// resources), and the layout it matched with the first of its values in the batch (`RecordBatch`).
    struct BatchedRecord {
        var start: Int32
        var resource: Int32
        var layout: ExportLineLayouts.LayoutID?
        var values: Int32
    }

    /// What the records of one resource take from it (`ConventionPlan.takesResource`): its device, app
    /// version and OS version as the decoder takes them, when each is absent or a `stringValue`
    /// (`plannable`); else its records are read the general way, which says which is not.
    struct RecordResource {
        var plannable = false
        var device: FieldValue?
        var appVersion: FieldValue?
        var osVersion: FieldValue?

        /// Bytes of the values its records take from it.
        var valueBytes: Int {
            func bytes(_ value: FieldValue?) -> Int { value.map { Int($0.end &- $0.start) } ?? 0 }
            return bytes(device) &+ bytes(appVersion) &+ bytes(osVersion)
        }
    }

    /// Reads `line` record by record if it is a request of at least `minimumRecords` laid out as the
    /// type's comment says; returns false, having handed nothing over, for the general way to read it.
    func translateRecords(_ line: UnsafeRawBufferPointer, minimumRecords: Int, _ handle: (Int32, ImportedRecord) -> Bool) -> Bool {
        guard let raw = line.baseAddress, line.count < Int(Int32.max) else { return false }
        let batch = recordBatch
        batch.reset()
        guard frameRecords(line, raw.assumingMemoryBound(to: UInt8.self), batch) else { return false }
        lastRequestWasMany = batch.records.count > 1
        noteRecordsServed(records: batch.records.count, matched: batch.firstTryMatches)
        guard batch.records.count >= minimumRecords else { return false }
        handRecords(line, batch, handle)
        return true
    }

    // MARK: The first pass

    /// Reads the request's frame and matches its records (the first pass); false where the general way
    /// is to read the line.
    private func frameRecords(_ line: UnsafeRawBufferPointer, _ base: UnsafePointer<UInt8>, _ batch: RecordBatch) -> Bool {
        let count = line.count
        var p = 0
        @inline(__always) func next() -> UInt8? {
            p = JSONScanner.whitespaceEnd(base, from: p, end: count)
            return p < count ? base[p] : nil
        }
        @inline(__always) func take(_ byte: UInt8) -> Bool {
            guard next() == byte else { return false }
            p &+= 1
            return true
        }
        /// A key without escapes and its colon: its bytes, or nil.
        func key() -> ByteSlice? {
            guard next() == 0x22 else { return nil }
            var scanner = JSONScanner(base: base, count: count)
            scanner.pos = p &+ 1
            guard let escaped = try? scanner.scanStringBody(), !escaped else { return nil }
            let slice = ByteSlice(start: base + (p &+ 1), count: scanner.pos &- p &- 2)
            p = scanner.pos
            guard take(0x3A) else { return nil }
            _ = next()
            return slice
        }
        /// Any value, read by the general scan as deep as it stands.
        func value(depth: Int) -> Bool {
            guard next() != nil else { return false }
            recordTape.begin(line)
            guard let end = try? recordTape.appendValue(at: p, depth: depth) else { return false }
            p = end
            return true
        }
        /// The elements of an array, each read by `element`, after its `[`.
        func elements(_ element: () -> Bool) -> Bool {
            guard take(0x5B) else { return false }
            if next() == 0x5D {
                p &+= 1
                return true
            }
            while true {
                guard element() else { return false }
                if take(0x2C) { continue }
                return take(0x5D)
            }
        }
        /// The members of an object, each read by `member` after its key, after its `{`.
        func members(_ member: (ByteSlice) -> Bool) -> Bool {
            guard take(0x7B) else { return false }
            if next() == 0x7D {
                p &+= 1
                return true
            }
            while true {
                guard let key = key(), member(key) else { return false }
                if take(0x2C) { continue }
                return take(0x7D)
            }
        }
        // Depths as the general scan counts them: the line's object is 1 deep, a record 7.
        var sawResourceLogs = false
        let framed = members { key in
            guard key == "resourceLogs", !sawResourceLogs else { return false }
            sawResourceLogs = true
            return elements {
                let resource = Int32(batch.resources.count)
                batch.resources.append(-1)
                batch.resourceValues.append(RecordResource(plannable: true))
                var sawScopeLogs = false
                return members { key in
                    if key == "resource" {
                        guard batch.resources[Int(resource)] < 0 else { return false }
                        _ = next()
                        batch.resources[Int(resource)] = Int32(p)
                        guard value(depth: 3) else { return false }
                        batch.resourceValues[Int(resource)] = resourceInRecordTape()
                        return true
                    }
                    guard key == "scopeLogs" else { return value(depth: 3) }
                    guard !sawScopeLogs else { return false }
                    sawScopeLogs = true
                    return elements {
                        var sawRecords = false
                        return members { key in
                            guard key == "logRecords" else { return value(depth: 5) }
                            guard !sawRecords else { return false }
                            sawRecords = true
                            return elements {
                                _ = next()
                                guard let end = matchRecord(line, base, at: p, resource: resource, batch) else { return false }
                                p = end
                                return true
                            }
                        }
                    }
                }
            }
        }
        guard framed, !batch.resources.isEmpty else { return false }
        return next() == nil
    }

    /// Matches the record at `start` against the records' layouts (those its name's place keeps and
    /// the most recent; once the general scan told where it ends, those its keys place keeps), or
    /// reads it by the general scan and learns it (when its layout was seen before); notes it in
    /// `batch` and returns where it ends, or nil where it does not scan.
    private func matchRecord(
        _ line: UnsafeRawBufferPointer, _ base: UnsafePointer<UInt8>, at start: Int, resource: Int32, _ batch: RecordBatch
    ) -> Int? {
        let count = line.count
        let lead = recordLead(base, count: count, at: start)
        if let (hit, end) = batch.match(base, count: count, at: start, lead: lead, &recordLayouts) {
            batch.add(start: start, resource: resource, hit, recordLayouts)
            batch.firstTryMatches &+= 1
            return end
        }
        let rest = UnsafeRawBufferPointer(start: base + start, count: count &- start)
        guard let length = try? recordTape.readValue(rest, depth: 6) else { return nil }
        // Its layout may be kept where its keys place it (`ExportLineLayouts.learn` notes it there);
        // a record longer than any layout's line has none.
        if recordTape[0].kind == .object, length <= ExportLineLayouts.maxLineLength {
            let keys = ExportLineLayouts.keysPlace(base + start, count: length, attributeNames: true, besides: lead, nil)
            if let (hit, end) = batch.match(base, count: count, at: start, keys: keys, lead: lead, &recordLayouts),
               end == start &+ length {
                batch.add(start: start, resource: resource, hit, recordLayouts)
                return end
            }
        }
        // The record is then its new layout's line, matched at once for its values.
        if recordTape[0].kind == .object,
           recordLayouts.learnRepeated(recordTape, constantKeys: Self.layoutConstantKeys(.otlp), lead: lead) != nil,
           let (hit, end) = batch.match(base, count: count, at: start, lead: lead, &recordLayouts), end == start &+ length {
            batch.add(start: start, resource: resource, hit, recordLayouts)
        } else {
            batch.records.append(BatchedRecord(start: Int32(start), resource: resource, layout: nil, values: -1))
        }
        return start &+ length
    }

    /// The place among the layouts' `leadPlaces` of the record at `start`: by its event's name (its
    /// `eventName`, or its attribute `event.name`, whichever comes first), found within its first
    /// `recordNameReach` bytes (0 where it is not), so that records of one name try their layouts
    /// first. Which place a record takes changes only which layouts are tried first. Each key is
    /// looked for first where the last record held it (an exporter writes the members before it
    /// alike); else both are searched for, sixteen bytes at a time by their `N` and `.` (the
    /// OpenTelemetry Collector writes `eventName` last, after attributes of any length).
    func recordLead(_ base: UnsafePointer<UInt8>, count: Int, at start: Int) -> Int {
        let hintedMember = start &+ recordNameOffset
        if Self.holdsEventName(base, count: count, at: hintedMember) {
            return Self.recordNameLead(base, count: count, from: hintedMember &+ Self.eventNameKeyLength)
        }
        let hintedAttribute = start &+ recordAttributeNameOffset
        if Self.holdsNameAttribute(base, count: count, at: hintedAttribute) {
            return Self.recordNameLead(base, count: count, from: hintedAttribute &+ Self.nameAttributeKeyLength)
        }
        let reach = min(count, start &+ Self.recordNameReach)
        var i = start
        while i &+ 16 <= reach {
            let block = UnsafeRawPointer(base + i).loadUnaligned(as: SIMD16<UInt8>.self)
            var hits = JSONScanner.lanes(
                block .== SIMD16<UInt8>(repeating: 0x4E) .| block .== SIMD16<UInt8>(repeating: 0x2E))
            while hits != 0 {
                let at = i &+ hits.trailingZeroBitCount
                hits &= hits &- 1
                if base[at] == 0x4E {
                    let keyStart = at &- 6
                    guard keyStart >= start, Self.holdsEventName(base, count: count, at: keyStart) else { continue }
                    recordNameOffset = keyStart &- start
                    return Self.recordNameLead(base, count: count, from: keyStart &+ Self.eventNameKeyLength)
                }
                let keyStart = at &- 13
                guard keyStart >= start, Self.holdsNameAttribute(base, count: count, at: keyStart) else { continue }
                recordAttributeNameOffset = keyStart &- start
                return Self.recordNameLead(base, count: count, from: keyStart &+ Self.nameAttributeKeyLength)
            }
            i &+= 16
        }
        return 0
    }

    /// How far into a record `recordLead` looks for its name: past the members and attributes of a
    /// record of any of our events, and bounded, so that a record without a name (whose search may
    /// then find the next record's, a place like any other) costs a bounded search.
    static var recordNameReach: Int { 2048 }

    /// A record's place by its name alone: the bytes after `hig.` up to its closing quote, at most 16
    /// (`LineFingerprint.bytes`), not those after it, which for a name written last are the next
    /// record's or the request's closing brackets, so that a request's last record takes the place
    /// of the others of its layout.
    @inline(__always)
    private static func recordNameLead(_ base: UnsafePointer<UInt8>, count: Int, from name: Int) -> Int {
        let words = LineFingerprint.bytes(base, start: min(name &+ 4, count), limit: count)
        let key = (words.low ^ (words.high &<< 29 | words.high &>> 35)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: key &>> UInt64(64 &- ExportLineLayouts.leadPlaces.trailingZeroBitCount))
    }

    /// The name starting at `name` (its bytes after `hig.`, and a few after it when it is short: the
    /// same for names of one layout), read as two words folded into one; where fewer than 20 bytes
    /// follow `name` (a name written last), the line's last 16 bytes, the name's end and the brackets
    /// that close the request, instead. The line must be at least 16 bytes long.
    @inline(__always)
    private static func nameWord(_ base: UnsafePointer<UInt8>, count: Int, from name: Int) -> UInt64 {
        let start = name &+ 20 <= count ? name &+ 4 : count &- 16
        let raw = UnsafeRawPointer(base + start)
        let a = raw.loadUnaligned(as: UInt64.self)
        let b = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        return a ^ (b &<< 29 | b &>> 35)
    }

    /// The places among the layouts' `leadPlaces` of an OTLP line matched whole (a request of one
    /// record), where the line holds a record's event name (`eventName` or the attribute `event.name`,
    /// `otlpLineName`): first by its
    /// first bytes (`ExportLineLayouts.leadPlace`), the name, the quotes after it and which of its
    /// last bytes are quotes (`lastQuotes`); then by its first bytes and the quotes after the name
    /// alone. By its first bytes and quotes alone (as other formats' lines), the layouts of events
    /// whose attributes differ in keys but not in number (OTLP's attributes are alike but for their
    /// keys) crowded one place's few ways:
    /// lines of one of them were tried against the others, each try failing only at the first own
    /// attribute, deep in the line, and a layout pushed out of its place and out of the most recent
    /// was learned again. After the name, the quotes tell apart lines of one event whose attributes
    /// differ in kind (a coordinate an `intValue`, a string, or a `doubleValue`, a number), and the
    /// last bytes most of those whose kinds differ only in order (`x` an `intValue` and `y` a
    /// `doubleValue`, or the other way). The second place finds a layout new to the first (lines of
    /// several names laid out alike) where lines of the other names found it. nil for a line of
    /// another format, whose place `ExportLineLayouts.find` chooses; out of line, so that the other
    /// formats' `translate` stays as it was. Which places a line takes changes only which layouts are
    /// tried first.
    @inline(never)
    func otlpLinePlaces(_ line: UnsafeRawBufferPointer) -> (lead: Int, alternative: Int?)? {
        guard format == .otlp, let raw = line.baseAddress else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = line.count
        // `nameWord` and `lastQuotes` read the line's last 16 bytes.
        guard count >= 16, let name = otlpLineName(base, count: count) else {
            return (ExportLineLayouts.leadPlace(base, count: count, countsQuotes: true), nil)
        }
        // A name written last (`otlpLineName`'s tail) has the attributes before it: their quotes
        // are the line's.
        let counted = count &- name > Self.lineNameTail ? name : 0
        let after = ExportLineLayouts.quotes(base + counted, count: count &- counted)
        let salt = Self.nameWord(base, count: count, from: name) ^ (Self.lastQuotes(base, count: count) &* 0x94D0_49BB_1331_11EB)
        return (
            ExportLineLayouts.leadPlace(base, count: count, quotes: after, salt: salt),
            ExportLineLayouts.leadPlace(base, count: count, quotes: after))
    }

    /// The place among the layouts' `leadPlaces` of a PostHog line, by its event's name (the value of
    /// its `event` key, `nameWord`) alone, or nil where the key is not found (the line then takes
    /// `ExportLineLayouts.leadPlace`'s, by its first bytes). PostHog's batch exports write `uuid`
    /// first: by their first bytes, every line had a place of its own, and was tried against the
    /// most recent layouts in turn. The key is looked for first where the last line held it (what
    /// comes before it, a `uuid` or nothing, has one length), then among the line's last bytes, then
    /// in the whole line. Which place a line takes changes only which layouts are tried first.
    @inline(never)
    func postHogLinePlaces(_ line: UnsafeRawBufferPointer) -> (lead: Int, alternative: Int?)? {
        guard let raw = line.baseAddress, line.count >= 16 else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = line.count
        let key: StaticString = "\"event\":\""
        let keyLength = key.utf8CodeUnitCount
        let name: Int
        if Self.holds(key, base, count: count, at: postHogNameOffset) {
            name = postHogNameOffset &+ keyLength
        } else {
            let tail = max(0, count &- Self.lineNameTail)
            // The key's `v`, its third byte, found eight bytes at a time.
            guard let found = Self.find(key, marker: 2, base, count: count, from: tail)
                ?? (tail > 0 ? Self.find(key, marker: 2, base, count: count, from: 0) : nil)
            else { return nil }
            postHogNameOffset = found
            name = found &+ keyLength
        }
        return (ExportLineLayouts.namedPlace(Self.nameWord(base, count: count, from: name)), nil)
    }

    /// Whether the line holds `key` at `at`.
    @inline(__always)
    private static func holds(_ key: StaticString, _ base: UnsafePointer<UInt8>, count: Int, at: Int) -> Bool {
        let length = key.utf8CodeUnitCount
        return at >= 0 && at &+ length <= count && ByteComparison.equal(base + at, key.utf8Start, count: length)
    }

    /// Where the first `key` at or after `start` begins, by the byte at `marker` in it, eight bytes at
    /// a time.
    @inline(__always)
    private static func find(
        _ key: StaticString, marker: Int, _ base: UnsafePointer<UInt8>, count: Int, from start: Int
    ) -> Int? {
        let pattern = 0x0101_0101_0101_0101 &* UInt64(key.utf8Start[marker])
        let last = count &- 8
        var i = start
        while i <= last {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ pattern
            var hits = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            while hits != 0 {
                let keyStart = i &+ hits.trailingZeroBitCount &>> 3 &- marker
                hits &= hits &- 1
                if keyStart >= start, holds(key, base, count: count, at: keyStart) { return keyStart }
            }
            i &+= 8
        }
        return nil
    }

    /// Which of the last 12 bytes of a line of at least 16 are quotes, as a mask: whether its last
    /// value is a string (a request of one record ends in `}}]}]}]}]}` after its last value; a string
    /// ends in its quote, a number or a boolean does not).
    @inline(__always)
    private static func lastQuotes(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let block = UnsafeRawPointer(base + (count &- 16)).loadUnaligned(as: SIMD16<UInt8>.self)
        return UInt64(JSONScanner.lanes(block .== SIMD16<UInt8>(repeating: 0x22)) &>> 4)
    }

    /// Where the value of a line's event name begins (the record's `eventName`, or its attribute
    /// `event.name`: exporters write one or the other, some both), or nil where neither is found.
    /// Each key is looked for first where the last line held it (an exporter writes what comes
    /// before it alike for a device's lines), then among the line's last bytes from its end (the
    /// OpenTelemetry Collector writes `eventName` last, after attributes of any length: a few
    /// words from the end), the last of them there, then in the whole line, the first of them in
    /// line order. Where a line holds both, either serves: a place is only where its layouts are
    /// tried first, and a layout's lines find the same key the same way.
    @inline(__always)
    private func otlpLineName(_ base: UnsafePointer<UInt8>, count: Int) -> Int? {
        let hintedMember = lineEventNameOffset
        if Self.holdsEventName(base, count: count, at: hintedMember) { return hintedMember &+ Self.eventNameKeyLength }
        let hintedAttribute = lineNameOffset
        if Self.holdsNameAttribute(base, count: count, at: hintedAttribute) {
            return hintedAttribute &+ Self.nameAttributeKeyLength
        }
        let tail = max(0, count &- Self.lineNameTail)
        return findLastLineName(base, count: count, downTo: tail) ?? (tail > 0 ? findLineName(base, count: count, from: 0) : nil)
    }

    /// The last bytes of a line where `otlpLineName` looks for a name written last.
    static var lineNameTail: Int { 96 }

    private static var eventNameKey: StaticString { "\"eventName\":\"" }
    private static var eventNameKeyLength: Int { eventNameKey.utf8CodeUnitCount }
    private static var nameAttributeKey: StaticString { "{\"key\":\"event.name\",\"value\":{\"stringValue\":\"" }
    private static var nameAttributeKeyLength: Int { nameAttributeKey.utf8CodeUnitCount }

    @inline(__always)
    private static func holdsEventName(_ base: UnsafePointer<UInt8>, count: Int, at: Int) -> Bool {
        at >= 0 && at &+ eventNameKeyLength <= count
            && ByteComparison.equal(base + at, eventNameKey.utf8Start, count: eventNameKeyLength)
    }

    @inline(__always)
    private static func holdsNameAttribute(_ base: UnsafePointer<UInt8>, count: Int, at: Int) -> Bool {
        at >= 0 && at &+ nameAttributeKeyLength <= count
            && ByteComparison.equal(base + at, nameAttributeKey.utf8Start, count: nameAttributeKeyLength)
    }

    /// `otlpLineName`'s search of a line's last bytes: the last key of the two whose marker lies at
    /// `floor` or after, found eight bytes at a time from the line's end and noted as the hint for the
    /// next line. The markers are `eventName`'s `N` and, nearer the name than its `.`, the attribute's
    /// `V` (of `stringValue`, its 37th byte). Lines of at least 8 bytes.
    @inline(__always)
    private func findLastLineName(_ base: UnsafePointer<UInt8>, count: Int, downTo floor: Int) -> Int? {
        var i = count &- 8
        while true {
            var hits = Self.places(of: 0x56, or: 0x4E, in: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            while hits != 0 {
                let lane = (63 &- hits.leadingZeroBitCount) &>> 3
                hits &= ~(0x80 &<< UInt64(lane &* 8))
                let at = i &+ lane
                if base[at] == 0x4E {
                    let keyStart = at &- 6
                    guard Self.holdsEventName(base, count: count, at: keyStart) else { continue }
                    lineEventNameOffset = keyStart
                    return keyStart &+ Self.eventNameKeyLength
                }
                guard base[at] == 0x56 else { continue }
                let keyStart = at &- 36
                guard Self.holdsNameAttribute(base, count: count, at: keyStart) else { continue }
                lineNameOffset = keyStart
                return keyStart &+ Self.nameAttributeKeyLength
            }
            guard i > floor else { return nil }
            // The last word read from `floor` may repeat places already looked at, which failed.
            i = max(floor, i &- 8)
        }
    }

    /// The top bit of each byte of `word` (lowest first) that is `a` or `b`. Exact from the lowest byte
    /// up to the first such byte (a borrow runs upwards only); bytes after it may be flagged falsely,
    /// so each flag is checked against the line's byte.
    @inline(__always)
    private static func places(of a: UInt8, or b: UInt8, in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let isA = word ^ (ones &* UInt64(a))
        let isB = word ^ (ones &* UInt64(b))
        return ((isA &- ones) & ~isA | (isB &- ones) & ~isB) & 0x8080_8080_8080_8080
    }

    /// `otlpLineName`'s search from `start`: the first key of the two that begins there or after,
    /// noted as the hint for the next line. The `N` of `eventName` is its seventh byte, the `.` of
    /// `event.name` its attribute's fourteenth: both found eight bytes at a time, in line order.
    @inline(__always)
    private func findLineName(_ base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int? {
        let last = count &- 8
        var i = start
        while i <= last {
            var hits = Self.places(of: 0x2E, or: 0x4E, in: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            while hits != 0 {
                let at = i &+ hits.trailingZeroBitCount &>> 3
                hits &= hits &- 1
                if base[at] == 0x4E {
                    let keyStart = at &- 6
                    guard keyStart >= start, Self.holdsEventName(base, count: count, at: keyStart) else { continue }
                    lineEventNameOffset = keyStart
                    return keyStart &+ Self.eventNameKeyLength
                }
                let keyStart = at &- 13
                guard keyStart >= start, Self.holdsNameAttribute(base, count: count, at: keyStart) else { continue }
                lineNameOffset = keyStart
                return keyStart &+ Self.nameAttributeKeyLength
            }
            i &+= 8
        }
        return nil
    }

    // MARK: The second pass

    /// Hands over the records the first pass found, in order, numbered from 1.
    private func handRecords(_ line: UnsafeRawBufferPointer, _ batch: RecordBatch, _ handle: (Int32, ImportedRecord) -> Bool) {
        lineLayout = nil
        lineStamp &+= 1
        let planning = readsPlans
        let measuresRecords = Self.mayPassLineLimit(sourceBytes: sourceBytes)
        var resource: Int32 = -1
        for index in batch.records.indices {
            let record = batch.records[index]
            let position = Int32(truncatingIfNeeded: index &+ 1)
            if record.resource != resource {
                resource = record.resource
                recordResource = batch.resourceValues[Int(resource)]
            }
            if measuresRecords {
                // Up to the next record's first byte, or the line's end: a bound of the record's bytes.
                let end = index &+ 1 < batch.records.count ? Int(batch.records[index &+ 1].start) : line.count
                sourceBytes = end &- Int(record.start) &+ recordResource.valueBytes
            }
            if planning, recordResource.plannable, let layout = record.layout, let plan = recordPlans.kept(for: layout),
               serves(plan), preparePlanned(line, batch.values(record), plan, lineStamp: lineStamp) {
                handPlanned(record: position, handle)
                continue
            }
            readRecord(line, record, resourceAt: batch.resources[Int(resource)], position: position, handle)
        }
    }

    /// The resource the first pass just read into `recordTape` (its only value), for its records
    /// (`recordResource`): read where the first pass scanned it, not scanned again.
    private func resourceInRecordTape() -> RecordResource {
        // The lookups read `tape`: the two tapes trade places for them (plain values, nothing retained).
        swap(&tape, &recordTape)
        defer { swap(&tape, &recordTape) }
        let known = knownAttributes(tape.member(0, "attributes"))
        do throws(ImportProblem) {
            func value(_ index: Int?) -> FieldValue? {
                index.map { FieldValue(kind: .string, flag: tape[$0].flag, start: tape[$0].start, end: tape[$0].end) }
            }
            let device = try attributeString(known.deviceId, "device.id")
            let appVersion = try attributeString(known.serviceVersion, "service.version")
            let osVersion = try attributeString(known.osVersion, "os.version")
            return RecordResource(plannable: true, device: value(device), appVersion: value(appVersion), osVersion: value(osVersion))
        } catch {
            // Its records are read the general way, which finds the problem.
            return RecordResource()
        }
    }

    /// Starts the tape with the resource at `start` (-1: none) as its first value; returns its known
    /// attributes, as `otlpPlaces` finds them.
    private func resourceIntoTape(_ line: UnsafeRawBufferPointer, at start: Int32) -> KnownAttributes {
        tape.begin(line)
        guard start >= 0 else { return KnownAttributes() }
        guard (try? tape.appendValue(at: Int(start), depth: 3)) != nil else {
            assertionFailure("a resource the first pass scanned does not scan")
            return KnownAttributes()
        }
        return knownAttributes(tape.member(0, "attributes"))
    }

    /// Reads one record the general way, after its resource, into the tape, and hands it over as
    /// `otlpRecords` does; a convention event plans the record's layout.
    private func readRecord(
        _ line: UnsafeRawBufferPointer, _ record: BatchedRecord, resourceAt resourceStart: Int32, position: Int32,
        _ handle: (Int32, ImportedRecord) -> Bool
    ) {
        let resource = resourceIntoTape(line, at: resourceStart)
        let entry = tape.entryCount
        guard (try? tape.appendValue(at: Int(record.start), depth: 6)) != nil else {
            // The first pass scanned it, so this cannot happen; were it to, the record is counted, not lost.
            assertionFailure("a record the first pass scanned does not scan")
            _ = handle(position, .malformed(MalformedLine(reason: "the log record could not be read again")))
            return
        }
        assembly.startLine(line, stamp: lineStamp)
        let (places, fields) = recordPlaces(entry, resource: resource)
        if Self.mayPassLineLimit(sourceBytes: sourceBytes) { sourceBytes = recordSourceBytes(places.record, resource) }
        withUnsafePointer(to: fields) { fields in
            otlpRecordFields = places.attributes.map { ($0, places.record, fields) }
            defer { otlpRecordFields = nil }
            let judged = withUnsafePointer(to: places) { otlpRecord($0) }
            if let layout = record.layout, recordResource.plannable, case .mapped(.convention, let envelope, let fields) = judged {
                planOTLPRecord(
                    PlanTarget(layouts: recordLayouts, layout: layout, plans: recordPlans, firstEntry: entry, takesResource: true),
                    places, envelope, fields)
            }
            emit(record: position, judged, handle)
        }
    }
}

/// The records and resources of the request being read record by record (`EventImporter
/// .translateRecords`), and the values each record's match noted, copied out of the match: reused
/// from line to line.
final class RecordBatch {
    var records: [EventImporter.BatchedRecord] = []
    /// Each resource's value's first byte in the line, -1 where a `resourceLogs` element has none.
    var resources: [Int32] = []
    /// Beside `resources`, what each one gives its records.
    var resourceValues: [EventImporter.RecordResource] = []
    /// How many of `records` a layout matched at the first try (`EventImporter.noteRecordsServed`).
    var firstTryMatches = 0
    /// Per matched record, from its `values`: its slots' values, and its shifts (one more).
    private var found: UnsafeMutablePointer<ExportLineLayouts.FoundValue>
    private var shifts: UnsafeMutablePointer<Int32>
    private var capacity = 4096
    private var used = 0

    init() {
        found = .allocate(capacity: capacity)
        shifts = .allocate(capacity: capacity)
    }

    deinit {
        found.deallocate()
        shifts.deallocate()
    }

    func reset() {
        records.removeAll(keepingCapacity: true)
        resources.removeAll(keepingCapacity: true)
        resourceValues.removeAll(keepingCapacity: true)
        firstTryMatches = 0
        used = 0
    }

    /// `layouts.findValue`, its values noted in the batch's next room: kept by `add`, or overwritten
    /// by the next match.
    func match(
        _ line: UnsafePointer<UInt8>, count: Int, at start: Int, lead: Int, _ layouts: inout ExportLineLayouts
    ) -> (hit: ExportLineLayouts.Hit, end: Int)? {
        let room = ExportLineLayouts.maxEntries &+ 1
        if used &+ room > capacity { grow(to: used &+ room) }
        return layouts.findValue(line, count: count, at: start, lead: lead, found: found + used, shifts: shifts + used)
    }

    /// `match` among the layouts the place `keys` keeps (`ExportLineLayouts.findValue(_:count:at:keys:lead:found:shifts:)`).
    func match(
        _ line: UnsafePointer<UInt8>, count: Int, at start: Int, keys: Int, lead: Int, _ layouts: inout ExportLineLayouts
    ) -> (hit: ExportLineLayouts.Hit, end: Int)? {
        let room = ExportLineLayouts.maxEntries &+ 1
        if used &+ room > capacity { grow(to: used &+ room) }
        return layouts.findValue(line, count: count, at: start, keys: keys, lead: lead, found: found + used, shifts: shifts + used)
    }

    /// Notes the record at `start` that matched `hit` just now (`match`), with its values.
    func add(start: Int, resource: Int32, _ hit: ExportLineLayouts.Hit, _ layouts: ExportLineLayouts) {
        let slots = layouts.slotCount(hit)
        records.append(EventImporter.BatchedRecord(
            start: Int32(truncatingIfNeeded: start), resource: resource, layout: hit.layout, values: Int32(truncatingIfNeeded: used)))
        used &+= slots &+ 1
    }

    /// The values `record`'s match noted.
    func values(_ record: EventImporter.BatchedRecord) -> ExportLineLayouts.MatchedValues {
        ExportLineLayouts.MatchedValues(found: found + Int(record.values), shifts: shifts + Int(record.values))
    }

    private func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let largerFound = UnsafeMutablePointer<ExportLineLayouts.FoundValue>.allocate(capacity: grown)
        largerFound.update(from: found, count: used)
        found.deallocate()
        found = largerFound
        let largerShifts = UnsafeMutablePointer<Int32>.allocate(capacity: grown)
        largerShifts.update(from: shifts, count: used)
        shifts.deallocate()
        shifts = largerShifts
        capacity = grown
    }
}
