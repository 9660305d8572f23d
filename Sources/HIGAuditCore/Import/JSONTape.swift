/// One line of another tool's JSON, validated (RFC 8259, as `JSONScanner` checks ours) and laid out
/// as a flat list of values, so that an importer can look up the few members it maps without building
/// Swift dictionaries: the list is reused from line to line, and no value is copied until it is written.
///
/// An object is its own entry followed by its members, each a key entry (a string) and then the value's
/// entries; `after` is the index just past a value's last entry, so a lookup steps over whole members.
///
/// The entries live in one buffer allocated once, not in a Swift array: appending to an array checked
/// its capacity and uniqueness at every value, costs the profile showed on every entry.
struct JSONTape {
    enum Kind: UInt8 { case object, array, string, number, bool, null }

    struct Entry: Equatable {
        var kind: Kind
        /// Strings: whether the bytes hold escapes. Numbers: whether the literal is an integer.
        /// Booleans: the value.
        var flag: Bool
        /// Byte range of the value in the line; for a string, inside its quotes.
        var start: Int32
        var end: Int32
        /// The index just past this value and everything inside it.
        var after: Int32
    }

    /// The entries' memory: allocated once, grown for a line with more values than any before, freed
    /// by the tape's owner (`deallocate`). A raw pointer, not a class, so that the tape is a plain
    /// value: reading a member of the importer's tape retained and released nothing.
    private(set) var entries: UnsafeMutablePointer<Entry>
    /// Beside `entries`, per number entry: its value as `JSONNumber.scan` read it, by the general scan
    /// (`read`, `appendValue`) or a layout's match (`fill`), NaN where the scan gave none; what other
    /// entries hold there is not read.
    ///
    /// Why the general scan keeps them: the importer asks for a value again (a double checked finite,
    /// then handed to the decoder), and a literal read again alone has no 16 bytes after it to read
    /// it by words.
    private var numberValues: UnsafeMutablePointer<Double>
    /// Whether `numberValues` holds the current line's numbers: false only before a line is taken.
    private var holdsNumberValues = false
    private var capacity: Int
    /// Entries of the current line.
    private(set) var entryCount = 0
    /// The stamp of the layout match that wrote the entries (`fill`, `refill`), or 0 when `read` read
    /// the line: `ExportLineLayouts` rewrites only what differs when it holds that layout's last line.
    private(set) var filledBy = 0
    private(set) var base: UnsafePointer<UInt8>? = nil
    private(set) var count = 0

    init() {
        capacity = 256
        entries = .allocate(capacity: capacity)
        numberValues = .allocate(capacity: capacity)
    }

    /// Frees the entries; the tape is not used again.
    func deallocate() {
        entries.deallocate()
        numberValues.deallocate()
    }

    @inline(__always)
    private mutating func append(_ entry: Entry) {
        if entryCount == capacity { growBuffer() }
        entries[entryCount] = entry
        entryCount &+= 1
    }

    @inline(never)
    private mutating func growBuffer() {
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: entries, count: entryCount)
        entries.deallocate()
        entries = grown
        // The general scan grows the buffers while it writes a line's entries and values.
        let grownValues = UnsafeMutablePointer<Double>.allocate(capacity: capacity * 2)
        grownValues.moveInitialize(from: numberValues, count: entryCount)
        numberValues.deallocate()
        numberValues = grownValues
        capacity *= 2
    }

    /// Reads `line` (valid only until the next call); throws what makes it malformed.
    mutating func read(_ line: UnsafeRawBufferPointer) throws(MalformedLine) {
        entryCount = 0
        holdsNumberValues = true
        filledBy = 0
        guard let raw = line.baseAddress, line.count > 0 else {
            base = nil
            count = 0
            throw MalformedLine(reason: "the line is empty")
        }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        base = bytes
        count = line.count
        guard line.count < Int(Int32.max) else { throw MalformedLine(reason: "the line is 2 GiB long or longer") }
        var scanner = JSONScanner(base: bytes, count: line.count)
        scanner.skipWhitespace()
        guard scanner.pos < scanner.end, bytes[scanner.pos] == 0x7B else {
            throw MalformedLine(reason: "the line is not a JSON object", column: scanner.pos)
        }
        try value(&scanner, depth: 0)
        scanner.skipWhitespace()
        guard scanner.pos == scanner.end else {
            throw MalformedLine(reason: "text after the JSON object", column: scanner.pos)
        }
    }

    /// Starts a tape of values of `line` read one at a time (`appendValue`), not of the whole line: an
    /// OTLP request's resource and one of its records (`EventImporter.translateRecords`). Entries are
    /// placed in the line as `read` places them.
    mutating func begin(_ line: UnsafeRawBufferPointer) {
        entryCount = 0
        holdsNumberValues = true
        filledBy = 0
        base = line.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = line.count
    }

    /// Reads the value whose first byte is at `start` (`begin`'s line), as `read` reads a value found
    /// `depth` containers deep, and appends its entries; returns the place just past it. Throws what
    /// makes it malformed (`read` of the whole line would throw too, maybe elsewhere first).
    mutating func appendValue(at start: Int, depth: Int) throws(MalformedLine) -> Int {
        guard let base else { throw MalformedLine(reason: "the line is empty") }
        guard count < Int(Int32.max) else { throw MalformedLine(reason: "the line is 2 GiB long or longer") }
        var scanner = JSONScanner(base: base, count: count)
        scanner.pos = start
        try value(&scanner, depth: depth)
        return scanner.pos
    }

    // MARK: Entries written by a reader that knows where a line keeps what it reads

    // `EventImporter.OTLPRequestReader` reads a line as `read` does, in the same order, and writes the
    // same entries through these (`appendString` for the strings it reads itself); the other values
    // it does not look into it hands to `appendValue(_:depth:)`.

    /// Appends the entries of the value at `s.pos`, found `depth` containers deep, as `read` would,
    /// and leaves `s` just past it.
    mutating func appendValue(_ s: inout JSONScanner, depth: Int) throws(MalformedLine) {
        try value(&s, depth: depth)
    }

    /// Appends the entry of a container whose opening byte is at `start`; `close` completes it.
    @inline(__always)
    mutating func open(object: Bool, at start: Int) -> Int {
        let index = entryCount
        append(.container(object: object, at: start))
        return index
    }

    /// Completes the container entry at `index`, whose closing byte is just before `end`.
    @inline(__always)
    mutating func close(_ index: Int, end: Int) {
        entries[index].end = Self.place(end)
        entries[index].after = Self.place(entryCount)
    }

    /// Room for `count` more entries, which the caller writes (`Entry.container`, `Entry.plainString`)
    /// and then counts in (`commit`): one check of the room for a run of entries whose places are known.
    @inline(__always)
    mutating func reserve(_ count: Int) -> UnsafeMutablePointer<Entry> {
        while entryCount &+ count > capacity { growBuffer() }
        return entries + entryCount
    }

    /// Counts in `count` entries written into `reserve`'s room.
    @inline(__always)
    mutating func commit(_ count: Int) {
        entryCount &+= count
    }

    /// Forgets the entries from the `count`th on: a reader that tried a way of reading a value and
    /// left it for another.
    @inline(__always)
    mutating func truncate(to count: Int) {
        entryCount = count
    }

    /// Appends a string's entry, its bytes from `start` to `end` (inside its quotes).
    @inline(__always)
    mutating func appendString(from start: Int, to end: Int, escaped: Bool) {
        appendScalar(.string, flag: escaped, from: start, to: end)
    }

    /// Reads the value at the start of `bytes` alone (`depth` containers deep), its entries placed from
    /// its own first byte, and takes it as the tape's text: what a layout learns from
    /// (`ExportLineLayouts.learn`). Returns its length.
    mutating func readValue(_ bytes: UnsafeRawBufferPointer, depth: Int) throws(MalformedLine) -> Int {
        begin(bytes)
        let end = try appendValue(at: 0, depth: depth)
        count = end
        return end
    }

    /// Takes `line` with entries copied from `template` (a learned layout's) and then adjusted by
    /// `adjust` (`ExportLineLayouts.match`): what `read` would note for a line that matches it.
    /// `adjust` also writes the value of every number entry (`knownNumber`).
    /// `stamp` names the match (`filledBy`).
    mutating func fill(
        line: UnsafePointer<UInt8>, count: Int, template: UnsafePointer<Entry>, entryCount: Int, stamp: Int,
        _ adjust: (_ entries: UnsafeMutablePointer<Entry>, _ numbers: UnsafeMutablePointer<Double>) -> Void
    ) {
        self.entryCount = 0
        while capacity < entryCount { growBuffer() }
        entries.update(from: template, count: entryCount)
        adjust(entries, numberValues)
        holdsNumberValues = true
        self.entryCount = entryCount
        base = line
        self.count = count
        filledBy = stamp
    }

    /// Takes `line` with the entries and number values held (a `fill` of the same layout, stamped
    /// `filledBy`) rewritten by `adjust` where they differ: what `fill` would give.
    mutating func refill(
        line: UnsafePointer<UInt8>, count: Int, stamp: Int,
        _ adjust: (_ entries: UnsafeMutablePointer<Entry>, _ numbers: UnsafeMutablePointer<Double>) -> Void
    ) {
        adjust(entries, numberValues)
        base = line
        self.count = count
        filledBy = stamp
    }

    /// A place in the line (or a count of entries, fewer than its bytes) as an entry keeps it: lines
    /// are shorter than 2 GiB (`read`, `appendValue`), so it is kept whole, and not checked again.
    @inline(__always)
    private static func place(_ value: Int) -> Int32 { Int32(truncatingIfNeeded: value) }

    /// Appends a value that holds no other (its entry's `after` is the next entry).
    @inline(__always)
    private mutating func appendScalar(_ kind: Kind, flag: Bool, from start: Int, to end: Int) {
        append(Entry(kind: kind, flag: flag, start: Self.place(start), end: Self.place(end), after: Self.place(entryCount &+ 1)))
    }

    private mutating func value(_ s: inout JSONScanner, depth: Int) throws(MalformedLine) {
        guard s.pos < s.end else { throw MalformedLine(reason: "the line ends inside a value", column: s.pos) }
        let start = s.pos
        switch s.base[s.pos] {
        case 0x22:
            try string(&s)
        case 0x7B:
            try container(&s, depth: depth + 1, object: true)
        case 0x5B:
            try container(&s, depth: depth + 1, object: false)
        case 0x74:
            try s.scanLiteral("true")
            appendScalar(.bool, flag: true, from: start, to: s.pos)
        case 0x66:
            try s.scanLiteral("false")
            appendScalar(.bool, flag: false, from: start, to: s.pos)
        case 0x6E:
            try s.scanLiteral("null")
            appendScalar(.null, flag: false, from: start, to: s.pos)
        case 0x2D, 0x30...0x39:
            var number = Double.nan
            let integer = try s.scanNumber(value: &number)
            appendScalar(.number, flag: integer, from: start, to: s.pos)
            numberValues[entryCount &- 1] = number
        default:
            throw MalformedLine(reason: "unexpected character in a JSON value", column: s.pos)
        }
    }

    /// The string whose opening quote is at `s.pos`. Inlined where keys and values are read: most
    /// of a line's values are strings, and half its entries keys.
    @inline(__always)
    private mutating func string(_ s: inout JSONScanner) throws(MalformedLine) {
        let start = s.pos
        s.pos &+= 1
        let escaped = try s.scanStringBody()
        appendScalar(.string, flag: escaped, from: start &+ 1, to: s.pos &- 1)
    }

    private mutating func container(_ s: inout JSONScanner, depth: Int, object: Bool) throws(MalformedLine) {
        guard depth <= JSONScanner.maxNestingDepth else {
            throw MalformedLine(reason: "JSON nested deeper than \(JSONScanner.maxNestingDepth) levels", column: s.pos)
        }
        let index = entryCount
        let start = s.pos
        append(Entry(kind: object ? .object : .array, flag: false, start: Self.place(start), end: 0, after: 0))
        let close: UInt8 = object ? 0x7D : 0x5D
        s.pos &+= 1
        s.skipWhitespace()
        if s.pos < s.end, s.base[s.pos] == close {
            s.pos &+= 1
        } else {
            while true {
                if object {
                    guard s.pos < s.end, s.base[s.pos] == 0x22 else {
                        throw MalformedLine(reason: "expected a quoted key in a JSON object", column: s.pos)
                    }
                    try string(&s)
                    try s.expectColon()
                }
                if s.pos < s.end, s.base[s.pos] == 0x22 {
                    try string(&s)
                } else {
                    try value(&s, depth: depth)
                }
                s.skipWhitespace()
                guard s.pos < s.end else { throw MalformedLine(reason: "the line ends inside a JSON value", column: s.pos) }
                if s.base[s.pos] == 0x2C {
                    s.pos &+= 1
                    s.skipWhitespace()
                } else if s.base[s.pos] == close {
                    s.pos &+= 1
                    break
                } else {
                    throw MalformedLine(reason: "expected , or \(object ? "}" : "]") in JSON", column: s.pos)
                }
            }
        }
        entries[index].end = Self.place(s.pos)
        entries[index].after = Self.place(entryCount)
    }

    // MARK: Lookups

    subscript(_ index: Int) -> Entry {
        precondition(index >= 0 && index < entryCount, "a tape entry past the line's")
        return entries[index]
    }

    /// The value of the member `key` of the object at `object`, or nil (also when `object` is not one).
    func member(_ object: Int, _ key: StaticString) -> Int? {
        guard object < entryCount, entries[object].kind == .object else { return nil }
        var i = object &+ 1
        let end = Int(entries[object].after)
        while i < end {
            if keyEquals(i, key) { return i &+ 1 }
            i = Int(entries[i &+ 1].after)
        }
        return nil
    }

    /// `member` along a path of keys.
    func member(_ object: Int, _ first: StaticString, _ second: StaticString) -> Int? {
        member(object, first).flatMap { member($0, second) }
    }

    /// Calls `body` with each member's key entry and value entry of the object at `object`.
    func forEachMember(_ object: Int, _ body: (_ key: Int, _ value: Int) -> Void) {
        guard object < entryCount, entries[object].kind == .object else { return }
        var i = object + 1
        let end = Int(entries[object].after)
        while i < end {
            body(i, i + 1)
            i = Int(entries[i + 1].after)
        }
    }

    /// Calls `body` with each element of the array at `array`, and its 1-based position.
    func forEachElement(_ array: Int, _ body: (_ position: Int, _ element: Int) -> Void) {
        guard array < entryCount, entries[array].kind == .array else { return }
        var i = array + 1
        var position = 1
        let end = Int(entries[array].after)
        while i < end {
            body(position, i)
            position += 1
            i = Int(entries[i].after)
        }
    }

    /// Whether the key at `index` is `key`. Inlined: looking a member up by its key (`member`) asks it
    /// of every key before, most of them of another length.
    @inline(__always)
    func keyEquals(_ index: Int, _ key: StaticString) -> Bool {
        let entry = entries[index]
        if entry.flag { return escapedKeyEquals(index, key) }
        let length = Int(entry.end &- entry.start)
        guard length == key.utf8CodeUnitCount, let base else { return false }
        return ByteComparison.equal(base + Int(entry.start), key.utf8Start, count: length)
    }

    @inline(never)
    private func escapedKeyEquals(_ index: Int, _ key: StaticString) -> Bool {
        string(index) == key.description
    }

    /// Whether the string at `index` starts with `prefix` (raw bytes; prefixes are plain ASCII).
    func hasPrefix(_ index: Int, _ prefix: StaticString) -> Bool {
        let entry = entries[index]
        let length = Int(entry.end - entry.start)
        guard entry.kind == .string, length >= prefix.utf8CodeUnitCount, let base else { return false }
        return ByteComparison.equal(base + Int(entry.start), prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    }

    /// Whether the string at `index`, unescaped, equals `literal` (plain ASCII) as `String`s compare:
    /// by its bytes when they are plain ASCII (where that comparison is byte equality), else as
    /// `string(index) == literal`, so that no `String` is made for most values.
    func stringEquals(_ index: Int, _ literal: StaticString) -> Bool {
        let entry = entries[index]
        guard let base else { return false }
        let length = Int(entry.end - entry.start)
        if !entry.flag {
            if length == literal.utf8CodeUnitCount,
               ByteComparison.equal(base + Int(entry.start), literal.utf8Start, count: length) { return true }
            var ascii = true
            for i in Int(entry.start)..<Int(entry.end) where base[i] >= 0x80 {
                ascii = false
                break
            }
            if ascii { return false }
        }
        return string(index) == literal.description
    }

    /// The string at `index`, unescaped.
    func string(_ index: Int) -> String {
        guard let base else { return "" }
        return Self.string(entries[index], in: base)
    }

    /// The string of `entry` in the line at `base`, unescaped: also for a value a layout's match found
    /// (`ConventionPlan`), which no tape holds.
    static func string(_ entry: Entry, in base: UnsafePointer<UInt8>) -> String {
        if entry.flag { return JSONStringUnescaper.string(base: base, start: Int(entry.start), end: Int(entry.end)) }
        return String(decoding: UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end - entry.start)), as: UTF8.self)
    }

    /// The raw bytes of the value at `index` as they stand in the line (a string's without its quotes).
    func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        return UnsafeBufferPointer(start: base! + Int(entry.start), count: Int(entry.end - entry.start))
    }

    /// The value of the number at `index` as `JSONNumber.scan` read it (by the general scan or a
    /// layout's match), or NaN where the scan left the value to the standard library: what the
    /// decoder's numbers table takes, NaN having it read the literal itself (`FieldTableWriter.assign`'s `number`).
    @inline(__always)
    func knownNumber(_ index: Int) -> Double {
        holdsNumberValues ? numberValues[index] : .nan
    }

    /// The number at `index` as a `Double` (infinite when the literal is out of range).
    func double(_ index: Int) -> Double {
        let known = knownNumber(index)
        if !known.isNaN { return known }
        let entry = entries[index]
        return JSONNumber.double(ByteSlice(start: base! + Int(entry.start), count: Int(entry.end - entry.start)))
    }

    /// An integer written as a JSON integer or as a string of decimal digits (OTLP/JSON's 64-bit
    /// integers), or nil.
    func integer(_ index: Int) -> Int64? {
        guard let base else { return nil }
        return Self.integer(entries[index], known: knownNumber(index), in: base)
    }

    /// `integer` of `entry` in the line at `base`, `known` being its number as a match read it (NaN
    /// when none did): also for a value a layout's match found (`ConventionPlan`), which no tape holds.
    static func integer(_ entry: Entry, known: Double, in base: UnsafePointer<UInt8>) -> Int64? {
        switch entry.kind {
        case .number where entry.flag:
            // A value a layout's match read (`knownNumber`) below 2^53 is the integer itself: an integer
            // literal rounds to one at or past 2^53 when it is there itself. NaN fails the comparison.
            if known.magnitude < 9_007_199_254_740_992 { return Int64(known) }
            return JSONNumber.int64(ByteSlice(start: base + Int(entry.start), count: Int(entry.end - entry.start)))
        case .string where !entry.flag:
            let length = Int(entry.end - entry.start)
            guard length > 0, length <= 19 else { return nil }
            // Eighteen digits are below 2^63; a nineteenth may take the value past it (a string, not
            // an integer: nil, as any other string that is none).
            let digits = base + Int(entry.start)
            let whole = min(length, 18)
            var value: UInt64 = 0
            var i = 0
            // Eight digits a step, as the number reader reads them (OTLP's nanoseconds are 19 digits
            // long), then one at a time.
            while whole &- i >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(digits + i).loadUnaligned(as: UInt64.self))
                guard JSONNumber.digitRun(word) == 8 else { return nil }
                value = value &* 100_000_000 &+ JSONNumber.digitsValue(word, count: 8)
                i &+= 8
            }
            while i < whole {
                let digit = digits[i] &- 0x30
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
                i &+= 1
            }
            if length == 19 {
                let digit = digits[18] &- 0x30
                guard digit < 10 else { return nil }
                let (times10, over) = value.multipliedReportingOverflow(by: 10)
                let (whole, carried) = times10.addingReportingOverflow(UInt64(digit))
                guard !over, !carried, whole <= UInt64(Int64.max) else { return nil }
                value = whole
            }
            return Int64(value)
        default:
            return nil
        }
    }
}

extension JSONTape.Entry {
    /// The entry of a container whose opening byte is at `start`, before `JSONTape.close` completes it.
    @inline(__always)
    static func container(object: Bool, at start: Int) -> Self {
        Self(kind: object ? .object : .array, flag: false, start: Int32(truncatingIfNeeded: start), end: 0, after: 0)
    }

    /// The entry, the `index`th, of a string without escapes whose bytes are from `start` to `end`.
    @inline(__always)
    static func plainString(from start: Int, to end: Int, at index: Int) -> Self {
        Self(
            kind: .string, flag: false, start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end),
            after: Int32(truncatingIfNeeded: index &+ 1))
    }
}
