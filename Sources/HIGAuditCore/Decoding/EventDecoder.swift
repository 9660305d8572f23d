/// Turns one NDJSON line into a typed `Event`, or says precisely why it cannot (SPEC §2).
///
/// Two paths find a line's fields, and one mapping (`LineReader.interpret`, Mapping/) turns them into
/// the event and makes every check of their values:
/// - the reference path (`ReferenceDecoder`, Reference/): a plain strict scan of the line, every key
///   looked up by its bytes, every value read from the line. It decides every line the accelerated
///   path declines, and is the standard the accelerated path is tested against.
/// - the accelerated path (Accelerated/), the hot path of every run: a line laid out like an earlier
///   line of its type (`LineShapes`) is compared with it and only the values that change are read;
///   any other is scanned with keys recognised by their first bytes (`AcceleratedScan`), strings and
///   the minute of `ts` reused from the last line (`RecentValues`). It gives the fields the reference
///   scan would give, or declines: a line it finds malformed goes to the reference path.
///
/// Compiled with `-DHIG_REFERENCE_DECODER` (the test suite's second run in CI, `.ci/run`), the
/// decoders a program makes (`init()`, `init(verification:)`) take the reference path only.
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
/// Keep one decoder per reading loop: it remembers the shapes of recent lines, the recent values of each
/// field and recent timestamps' minutes to skip repeated work. Results never depend on what it
/// remembers.
public struct EventDecoder: Sendable {
    /// SPEC §2: a longer line is malformed.
    public static let maxLineLength = 1 << 20

    /// Whether this build's decoders take the accelerated path: false when compiled with
    /// `-DHIG_REFERENCE_DECODER`, so that a test can tell which path the suite runs on.
    public static let acceleratedPathIsCompiledIn: Bool = {
        #if HIG_REFERENCE_DECODER
        return false
        #else
        return true
        #endif
    }()

    /// Where the scans note the known fields; reused from line to line so decoding allocates nothing
    /// of its own. Not private: an importer's events fill it too (`mapFields`, MappedFields.swift).
    var table: FieldTable
    /// Whether lines take the accelerated path (learned shapes, recognised key heads, recent values)
    /// before the reference path; false on the reference path alone (tests that compare the two, the
    /// fast path's check, and builds with `-DHIG_REFERENCE_DECODER`).
    let learnsLineShapes: Bool

    /// The sampled re-check of accelerated results against the reference decoder; nil when off.
    public private(set) var verification: FastPathVerification?

    /// Set when the run reads another tool's export (`--from`, SPEC §7): each event's fields are
    /// located in the export line and judged by this decoder's mapping (`mapFields`, `AnalysisLineSink`).
    public var importer: EventImporter? {
        didSet { importerReference = importer.map { Unmanaged.passUnretained($0) } }
    }
    /// `importer`, not retained (`importer` holds it): a line's reader takes it without a retain and
    /// a release on every line.
    public private(set) var importerReference: Unmanaged<EventImporter>?

    public init() {
        self.init(learnsLineShapes: Self.acceleratedPathIsCompiledIn)
    }

    /// A decoder that checks every `verification.interval`-th line against the reference decoder.
    public init(verification: FastPathVerification?) {
        self.init(learnsLineShapes: Self.acceleratedPathIsCompiledIn, verification: verification)
    }

    /// `learnsLineShapes: false` is the reference path alone; `true` the accelerated path, also in a
    /// build with `-DHIG_REFERENCE_DECODER`, for the tests of that path itself.
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

    /// `decode`, then the reference decoder's check of its result (`FastPathVerification`).
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
        guard count <= Self.maxLineLength else { return Self.overlong(count) }
        if !isKnownUniquelyReferenced(&table) { table = FieldTable(holdsShapes: learnsLineShapes) }
        guard learnsLineShapes else {
            return ReferenceDecoder.decode(
                raw.assumingMemoryBound(to: UInt8.self), count: count, fields: table.fields, numbers: table.numbers,
                longTexts: table.longTexts, source: source, accept: accept)
        }
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
            memory: RecentValues(recent: table.recent, minute: table.minute), longTexts: table.longTexts)
        let shapes = table.shapes
        let triedAlready = triedAt.address == Int(bitPattern: raw) && count &+ 1 < triedAt.readable
        if !triedAlready, shapes.match(base, count: count, fields: fields, numbers: numbers) {
            return Self.interpretMatched(reader, dirty: dirty, table: table, source: source, accept: accept)
        }
        return Self.decodeInGeneral(reader, dirty: dirty, table: table, source: source, accept: accept)
    }

    /// The verdict on a line longer than `maxLineLength`, which is not scanned.
    static func overlong(_ count: Int) -> LineVerdict {
        .malformed(MalformedLine(reason: "line longer than 1 MiB (\(count) bytes)"))
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

    /// `decodeLeadingLine`, then the reference decoder's check of the line it found and its verdict.
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
            memory: RecentValues(recent: table.recent, minute: table.minute), longTexts: table.longTexts)
        return (count, Self.interpretMatched(reader, dirty: dirty, table: table, source: source, accept: accept))
    }

    /// The verdict on a line a shape matched; its fields are exactly those the scan would note (see
    /// `LineShapes`), but for its shared texts, which may be stale, and those of the last line that the
    /// shape lacks, which are still to be cleared.
    @inline(__always)
    private static func interpretMatched(
        _ reader: LineReader<RecentValues>, dirty: FieldMask, table: FieldTable, source: SourceLocation,
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

    /// The accelerated scan, for a line no shape matched; a line it finds malformed is declined to the
    /// reference path. Out of line, so that the matched path, nearly every line, keeps the decoder's
    /// registers and inlining to itself.
    @inline(never)
    private static func decodeInGeneral(
        _ reader: LineReader<RecentValues>, dirty: FieldMask, table: FieldTable, source: SourceLocation,
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
        // The scan may set any field before it finds the line malformed.
        table.dirtyFields.pointee = FieldTable.allFields
        var unreadMembers = false
        var members = MemberOrder()
        let scan = AcceleratedScan(
            base: reader.base, count: reader.count, fields: fields, numbers: table.numbers, keys: table.keys)
        let scanned: Bool
        do throws(MalformedLine) {
            scanned = try scan.scan(unreadMembers: &unreadMembers, members: &members)
        } catch {
            table.shapes.noteMiss()
            return ReferenceDecoder.decode(
                reader.base, count: reader.count, fields: fields, numbers: table.numbers, longTexts: table.longTexts,
                source: source, accept: accept)
        }
        // The scan set only the fields it noted (a repeated key's first occurrence among them); the
        // reference path, above, may have set any.
        table.dirtyFields.pointee = members.fields
        guard scanned else { return .blank }
        let verdict: LineVerdict
        do throws(MalformedLine) {
            verdict = try reader.interpret(source: source, accept: accept)
        } catch {
            verdict = .malformed(error)
        }
        if case .event = verdict {
            table.shapes.learn(
                reader.base, count: reader.count, fields: fields, numbers: table.numbers, unreadMembers: unreadMembers,
                members: members)
        } else {
            table.shapes.noteMiss()
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