/// Turns one NDJSON line into a typed `Event`, or says precisely why it cannot (SPEC §2).
///
/// This is the hot path of every run, so it makes one pass over the bytes that both validates the
/// whole line as strict RFC 8259 JSON (also inside unknown fields it otherwise skips) and notes where
/// each known field's value sits; only then does it build the few `String`s the event keeps. Most
/// lines skip even that pass: laid out like an earlier line of their type (`LineShapes`), they are
/// compared with it, and only the values that change are read.
///
/// Checks, in order: JSON validity → `ts`, `session`, `type` and the optional common fields → unknown
/// `type` (`.unknownType`) → the type's own fields. Choices where the SPEC is silent:
/// - `null` for an optional field (or one with a default) counts as absent; `null` for a required field
///   is malformed.
/// - A key the event's type reads (common fields included) appearing twice is malformed ("duplicate
///   key"); duplicates of keys it ignores are fine.
/// - For `loading.start`/`loading.end`, `id` is the loading operation's id (required) and goes into the
///   payload only; `Event.id` stays nil so that a `loading.end` is not taken for a retried copy of its
///   `loading.start`.
/// - Lines longer than 1 MiB are malformed without being scanned; containers nested deeper than 512
///   levels are malformed.
/// - `\u0000` is valid JSON and accepted where it is skipped; a text the event keeps (or an unknown
///   `type`'s name) holding it is malformed (`textWithNull`). Lone or inverted surrogate escapes are
///   malformed.
/// - Keys are compared after unescaping, byte for byte (no Unicode normalisation): `"t\u0073"` is `ts`.
///   So are the text values that identify things: session ids and event ids (see `CompactText`).
/// - `ts` as a number must be an integer that fits `Int64` (no fraction, no exponent, even `1.0`);
///   RFC 3339 details (leap second, truncation) are in `TimestampParser`.
/// - A number too large for a `Double` (`x`, `y`, `duration_ms`, `load_ms`: `1e999`) makes the line
///   malformed: it measures nothing, and a rule would report it as "inf ms". So does a negative
///   `duration_ms` or `load_ms`: a time that went backwards is a broken writer, not a short haptic.
///
/// Keep one decoder per reading loop: it remembers the shapes of recent lines, the last value of each
/// field and the last timestamp's minute to skip repeated work. Results never depend on what it
/// remembers.
public struct EventDecoder: Sendable {
    /// SPEC §2: a longer line is malformed.
    public static let maxLineLength = 1 << 20

    /// Where the scan notes the known fields; reused from line to line so decoding allocates nothing
    /// of its own. Not private: an importer's events fill it too (`mapFields`, MappedFields.swift).
    var table: FieldTable
    /// Whether lines are matched against the shapes of earlier lines (`LineShapes`) before the general
    /// scan; off only in tests that compare the two ways.
    let learnsLineShapes: Bool

    /// The sampled re-check of fast-path results against the strict decoder; nil when off.
    public private(set) var verification: FastPathVerification?

    /// Set when the run reads another tool's export (`--from`, SPEC §7): each event's fields are
    /// located in the export line and judged by this decoder's mapping (`mapFields`, `AnalysisLineSink`).
    public var importer: EventImporter?

    public init() {
        learnsLineShapes = true
        table = FieldTable(holdsShapes: true)
    }

    /// A decoder that checks every `verification.interval`-th line against the strict decoder.
    public init(verification: FastPathVerification?) {
        learnsLineShapes = true
        self.verification = verification
        table = FieldTable(holdsShapes: true)
    }

    init(learnsLineShapes: Bool, verification: FastPathVerification? = nil) {
        self.learnsLineShapes = learnsLineShapes
        self.verification = verification
        table = FieldTable(holdsShapes: learnsLineShapes)
    }

    /// The address of the line a declined `decodeLeadingLine` tried against the shapes, and how many
    /// bytes it saw, so that `decode` of that line, next, does not try them again if the try saw all of
    /// it and its terminator, even a `\r\n`; address 0 when none. Skipping them never changes a verdict
    /// (the general scan gives the one a match would), and the try nearly always failed as `decode`'s
    /// own would: it differs only where a shape's `type` lies past the line's end, and the bytes after
    /// the line, read there, order the tries differently.
    private var lineTriedAgainstShapes = (address: 0, readable: 0)

    /// The shapes learned so far, for tests.
    var lineShapes: LineShapes { table.shapes }

    /// Decodes one line: `line` excludes the line terminator and the file's byte order mark.
    /// `source` is where the line came from and goes into the event as it is built.
    ///
    /// An event is handed to `accept` instead of being returned: a ~200-byte `Event` returned inside an
    /// enum was copied three times on its way out of the enum and into the session engine, a measured
    /// cost on the hot path. Built straight into the argument of `accept`, it moves once, into the
    /// engine's reorder buffer.
    @inline(__always)
    public mutating func decode(
        _ line: UnsafeRawBufferPointer, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        if verification != nil, verification!.isDue() { return decodeVerified(line, source: source, accept: accept) }
        return decodeUnverified(line, source: source, accept: accept)
    }

    /// `decode`, then the strict decoder's check of its result (`FastPathVerification`).
    @inline(never)
    private mutating func decodeVerified(
        _ line: UnsafeRawBufferPointer, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        var event: Event?
        let verdict = decodeUnverified(line, source: source, accept: { event = $0 })
        verification!.check(line, source: source, verdict: verdict, event: event)
        if let event { accept(event) }
        return verdict
    }

    @inline(__always)
    private mutating func decodeUnverified(
        _ line: UnsafeRawBufferPointer, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        // Read and forget the note of a declined `decodeLeadingLine` first, whatever this line becomes.
        let triedAt = lineTriedAgainstShapes
        lineTriedAgainstShapes.address = 0
        guard let raw = line.baseAddress, line.count > 0 else { return .blank }
        let count = line.count
        guard count <= Self.maxLineLength else {
            return .malformed(MalformedLine(reason: "line longer than 1 MiB (\(count) bytes)"))
        }
        if !isKnownUniquelyReferenced(&table) { table = FieldTable(holdsShapes: learnsLineShapes) }
        let fields = table.fields
        // The fields the last line set stay in the table until this line needs them absent: a matched
        // line sets every field of its shape but its shared texts (which the decoder takes from the
        // shape and never reads from the table), so only those of the last line's that its shape
        // lacks are cleared, and before the general scan all of them are.
        let dirty = table.dirtyFields.pointee
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let numbers = table.numbers
        let reader = LineReader(
            base: base, count: count, fields: fields, numbers: numbers,
            recent: table.recent, keys: table.keys, minute: table.minute, longTexts: table.longTexts)
        let shapes = table.shapes
        let triedAlready = triedAt.address == Int(bitPattern: raw) && count &+ 1 < triedAt.readable
        if learnsLineShapes, !triedAlready, shapes.match(base, count: count, fields: fields, numbers: numbers) {
            return Self.interpretMatched(reader, dirty: dirty, table: table, source: source, accept: accept)
        }
        return Self.decodeInGeneral(
            reader, dirty: dirty, table: table, learnsLineShapes: learnsLineShapes, source: source, accept: accept)
    }

    /// Decodes the line that starts at `bytes` if a learned shape covers it and `\n` or `\r\n` follows
    /// within `readable` bytes (`LineShapes.matchLeadingLine`), and returns its length (without the
    /// terminator) and verdict; else returns nil, having decoded nothing, and the caller finds the
    /// line's end and calls `decode`, which then goes straight to the general scan. Lets the line
    /// splitter skip its search for the `\n` on most lines. The verdict is the one `decode` gives.
    @inline(__always)
    public mutating func decodeLeadingLine(
        _ bytes: UnsafeRawPointer, readable: Int, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> (length: Int, verdict: LineVerdict)? {
        if verification != nil, verification!.isDue() {
            return decodeLeadingLineVerified(bytes, readable: readable, source: source, accept: accept)
        }
        return decodeLeadingLineUnverified(bytes, readable: readable, source: source, accept: accept)
    }

    /// `decodeLeadingLine`, then the strict decoder's check of the line it found and its verdict.
    @inline(never)
    private mutating func decodeLeadingLineVerified(
        _ bytes: UnsafeRawPointer, readable: Int, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> (length: Int, verdict: LineVerdict)? {
        var event: Event?
        guard let decoded = decodeLeadingLineUnverified(bytes, readable: readable, source: source, accept: { event = $0 })
        else { return nil }
        verification!.check(
            UnsafeRawBufferPointer(start: bytes, count: decoded.length), source: source, verdict: decoded.verdict,
            event: event)
        if let event { accept(event) }
        return decoded
    }

    @inline(__always)
    private mutating func decodeLeadingLineUnverified(
        _ bytes: UnsafeRawPointer, readable: Int, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> (length: Int, verdict: LineVerdict)? {
        lineTriedAgainstShapes.address = 0
        guard learnsLineShapes, readable > 0 else { return nil }
        if !isKnownUniquelyReferenced(&table) { table = FieldTable(holdsShapes: learnsLineShapes) }
        let fields = table.fields
        let dirty = table.dirtyFields.pointee
        let base = bytes.assumingMemoryBound(to: UInt8.self)
        let numbers = table.numbers
        let shapes = table.shapes
        // A line over the limit is the splitter's to report: none is matched here.
        let limited = min(readable, Self.maxLineLength &+ 1)
        guard let count = shapes.matchLeadingLine(base, readable: limited, fields: fields, numbers: numbers) else {
            lineTriedAgainstShapes = (Int(bitPattern: bytes), limited)
            return nil
        }
        let reader = LineReader(
            base: base, count: count, fields: fields, numbers: numbers,
            recent: table.recent, keys: table.keys, minute: table.minute, longTexts: table.longTexts)
        return (count, Self.interpretMatched(reader, dirty: dirty, table: table, source: source, accept: accept))
    }

    /// The verdict on a line a shape matched; its fields are exactly those the scan would note (see
    /// `LineShapes`), but for its shared texts, which may be stale, and those of the last line that the
    /// shape lacks, which are still to be cleared.
    @inline(__always)
    private static func interpretMatched(
        _ reader: LineReader, dirty: FieldMask, table: FieldTable, source: SourceLocation,
        accept: (consuming Event) -> Void
    ) -> LineVerdict {
        let shapes = table.shapes
        let members = shapes.membersOfLatestMatch
        clear(dirty & ~members, in: table.fields)
        table.dirtyFields.pointee = members
        do throws(MalformedLine) {
            let verdict = try reader.interpret(
                source: source, kind: shapes.kindOfLatestMatch, sharedTexts: shapes.sharedTextsOfLatestMatch,
                lineTextFields: shapes.lineTextFieldsOfLatestMatch, accept: accept)
            if shapes.isRefreshDue, case .event = verdict {
                shapes.refresh(reader.base, count: reader.count, fields: table.fields, numbers: table.numbers)
            }
            return verdict
        } catch {
            return .malformed(error)
        }
    }

    /// The general scan, for a line no shape matched (or when shapes are off); out of line, so that
    /// the matched path, nearly every line, keeps the decoder's registers and inlining to itself.
    @inline(never)
    private static func decodeInGeneral(
        _ reader: LineReader, dirty: FieldMask, table: FieldTable, learnsLineShapes: Bool, source: SourceLocation,
        accept: (consuming Event) -> Void
    ) -> LineVerdict {
        let fields = table.fields
        if dirty == FieldTable.allFields {
            // `FieldValue.absent` is all zero bytes (see there), and `FieldValue` is trivial: zero the
            // bytes, then bind them to `FieldValue` again (a no-op at run time).
            UnsafeMutableRawPointer(fields).initializeMemory(
                as: UInt8.self, repeating: 0, count: EventField.count * MemoryLayout<FieldValue>.stride)
            _ = UnsafeMutableRawPointer(fields).bindMemory(to: FieldValue.self, capacity: EventField.count)
        } else {
            clear(dirty, in: fields)
        }
        // The scan may set any field.
        table.dirtyFields.pointee = FieldTable.allFields
        let verdict: LineVerdict
        var unreadMembers = false
        do throws(MalformedLine) {
            guard try reader.scan(unreadMembers: &unreadMembers) else { return .blank }
            verdict = try reader.interpret(source: source, accept: accept)
        } catch {
            verdict = .malformed(error)
        }
        if learnsLineShapes {
            if case .event = verdict {
                table.shapes.learn(
                    reader.base, count: reader.count, fields: fields, numbers: table.numbers, unreadMembers: unreadMembers)
            } else {
                table.shapes.noteMiss()
            }
        }
        return verdict
    }

    /// Makes the fields whose bits are set in `mask` absent.
    @inline(__always)
    private static func clear(_ mask: FieldMask, in fields: UnsafeMutablePointer<FieldValue>) {
        var rest = mask
        while rest != 0 {
            fields[rest.trailingZeroBitCount] = .absent
            rest &= rest &- 1
        }
    }

    /// Decodes one line into a value, for tests, examples and callers off the hot path.
    public mutating func decode(_ line: UnsafeRawBufferPointer, source: SourceLocation = .unknown) -> DecodedLine {
        var decoded: Event?
        switch decode(line, source: source, accept: { decoded = $0 }) {
        case .blank: return .blank
        case .event: return decoded.map { .event($0) } ?? .blank
        case .unknownType(let name): return .unknownType(name)
        case .malformed(let problem): return .malformed(problem)
        }
    }

    /// Convenience for tests and examples.
    public mutating func decode(_ line: String) -> DecodedLine {
        var line = line
        return line.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }
}

/// One slot per `EventField` and the fields' recent values, owned by one decoder (copy-on-write keeps
/// copies of a decoder apart, hence `@unchecked Sendable`).
final class FieldTable: @unchecked Sendable {
    let fields: UnsafeMutablePointer<FieldValue>
    /// Per field, the value of a number the scan read (see `FieldValue.Kind.number`).
    let numbers: UnsafeMutablePointer<Double>
    let recent = RecentStrings(slots: EventField.count)
    let keys: KeyMatcher
    let shapes: LineShapes
    let longTexts = UnsafeMutablePointer<LongTextsReuse>.allocate(capacity: 1)
    let minute = UnsafeMutablePointer<RecentMinute>.allocate(capacity: 1)
    /// Bit `field.rawValue` set for each field that may hold a value from the last line (see `decode`);
    /// behind a pointer, as `minute`, so that updating it costs no exclusivity check.
    let dirtyFields = UnsafeMutablePointer<FieldMask>.allocate(capacity: 1)
    static let allFields: FieldMask = (1 << EventField.count) - 1

    /// Without `holdsShapes` (a decoder that does not learn them) the shapes get no room: a strict
    /// decoder made for one line, as the fast path's check makes one, allocates ~1 KB, not ~55. Nor
    /// does it recognise members by their heads (`KeyMatcher.headField`): the strict decoder reads every
    /// key the general way.
    init(holdsShapes: Bool) {
        shapes = LineShapes(holdsShapes: holdsShapes)
        keys = KeyMatcher(recognisesHeads: holdsShapes)
        dirtyFields.initialize(to: 0)
        fields = .allocate(capacity: EventField.count)
        fields.initialize(repeating: .absent, count: EventField.count)
        numbers = .allocate(capacity: EventField.count)
        numbers.initialize(repeating: 0, count: EventField.count)
        minute.initialize(to: RecentMinute())
        longTexts.initialize(to: LongTextsReuse())
    }

    deinit {
        fields.deallocate()
        numbers.deallocate()
        recent.deallocate()
        keys.deallocate()
        shapes.deallocate()
        minute.deallocate()
        longTexts.deinitialize(count: 1)
        longTexts.deallocate()
        dirtyFields.deallocate()
    }
}

/// The minute of the last RFC 3339 `ts`: consecutive events mostly fall in the same minute, and then
/// only the seconds, fraction and offset need reading.
struct RecentMinute {
    /// The first 16 bytes, `YYYY-MM-DDTHH:MM`, as two little-endian words, of a timestamp whose minute
    /// was read and checked. Before any, the epoch's: a held prefix that no timestamp checked (zero
    /// bytes) would let an escaped `ts` of sixteen NULs through as 1970, on the first lines only.
    var prefix: (UInt64, UInt64) = RecentMinute.epochPrefix
    var minuteStart: Int64 = 0

    static let epochPrefix: (UInt64, UInt64) = {
        let bytes = Array("1970-01-01T00:00".utf8)
        return bytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }()
}

/// The work on one line: the scan that fills `fields`, then the typed reading of them.
struct LineReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    let fields: UnsafeMutablePointer<FieldValue>
    /// Where the scan puts the value of a number field; read only when that field's kind is `.number`
    /// on this line, so it needs no clearing.
    let numbers: UnsafeMutablePointer<Double>
    let recent: RecentStrings
    let keys: KeyMatcher
    let minute: UnsafeMutablePointer<RecentMinute>
    let longTexts: UnsafeMutablePointer<LongTextsReuse>

    init(
        base: UnsafePointer<UInt8>, count: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>, recent: RecentStrings, keys: KeyMatcher, minute: UnsafeMutablePointer<RecentMinute>,
        longTexts: UnsafeMutablePointer<LongTextsReuse>
    ) {
        self.minute = minute
        self.longTexts = longTexts
        self.base = base
        self.count = count
        self.fields = fields
        self.numbers = numbers
        self.recent = recent
        self.keys = keys
    }

    // MARK: Scanning

    /// Validates the line and records the known fields of its top-level object; `unreadMembers` is set
    /// when the object has a member no field reads.
    /// - Returns: false for a blank line.
    func scan(unreadMembers: inout Bool) throws(MalformedLine) -> Bool {
        var scanner = JSONScanner(base: base, count: count)
        scanner.skipWhitespace()
        guard scanner.pos < count else { return false }
        let isObject = base[scanner.pos] == 0x7B
        if isObject {
            try scanTopLevelObject(&scanner, unreadMembers: &unreadMembers)
        } else {
            try scanner.skipValue(depth: 0)
        }
        if scanner.pos < count, base[scanner.pos] <= 0x20 { scanner.skipWhitespace() }
        guard scanner.pos == count else {
            throw JSONError.trailingContent(base, at: scanner.pos, end: count)
        }
        guard isObject else { throw MalformedLine(reason: "top-level value is not an object", column: 0) }
        return true
    }

    /// The member loop. The position lives in a local, not in `scanner`: the scanner's memory is the
    /// caller's, and the compiler stored it back after every step (stores through `fields` might alias
    /// it) and reloaded `base` and the key tables for every key. It is handed to the scanner only for
    /// the rare cases that need it (an escaped or long string, a non-string value, an unknown key).
    ///
    /// Each turn starts at the `{` or `,` before a member. A member with a compact head (`"key":`) of a
    /// field is recognised by its key's first bytes and one comparison, whatever the order of the keys
    /// (`KeyMatcher.headField`); any other takes the general reading: whitespace, the key, whitespace,
    /// the colon, whitespace.
    private func scanTopLevelObject(_ scanner: inout JSONScanner, unreadMembers: inout Bool) throws(MalformedLine) {
        let base = self.base
        let count = self.count
        let fields = self.fields
        let keys = self.keys
        var pos = scanner.pos
        let first = JSONScanner.whitespaceEnd(base, from: pos &+ 1, end: count)
        if first < count, base[first] == 0x7D {
            scanner.pos = first &+ 1
            return
        }
        while true {
            let keyColumn: Int
            let field: EventField?
            // Whether the value (at `pos` once the head is read) is a string, its opening quote at `pos`.
            let valueQuoted: Bool
            if let recognised = keys.headField(start: base + (pos &+ 1), readableUpTo: base + count) {
                keyColumn = pos &+ 1
                field = recognised
                // After the key's closing quote and the colon. The quote is found in the line's bytes (the
                // same place: the head was compared), among the key's first eight bytes or, for a longer
                // key, as the general reading finds it, rather than from the field's key length: then the
                // next member's place does not wait for the field.
                let keyStart = keyColumn &+ 1
                let quotes = JSONScanner.zeroBytes(
                    UInt64(littleEndian: UnsafeRawPointer(base + keyStart).loadUnaligned(as: UInt64.self))
                        ^ 0x2222_2222_2222_2222)
                if quotes != 0 {
                    pos = keyStart &+ (quotes.trailingZeroBitCount &>> 3) &+ 2
                } else {
                    pos = (JSONScanner.plainStringEnd(base, from: keyStart, end: count)
                        ?? (keyStart &+ keys.keyLength(recognised))) &+ 2
                }
                if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
                valueQuoted = pos < count && base[pos] == 0x22
            } else {
                pos = JSONScanner.whitespaceEnd(base, from: pos &+ 1, end: count)
                guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
                keyColumn = pos
                guard base[keyColumn] == 0x22 else { throw JSONError.unexpected(base, at: keyColumn, end: count) }
                let keyStart = keyColumn &+ 1
                scanner.pos = keyStart
                let keyEscaped = try scanner.scanStringBody()
                pos = scanner.pos
                let keyLength = pos &- 1 &- keyStart
                field = keyEscaped
                    ? Self.fieldForEscapedKey(base: base, start: keyStart, end: keyStart &+ keyLength)
                    : keys.field(start: base + keyStart, count: keyLength, readableUpTo: base + count)
                // The colon, with optional whitespace around it.
                if pos < count, base[pos] == 0x3A {
                    pos &+= 1
                } else {
                    pos = JSONScanner.whitespaceEnd(base, from: pos, end: count)
                    guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
                    guard base[pos] == 0x3A else { throw JSONError.unexpected(base, at: pos, end: count) }
                    pos &+= 1
                }
                if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
                valueQuoted = pos < count && base[pos] == 0x22
            }
            if let field {
                let value: FieldValue
                if valueQuoted {
                    // Strings, most values, are read here, the only place: `scanKnownValue`, which the
                    // optimiser keeps out of line, would cost a call per field.
                    let start = pos &+ 1
                    let escaped: Bool
                    if let quote = JSONScanner.plainStringEnd(base, from: start, end: count)
                        ?? (count &- start < 16 ? JSONScanner.plainStringEndNearTheEnd(base, from: start, end: count) : nil)
                    {
                        pos = quote &+ 1
                        escaped = false
                    } else {
                        scanner.pos = start
                        escaped = try scanner.scanStringBodyLoop()
                        pos = scanner.pos
                    }
                    value = FieldValue(
                        kind: .string, flag: escaped, start: Int32(truncatingIfNeeded: start),
                        end: Int32(truncatingIfNeeded: pos &- 1))
                } else if pos < count, base[pos] == 0x2D || JSONScanner.isDigit(base[pos]) {
                    // Numbers (`x`, `y` of every touch) are read here too, their value with them.
                    scanner.pos = pos
                    var number = 0.0
                    let integer = try scanner.scanNumber(value: &number)
                    value = FieldValue(
                        kind: .number, flag: integer, start: Int32(truncatingIfNeeded: pos),
                        end: Int32(truncatingIfNeeded: scanner.pos))
                    pos = scanner.pos
                    // Written for a repeated key too: a field the line's type reads cannot repeat (the
                    // line is malformed), and one it does not read is never read.
                    numbers[field.rawValue] = number
                } else {
                    scanner.pos = pos
                    value = try scanKnownValue(&scanner)
                    pos = scanner.pos
                }
                let slot = fields + field.rawValue
                if slot.pointee.kind == .absent {
                    slot.pointee = value
                } else {
                    slot.pointee.noteDuplicate(keyColumn: keyColumn)
                }
            } else {
                unreadMembers = true
                scanner.pos = pos
                try scanner.skipValue(depth: 1)
                pos = scanner.pos
            }
            if pos < count, base[pos] <= 0x20 { pos = JSONScanner.whitespaceEnd(base, from: pos, end: count) }
            guard pos < count else { throw JSONError.unexpectedEnd(at: pos) }
            switch base[pos] {
            case 0x2C:
                continue
            case 0x7D:
                scanner.pos = pos &+ 1
                return
            default:
                throw JSONError.unexpected(base, at: pos, end: count)
            }
        }
    }

    /// Validates the value of a known key that is neither a string nor a number (the member loop in
    /// `scanTopLevelObject` reads those itself): a literal or a container. Notes its type and position.
    private func scanKnownValue(_ scanner: inout JSONScanner) throws(MalformedLine) -> FieldValue {
        let start = scanner.pos
        guard start < count else { throw JSONError.unexpectedEnd(at: start) }
        let kind: FieldValue.Kind
        switch base[start] {
        case 0x74:
            kind = .true
            try scanner.scanLiteral("true")
        case 0x66:
            kind = .false
            try scanner.scanLiteral("false")
        case 0x6E:
            kind = .null
            try scanner.scanLiteral("null")
        case 0x7B:
            kind = .object
            try scanner.skipObject(depth: 2)
        case 0x5B:
            kind = .array
            try scanner.skipArray(depth: 2)
        default:
            throw JSONError.unexpected(base, at: start, end: count)
        }
        return FieldValue(
            kind: kind, flag: false, start: Int32(truncatingIfNeeded: start),
            end: Int32(truncatingIfNeeded: scanner.pos))
    }

    /// Keys written with escapes (`"t\u0073"` is the key `ts`) are rare: unescape, then match.
    private static func fieldForEscapedKey(base: UnsafePointer<UInt8>, start: Int, end: Int) -> EventField? {
        var key = JSONStringUnescaper.string(base: base, start: start, end: end)
        return key.withUTF8 { bytes in
            guard let keyBase = bytes.baseAddress else { return nil }
            return EventField.matching(ByteSlice(start: keyBase, count: bytes.count))
        }
    }

    // MARK: Interpreting

    /// `kind`, when known, is the kind the line's `type` names (from the shape it matched); `sharedTexts`,
    /// when given, holds common texts known to be the line's (an `InlineTexts`, from that shape), and
    /// only the common text fields in `lineTextFields` are read from the line.
    @inline(__always)
    func interpret(
        source: SourceLocation, kind knownKind: EventKind? = nil, sharedTexts: UnsafeRawPointer? = nil,
        lineTextFields: FieldMask = EventField.commonTextBits, accept: (consuming Event) -> Void
    ) throws(MalformedLine) -> LineVerdict {
        let ts = try timestamp()
        longTexts.pointee.discardPending()
        var texts = sharedTexts.map { EventTexts($0.load(as: InlineTexts.self)) } ?? EventTexts()
        // A shared session is valid (the shape's line had it), and its field-table entry may be stale
        // (see `LineShapes.sharedTextsOfLatestMatch`).
        if lineTextFields & EventField.session.bit != 0 {
            let session = try present(.session)
            guard session.kind == .string else { throw wrongType(.session, session, expected: "a string") }
            // Empty only as `""`: an escape is at least one character.
            guard session.end != session.start else {
                throw MalformedLine(reason: "field \"session\" must be a non-empty string", column: session.column)
            }
            try setText(.session, session, .session, in: &texts)
        }
        let typeValue = try present(.type)
        guard typeValue.kind == .string else { throw wrongType(.type, typeValue, expected: "a string") }

        if lineTextFields & EventField.device.bit != 0 { try optionalText(.device, .device, in: &texts) }
        if lineTextFields & EventField.app.bit != 0 { try optionalText(.app, .app, in: &texts) }
        if lineTextFields & EventField.appVersion.bit != 0 { try optionalText(.appVersion, .appVersion, in: &texts) }
        if lineTextFields & EventField.osVersion.bit != 0 { try optionalText(.osVersion, .osVersion, in: &texts) }
        if lineTextFields & EventField.screen.bit != 0 { try optionalText(.screen, .screen, in: &texts) }
        // Checked here, set once the kind is known: a loading operation's `id` is its payload's, not the
        // event's.
        let commonId = try checked(.id)
        switch commonId.kind {
        case .absent, .null, .string: break
        default: throw wrongType(.id, commonId, expected: "a string")
        }

        let kind = knownKind
            ?? (typeValue.flag ? Self.kindOfEscapedName(string(typeValue)) : EventKind(wireBytes: bytes(typeValue)))
        guard let kind else {
            // A U+0000 in `id` is refused on such a line too, as in the other common texts.
            if commonId.kind == .string && commonId.flag { _ = try unescapedText(.id, commonId) }
            return .unknownType(typeValue.flag ? try unescapedText(.type, typeValue) : string(typeValue))
        }
        // Before the payload: nothing may throw once it is built, or the optimiser copies it into the
        // event instead of moving it.
        if commonId.kind == .string && kind != .loadingStart && kind != .loadingEnd {
            try setText(.id, commonId, .id, in: &texts)
        }

        let payload: EventPayload
        switch kind {
        case .sessionStart:
            payload = .sessionStart(SessionSettings(
                hapticsEnabled: try optionalBool(.hapticsEnabled, default: true),
                pencilPreferredAction: try optionalEnum(
                    .pencilPreferredAction, "pencil preferred action", PencilPreferredAction.init(wireBytes:))
                    ?? .switchEraser,
                pencilCustomActionEnabled: try optionalBool(.pencilCustomActionEnabled, default: false),
                touches: try optionalEnum(.touches, "touch coverage", TouchCoverage.init(wireBytes:)) ?? .all,
                synthetic: try optionalBool(.synthetic, default: false)))
        case .sessionEnd:
            payload = .sessionEnd
        case .touch:
            payload = .touch(Touch(
                phase: try requiredEnum(.phase, "touch phase", TouchPhase.init(wireBytes:)),
                target: try optionalString(.target),
                input: try optionalEnum(.input, "touch input", TouchInput.init(wireBytes:)) ?? .finger,
                x: try optionalNumber(.x),
                y: try optionalNumber(.y)))
        case .pencilDoubleTap:
            payload = .pencilDoubleTap(
                action: try requiredEnum(.action, "pencil action", PencilTapAction.init(wireBytes:)))
        case .haptic:
            payload = .haptic(
                kind: try requiredEnum(.kind, "haptic kind", HapticKind.init(wireBytes:)),
                durationMs: try optionalNumber(.durationMs, nonNegative: true))
        case .outcome:
            payload = .outcome(
                result: try requiredEnum(.result, "outcome result", OutcomeResult.init(wireBytes:)),
                task: try optionalString(.task))
        case .tabSwitch:
            payload = .tabSwitch(from: try requiredString(.from), to: try requiredString(.to))
        case .navPush:
            payload = .navPush(to: try requiredString(.to))
        case .navPop:
            payload = .navPop(to: try requiredString(.to))
        case .modalPresent:
            payload = .modalPresent(
                modal: try requiredString(.modal),
                style: try requiredEnum(.style, "modal style", ModalStyle.init(wireBytes:)))
        case .modalDismiss:
            payload = .modalDismiss(modal: try requiredString(.modal))
        case .contentMutation:
            payload = .contentMutation(
                action: try requiredEnum(.action, "mutation action", MutationAction.init(wireBytes:)),
                object: try optionalString(.object),
                undoable: try optionalBool(.undoable, default: true))
        case .loadingStart:
            payload = .loadingStart(
                id: try requiredString(.id),
                indicator: try requiredEnum(.indicator, "loading indicator", LoadingIndicator.init(wireBytes:)))
        case .loadingEnd:
            payload = .loadingEnd(id: try requiredString(.id))
        case .captureStart:
            payload = .captureStart(source: try requiredEnum(.source, "capture source", CaptureSource.init(wireBytes:)))
        case .captureStop:
            payload = .captureStop(source: try requiredEnum(.source, "capture source", CaptureSource.init(wireBytes:)))
        case .appReady:
            payload = .appReady
        case .permissionRequest:
            payload = .permissionRequest(
                permission: try requiredEnum(.permission, "permission", Permission.init(wireBytes:)),
                result: try optionalEnum(.result, "permission result", PermissionResult.init(wireBytes:)))
        case .ratingPrompt:
            payload = .ratingPrompt
        case .widgetDisplay:
            payload = .widgetDisplay(
                widget: try requiredString(.widget),
                content: try requiredEnum(.content, "widget content", WidgetContent.init(wireBytes:)),
                loadMs: try optionalNumber(.loadMs, nonNegative: true))
        }
        texts.finishLongTexts(longTexts)
        accept(Event(ts: ts, texts: consume texts, payload: payload, source: source))
        return .event
    }

    private static func kindOfEscapedName(_ name: String) -> EventKind? {
        var name = name
        return name.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return nil }
            return EventKind(wireBytes: ByteSlice(start: start, count: bytes.count))
        }
    }

    // MARK: Field access

    @inline(__always)
    private func value(_ field: EventField) -> FieldValue { fields[field.rawValue] }

    /// The field's value if it occurs exactly once; absent stays absent.
    @inline(__always)
    private func checked(_ field: EventField) throws(MalformedLine) -> FieldValue {
        let value = fields[field.rawValue]
        if let duplicate = value.duplicateColumn {
            throw MalformedLine(reason: "duplicate key \"\(field.key)\"", column: duplicate)
        }
        return value
    }

    /// The field's value; absent is a missing required field (`null` is then a wrong type).
    @inline(__always)
    private func present(_ field: EventField) throws(MalformedLine) -> FieldValue {
        let value = try checked(field)
        if value.kind == .absent { throw MalformedLine(reason: "missing required field \"\(field.key)\"") }
        return value
    }

    private func wrongType(_ field: EventField, _ value: FieldValue, expected: String) -> MalformedLine {
        MalformedLine(
            reason: "field \"\(field.key)\" must be \(expected), not \(value.kindDescription)", column: value.column)
    }

    @inline(__always)
    private func bytes(_ value: FieldValue) -> ByteSlice {
        ByteSlice(start: base + Int(value.start), count: Int(value.end) - Int(value.start))
    }

    /// A string value as Swift `String`, unescaped if it has escapes.
    @inline(__always)
    private func string(_ value: FieldValue) -> String {
        if value.flag {
            return JSONStringUnescaper.string(base: base, start: Int(value.start), end: Int(value.end))
        }
        return String(decoding: UnsafeBufferPointer(start: base + Int(value.start), count: Int(value.end) - Int(value.start)), as: UTF8.self)
    }

    /// An escaped value the event keeps, refused when it holds U+0000: SQLite texts, C strings and
    /// spreadsheets end a text there, so two sessions (or devices, screens, types) differing only after
    /// it would be one in the store, and the `nightly` run meeting them would fail on every retry
    /// (docs/log-format.md). Only an escape can put U+0000 in a value: the scanner refuses the raw byte.
    @inline(never)
    private func unescapedText(_ field: EventField, _ value: FieldValue) throws(MalformedLine) -> String {
        let text = string(value)
        if text.utf8.contains(0) { throw Self.textWithNull(field, column: value.column) }
        return text
    }

    private static func textWithNull(_ field: EventField, column: Int) -> MalformedLine {
        MalformedLine(reason: "field \"\(field.key)\" holds U+0000, at which stores and spreadsheets cut a text", column: column)
    }

    /// A string value the event keeps: reused from the previous line when the bytes are the same,
    /// except for `id`, which differs on every event.
    @inline(__always)
    private func keptString(_ field: EventField, _ value: FieldValue) throws(MalformedLine) -> String {
        if value.flag { return try unescapedText(field, value) }
        if field == .id { return string(value) }
        return recent.string(
            slot: field.rawValue, start: base + Int(value.start), count: Int(value.end) - Int(value.start))
    }

    @inline(__always)
    private func requiredString(_ field: EventField) throws(MalformedLine) -> String {
        let value = try present(field)
        guard value.kind == .string else { throw wrongType(field, value, expected: "a string") }
        return try keptString(field, value)
    }

    @inline(__always)
    private func optionalString(_ field: EventField) throws(MalformedLine) -> String? {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return nil
        case .string: return try keptString(field, value)
        default: throw wrongType(field, value, expected: "a string")
        }
    }

    /// Sets a string value an event keeps in `EventTexts`: copied from the line when it is short and has
    /// no escapes (nearly always), else made from its `String`.
    @inline(__always)
    private func setText(_ field: EventField, _ value: FieldValue, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let length = Int(value.end) &- Int(value.start)
        if value.flag || length > CompactText.inlineCapacity {
            if !value.flag, length == PackedUUID.textLength, let uuid = PackedUUID.pack(base + Int(value.start)) {
                texts.setPacked(slot, low: uuid.low, high: uuid.high, count: uuid.count)
            } else {
                try setLongText(field, value, slot, in: &texts)
            }
        } else {
            texts.setInline(slot, bytes: base + Int(value.start), count: length, readable: count &- Int(value.start))
        }
    }

    /// `setText` for an escaped or long value, out of line so that the common case inlines.
    @inline(never)
    private func setLongText(_ field: EventField, _ value: FieldValue, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let text = try keptString(field, value)
        // Escaped values may be short once unescaped, or a UUID, and are then inline as any such text;
        // an unescaped one of a UUID's length was tried by `setText` already.
        if text.utf8.count > CompactText.inlineCapacity, text.utf8.count != PackedUUID.textLength || !value.flag {
            texts.setLong(slot, text, reuse: longTexts)
        } else {
            let compact = CompactText(text)
            if compact.inlineParts == nil {
                texts.setLong(slot, text, reuse: longTexts)
            } else {
                texts[slot] = compact
            }
        }
    }

    @inline(__always)
    private func optionalText(_ field: EventField, _ slot: EventTexts.Slot, in texts: inout EventTexts) throws(MalformedLine) {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return
        case .string: try setText(field, value, slot, in: &texts)
        default: throw wrongType(field, value, expected: "a string")
        }
    }

    private func optionalBool(_ field: EventField, default defaultValue: Bool) throws(MalformedLine) -> Bool {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return defaultValue
        case .true: return true
        case .false: return false
        default: throw wrongType(field, value, expected: "a boolean")
        }
    }

    @inline(__always)
    private func optionalNumber(_ field: EventField, nonNegative: Bool = false) throws(MalformedLine) -> Double? {
        let value = try checked(field)
        switch value.kind {
        case .absent, .null: return nil
        case .number:
            let remembered = numbers[field.rawValue]
            let number = remembered.isNaN ? JSONNumber.double(bytes(value)) : remembered
            guard number.isFinite else {
                throw MalformedLine(reason: "field \"\(field.key)\" is a number too large to hold", column: value.column)
            }
            if nonNegative, number < 0 {
                throw MalformedLine(reason: "field \"\(field.key)\" must not be negative", column: value.column)
            }
            return number
        default: throw wrongType(field, value, expected: "a number")
        }
    }

    @inline(__always)
    private func requiredEnum<Value>(
        _ field: EventField, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value {
        let value = try present(field)
        return try enumValue(field, value, what, match)
    }

    @inline(__always)
    private func optionalEnum<Value>(
        _ field: EventField, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value? {
        let value = try checked(field)
        if value.kind == .absent || value.kind == .null { return nil }
        return try enumValue(field, value, what, match)
    }

    @inline(__always)
    private func enumValue<Value>(
        _ field: EventField, _ value: FieldValue, _ what: String, _ match: (ByteSlice) -> Value?
    ) throws(MalformedLine) -> Value {
        guard value.kind == .string else { throw wrongType(field, value, expected: "a string") }
        let matched: Value?
        if value.flag {
            // A `custom:` action keeps its name.
            var text = try unescapedText(field, value)
            matched = text.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return match(ByteSlice(start: base, count: 0)) }
                return match(ByteSlice(start: start, count: buffer.count))
            }
        } else {
            matched = match(bytes(value))
        }
        guard let matched else {
            throw MalformedLine(reason: "unknown \(what) \(Self.quoted(string(value)))", column: value.column)
        }
        return matched
    }

    /// `ts`: an RFC 3339 string or an integer number of milliseconds.
    private func timestamp() throws(MalformedLine) -> Int64 {
        let value = try present(.ts)
        switch value.kind {
        case .number:
            let milliseconds: Int64?
            if value.flag {
                // The scan's value when it has one (at most 15 digits, so exact), else the digits again.
                let number = numbers[EventField.ts.rawValue]
                milliseconds = number.isNaN ? JSONNumber.int64(bytes(value)) : Int64(exactly: number)
            } else {
                // An integer written with a fraction or an exponent (`1763661826940.0`, as writers of
                // floating-point numbers put it) is the same JSON number; only a fractional one is not
                // an integer of milliseconds (SPEC §2 "Common fields").
                switch JSONNumber.integralValue(bytes(value)) {
                case .integer(let integer): milliseconds = integer
                case .tooLarge: milliseconds = nil
                case .fraction:
                    throw MalformedLine(
                        reason: "field \"ts\" must be an integer of milliseconds, not a fraction",
                        column: value.column)
                }
            }
            guard let milliseconds, TimestampParser.isWithinYears0To9999(milliseconds) else {
                throw MalformedLine(
                    reason: "field \"ts\" is out of range: milliseconds must fall in the years 0000–9999",
                    column: value.column)
            }
            return milliseconds
        case .string:
            let result: Result<Int64, TimestampParser.Failure>
            if value.flag {
                result = parseEscaped(value)
            } else {
                result = parseRemembering(bytes(value))
            }
            switch result {
            case .success(let milliseconds) where TimestampParser.isWithinYears0To9999(milliseconds):
                return milliseconds
            case .success:
                throw MalformedLine(
                    reason: "field \"ts\" is out of range: \(Self.quoted(string(value))) is outside the years 0000–9999 in UTC",
                    column: value.column)
            case .failure(let failure):
                throw MalformedLine(
                    reason: "field \"ts\" is not an RFC 3339 timestamp \(Self.quoted(string(value))): \(failure)",
                    column: value.column)
            }
        default:
            throw wrongType(.ts, value, expected: "a string or integer")
        }
    }

    /// A `ts` string with escapes, unescaped on the stack (never longer than its escaped form), then
    /// read as a plain one.
    @inline(never)
    private func parseEscaped(_ value: FieldValue) -> Result<Int64, TimestampParser.Failure> {
        let length = Int(value.end) &- Int(value.start)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { buffer in
            let unescaped = JSONStringUnescaper.unescape(
                base: base, start: Int(value.start), end: Int(value.end), into: buffer.baseAddress!)
            return parseRemembering(ByteSlice(start: buffer.baseAddress!, count: unescaped))
        }
    }

    /// `TimestampParser.parse`, skipping the date and minute when they are those of the last `ts`.
    @inline(__always)
    private func parseRemembering(_ text: ByteSlice) -> Result<Int64, TimestampParser.Failure> {
        guard text.count >= 19 else { return TimestampParser.parse(text) }
        let raw = UnsafeRawPointer(text.start)
        let prefix = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if prefix != minute.pointee.prefix {
            switch TimestampParser.minuteStart(text) {
            case .success(let start):
                minute.pointee = RecentMinute(prefix: prefix, minuteStart: start)
            case .failure(let failure):
                return .failure(failure)
            }
        }
        return TimestampParser.parseRest(text, minuteStart: minute.pointee.minuteStart)
    }

    /// A value from the log quoted for a reason: escaped, and cut short so a reason stays one short line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 40 {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result + "\""
    }
}
