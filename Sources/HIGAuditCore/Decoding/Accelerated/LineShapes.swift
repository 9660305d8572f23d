/// Shapes of earlier lines, so that a line laid out like one of them is read without the member loop.
///
/// Each writer (an app's SDK) lays out the lines of one event type the same way: the same keys in the
/// same order, the same separators, and many values repeated (a touch stream keeps its session,
/// device, version, screen, target and input; only `ts`, `id`, `x`, `y` and sometimes `phase`
/// change). A log may hold one device's lines in runs, or many devices' lines interleaved line by
/// line, each device's SDK its own writer (an upload of a fleet); then the values that differ between
/// sessions (`session`, `device`, `screen`, …) change on nearly every line of a shape and are variable.
/// A shape is an earlier line whose changing string and number values are marked *variable*, and so
/// are the scalar values of members no field reads (a writer's own sequence number); everything else
/// is a run of bytes that a line must repeat exactly. Matching compares those runs in 16-byte steps and reads only the
/// variable values, each with the scanner's own string, number (`JSONNumber.scan`) or value reading. Speculative parsing from
/// learned record structure, after Mison (Li et al., VLDB 2017), with the general scan as the fallback.
///
/// Why a match gives exactly the general scan's result: the shape's line decoded to an event, with no
/// repeated field, read by the general scan or by a match (the same reading, by this argument). A matching line is that line with some string values
/// replaced by valid strings, some numbers by valid numbers and some unread members' values by valid
/// values (each checked by the same `JSONScanner` and `JSONNumber` code the general scan uses; an
/// unread value fills no field either way); every other byte, keys, separators, whitespace and the
/// other values included, is equal. So it is valid JSON with the same members in the same places
/// (shifted by the lengths of the replaced values), and its field table is the shape's, shifted,
/// with the replaced values read afresh. Anything else (a byte that differs outside a variable value,
/// a variable value of another type or malformed, a different length at the end) is not a match,
/// and the general scan reads the line and gives the verdict, as it would without shapes.
///
/// Learning: after the general scan, a line that decoded to an event becomes the shape of its
/// fingerprint (below), type and member order, replacing the one it refines. A layout (fingerprint and
/// member order) is learned from its second line only, unless a shape of it is held (`admits`): a
/// writer that orders keys anew on every line (Foundation's `JSONEncoder`) then costs the general scan
/// alone, is no miss, and never pushes out the shapes of the writers interleaved with it. A value is
/// variable when it was variable there, when it differs from it for the second time within
/// `changeWindow` lines, or when it has been seen both as a string and as a number; a value that
/// changes once and then stays is the new constant. A line that differs in constants that had been
/// still for a while becomes a second shape beside the one it would refine (`rareChangeLines`). After
/// `refreshInterval` matches a shape is learned again from its next matched line, and the variable
/// values equal to its own become constants again. While lines keep missing (more than a third of a
/// block of 256 lines) matching and learning rest for a while, so varied input costs little more than
/// the general scan alone. Lines of a session whose keys come in a new order on every line are
/// neither learned nor counted as misses (`admits`, and `learn` for an order seen twice by chance).
/// Lines whose fields their set holds in `maxOrdersOfOneLayout` other orders already (a fixed envelope
/// and a hash map of properties) are not learned, every other one a miss (`holdsOtherOrdersEnough`). Lines with the
/// same fields in the same order but other unread members among them (an SDK's `sdk` or `seq`) are
/// layouts of their own (`skeleton`), not refinements of each other. A line of a new session that is
/// learned carries the other shapes of the session before over to its session (`carrySessionTexts`),
/// so that its other layouts do not each miss once.
///
/// Trying: first the shape matched or learned last (runs of one layout cost no more), unless its lines
/// seldom follow one another (`comesInRuns`). Then a line's
/// `LineFingerprint` (its head, the first key and the separator after it, and its `type` value) names
/// one of `sets` sets of `ways` shapes; only the shapes of that set with the same fingerprint are
/// tried, most recently matched first, so that interleaved writers each keep their
/// own shapes and finding them costs a hash and a few comparisons, not a walk over all of them. Which
/// shape matches changes only what is learned, never the line's fields (see above), and so does the
/// fingerprint: a line whose fingerprint names no shape of its layout is a miss, as any other. While a
/// set's first tries keep failing (several layouts of one head and type, their sessions interleaved:
/// a log `import` wrote from several SDKs' exports puts the same envelope first on every line), the
/// shape the line's session last matched with that fingerprint is tried first (`sessionShapes`), and a
/// session whose last such line neither matched nor was learned is not tried further. A shape
/// keeps its type's `EventKind` and the set of its fields, so that the decoder neither looks the kind
/// up again nor clears more of the field table than the last line set; and the common texts
/// (`session`, `device`, …) that are constant and plain, as the decoder would make them, so that it
/// reads only the others from the line (`sharedTextsOfLatestMatch`).
struct LineShapes {
    /// Shapes kept: `ways` in each of `sets` sets, each set's most recently matched first.
    static let capacity = StateLayout.ShapeOrder.count
    static let sets = StateLayout.SetUsed.count
    static let ways = capacity / sets
    /// Longer lines are not learned: a shape keeps a copy of its line.
    static let maxLineLength = ShapeLayout.LineBytes.count
    static let maxVariables = ShapeLayout.Variables.count
    /// Lines with more unread scalar members than this are not learned.
    static let maxUnreadValues = StateLayout.UnreadValues.count / 2
    /// Unread containers whose place the skeleton takes without their bytes; those past them count
    /// with their bytes.
    static let maxUnreadContainers = StateLayout.UnreadContainers.count / 2

    /// One allocation: the state (`StateLayout`), then the shapes at a fixed stride, each a
    /// `ShapeLayout`. Read and written through raw offsets (`State`, `Shape`) that `MemoryLayout`
    /// derives from those structs, constants at compile time: the hot loops load single words at fixed
    /// places and never copy a struct.
    private let storage: UnsafeMutableRawPointer

    /// One slot per field a `FieldMask` can name: room for every `EventField` (checked in `init`).
    typealias PerField<Element> = InlineArray<64, Element>

    /// The state before the shapes.
    private struct StateLayout {
        typealias ShapeOrder = InlineArray<512, UInt8>
        typealias SetUsed = InlineArray<64, UInt8>
        typealias UnreadValues = InlineArray<16, Int32>
        typealias UnreadContainers = InlineArray<8, Int32>
        typealias Admitted = InlineArray<1024, UInt64>
        typealias OrderKeyCounts = InlineArray<8192, UInt16>
        typealias OrderKeyOrders = InlineArray<8192, UInt64>
        typealias SessionKeys = InlineArray<512, UInt64>
        typealias SessionShapes = InlineArray<16384, UInt32>
        typealias SetMisfires = InlineArray<64, UInt8>
        /// Shapes held.
        var used: Int
        /// Shapes held per set: ways `0..<setUsed[set]` of the set.
        var setUsed: SetUsed
        /// The shape matched or learned last.
        var latest: Int
        /// The shape `matchLine` tries first, before the line's fingerprint: `latest` while its lines
        /// tend to follow one another (`comesInRuns`), else `noFirstTry`; `noShapeHeld` before any
        /// shape is.
        var firstTry: Int
        /// Lines missed in the current block of `blockLines` (see `noteMiss`).
        var blockMisses: Int
        /// Lines still to pass before matching is tried again.
        var resting: Int
        /// Lines matched (for `noteMiss`'s blocks, and tests).
        var matched: Int
        /// Per set, its ways, most recently matched first.
        var order: ShapeOrder
        /// The value of `matched` when the current block began.
        var blockMatchedStart: Int
        /// 1 when the shape matched last is due to be refreshed from its next line that decodes to an
        /// event (see `refreshInterval`).
        var refreshDue: Int
        /// The shift after each variable value of the line being matched (`maxVariables + 1`).
        var shifts: InlineArray<17, Int>
        /// Fingerprints of the sessions whose shapes were last carried over to another (see
        /// `carrySessionTexts`), and where the next one goes.
        var carriedFrom: InlineArray<4, UInt64>
        var carriedFromNext: Int
        /// Signatures of layouts seen once (see `admits`), each at the place its top bits name.
        var admitted: Admitted
        /// Learning's scratch: per field, when its value last changed; then the fields in line order.
        var changes: PerField<Int32>
        var members: PerField<UInt8>
        /// Learning's scratch: pairs of where the values of the line's unread scalar members start and
        /// end (`unreadValues`), at most `maxUnreadValues`.
        var unreadValues: UnreadValues
        /// Learning's scratch: pairs of where the values of the line's first unread containers start
        /// and end (`unreadValues`), at most `maxUnreadContainers`, for the skeleton.
        var unreadContainers: UnreadContainers
        /// `JSONNumber.powersOfTen`, copied: read through the storage pointer, in a register anyway.
        var powersOfTen: InlineArray<24, Double>
        /// The session of the last line whose keys came in a new order (see `learn`), and its length,
        /// 0 when none.
        var shuffledSession: InlineArray<64, UInt8>
        var shuffledSessionLength: Int
        /// The fingerprint `matchLine` computed for the line it was last called for, the line's address
        /// and where its `type` value starts (`LineFingerprint.withTypeValueStart`); the address is 0
        /// when that call computed none. Learning that line reuses it (`fingerprintForLearning`).
        var triedLine: Int
        var triedFingerprint: UInt64
        var triedTypeValueStart: Int
        /// That line's session and fingerprint, hashed, when the call looked them up in
        /// `sessionShapes`, else 0 (never 0 otherwise).
        var triedSession: UInt64
        /// Per session and fingerprint (`triedSession`'s hash), at the place its top bits name: its
        /// low 16 bits, then the shape the session's last line of that fingerprint looked up matched
        /// or was learned into (its index plus one), or `sessionMissed` when that line matched none
        /// and learning turned it away as a layout seen once (`admits`) or in a new order
        /// (`comesInANewKeyOrder`, `holdsOtherOrdersEnough`); a line not learned for another reason
        /// (a rest, its length, its values) leaves the entry as it was (see `sessionShape`). Entries
        /// are written only for lines that looked their session up.
        var sessionShapes: SessionShapes
        /// Per set, how many more of its lines' first tries failed than matched (0 to 15). Only the
        /// set's own first try counts: while the session's shape matches first, the count stays.
        var setMisfires: SetMisfires
        /// Per place of `orderKeyPlace`, how many held shapes' keys fall there (see
        /// `hasShapeInAnotherOrder`).
        var orderKeyCounts: OrderKeyCounts
        /// Per place, the wrapping sum of those shapes' member orders (`MemberOrder.of`).
        var orderKeyOrders: OrderKeyOrders
        /// Per shape, by its index: the fingerprint of its line's `session` value when that is a plain
        /// string, else 0 (`noteOrderKey` keeps it). A new session's carrying (`carrySessionTexts`)
        /// looks only at the shapes whose word here is the session before's, one word a shape, rather
        /// than at every held shape's field table and bytes.
        var sessionKeys: SessionKeys
    }

    /// Byte offsets of `StateLayout`'s members in the storage.
    private enum State {
        static var used: Int { MemoryLayout<StateLayout>.offset(of: \.used)! }
        static var blockMisses: Int { MemoryLayout<StateLayout>.offset(of: \.blockMisses)! }
        static var resting: Int { MemoryLayout<StateLayout>.offset(of: \.resting)! }
        static var matched: Int { MemoryLayout<StateLayout>.offset(of: \.matched)! }
        static var order: Int { MemoryLayout<StateLayout>.offset(of: \.order)! }
        static var blockMatchedStart: Int { MemoryLayout<StateLayout>.offset(of: \.blockMatchedStart)! }
        static var refreshDue: Int { MemoryLayout<StateLayout>.offset(of: \.refreshDue)! }
        static var shifts: Int { MemoryLayout<StateLayout>.offset(of: \.shifts)! }
        static var carriedFrom: Int { MemoryLayout<StateLayout>.offset(of: \.carriedFrom)! }
        static var carriedFromNext: Int { MemoryLayout<StateLayout>.offset(of: \.carriedFromNext)! }
        static var carriedFromCount: Int { InlineArray<4, UInt64>.count }
        static var admitted: Int { MemoryLayout<StateLayout>.offset(of: \.admitted)! }
        static var admittedCount: Int { StateLayout.Admitted.count }
        static var setUsed: Int { MemoryLayout<StateLayout>.offset(of: \.setUsed)! }
        static var latest: Int { MemoryLayout<StateLayout>.offset(of: \.latest)! }
        static var firstTry: Int { MemoryLayout<StateLayout>.offset(of: \.firstTry)! }
        static var changes: Int { MemoryLayout<StateLayout>.offset(of: \.changes)! }
        static var members: Int { MemoryLayout<StateLayout>.offset(of: \.members)! }
        static var unreadValues: Int { MemoryLayout<StateLayout>.offset(of: \.unreadValues)! }
        static var unreadContainers: Int { MemoryLayout<StateLayout>.offset(of: \.unreadContainers)! }
        static var powersOfTen: Int { MemoryLayout<StateLayout>.offset(of: \.powersOfTen)! }
        static var shuffledSession: Int { MemoryLayout<StateLayout>.offset(of: \.shuffledSession)! }
        static var shuffledSessionLength: Int { MemoryLayout<StateLayout>.offset(of: \.shuffledSessionLength)! }
        static var maxShuffledSession: Int { InlineArray<64, UInt8>.count }
        static var triedLine: Int { MemoryLayout<StateLayout>.offset(of: \.triedLine)! }
        static var triedFingerprint: Int { MemoryLayout<StateLayout>.offset(of: \.triedFingerprint)! }
        static var triedTypeValueStart: Int { MemoryLayout<StateLayout>.offset(of: \.triedTypeValueStart)! }
        static var triedSession: Int { MemoryLayout<StateLayout>.offset(of: \.triedSession)! }
        static var sessionShapes: Int { MemoryLayout<StateLayout>.offset(of: \.sessionShapes)! }
        static var sessionShapeCount: Int { StateLayout.SessionShapes.count }
        static var setMisfires: Int { MemoryLayout<StateLayout>.offset(of: \.setMisfires)! }
        static var orderKeyCounts: Int { MemoryLayout<StateLayout>.offset(of: \.orderKeyCounts)! }
        static var orderKeyPlaces: Int { StateLayout.OrderKeyCounts.count }
        static var orderKeyOrders: Int { MemoryLayout<StateLayout>.offset(of: \.orderKeyOrders)! }
        static var sessionKeys: Int { MemoryLayout<StateLayout>.offset(of: \.sessionKeys)! }
        /// Where the shapes begin: after the state, on a cache line of their own.
        static var shapes: Int { (MemoryLayout<StateLayout>.size + 63) & ~63 }
    }

    /// One shape.
    private struct ShapeLayout {
        typealias Variables = InlineArray<16, VariableEntry>
        typealias LineBytes = InlineArray<1024, UInt8>
        /// The length of the shape's line.
        var length: Int32
        var variableCount: Int32
        /// The constants a match writes to the field table: all but the shared texts'.
        var constantCount: Int32
        /// Where the run after the last variable value starts.
        var finalRun: Int32
        /// The number of fields present, and the fields in line order.
        var memberCount: Int32
        var memberFields: PerField<UInt8>
        /// Lines this shape and the shapes it refined have read, matched or learned.
        var lines: Int32
        /// Matches left before the shape is refreshed (see `refreshInterval`).
        var matchesLeft: Int32
        /// Of `lines`, those matched after a line of another shape (not as the shape matched last):
        /// whether the shape's lines come in runs or interleaved with other layouts' (`comesInRuns`).
        var interleavedLines: Int32
        /// Bit `field.rawValue` set for each variable field.
        var variableFields: FieldMask
        /// Per field: the value of `lines` when the field's value last changed.
        var lastChanges: PerField<Int32>
        /// Bit `field.rawValue` set for each field whose value has been seen both as a string and as a
        /// number (a `ts` written either way): read as `Mode.either`.
        var eitherFields: FieldMask
        /// The `LineFingerprint` of the shape's line: only lines with the same one are tried against it.
        var fingerprint: UInt64
        /// The fingerprint and the fields in line order, hashed (`layoutSignature`), for `admits`.
        var layoutSignature: UInt64
        /// The line's bytes outside its fields' and unread scalars' values, hashed (`skeleton`).
        var skeleton: UInt64
        /// The kind of the shape's `type`, nil for an escaped name. Stored as the optional itself, so that
        /// reading it back is a load, not a call to `EventKind(rawValue:)`.
        var kind: EventKind?
        /// Bit `field.rawValue` set for each field the shape's line has.
        var memberMask: FieldMask
        var variables: Variables
        var constants: PerField<ConstantEntry>
        /// The field table of the shape's line, for learning.
        var fieldTable: PerField<FieldValue>
        /// The line's bytes.
        var bytes: LineBytes
        /// The common texts (`EventField.commonTexts`) that every line of the shape has as its line has
        /// them: constant, and inline or absent.
        var sharedTexts: InlineTexts
        /// Bit `field.rawValue` set for each common text field that is not in `sharedTexts` (a variable
        /// value, or one escaped or over 16 bytes), which the decoder reads from each line.
        var lineTextFields: FieldMask
        /// The constants of the shared texts, stored after the others: a match leaves them out of the
        /// field table (the decoder does not read them), and `refresh` writes them for learning.
        var sharedTextConstantCount: Int32
        /// The place its key was counted at (`noteOrderKey`), and its member order counted with it.
        var orderKeyPlace: Int32
        var orderKeyMemberOrder: UInt64
    }

    /// A variable value of a shape.
    private struct VariableEntry {
        /// Where the run before the value starts, where the value starts and ends.
        var runStart: Int32
        var start: Int32
        var end: Int32
        /// The field (`unreadField` for a `Mode.skip` value) and how to read the value (`Mode`).
        var field: UInt8
        var mode: UInt8
    }

    /// A constant value of a shape, as the field table has it.
    private struct ConstantEntry {
        /// The field's `FieldValue` in the shape's line, its number value, the field, and how many
        /// variable values come before it (the shift that applies).
        var value: FieldValue
        var number: Double
        var field: UInt8
        var variablesBefore: UInt8
    }

    /// Byte offsets of `ShapeLayout`'s members within a shape, and of the entries' members.
    private enum Shape {
        static var length: Int { MemoryLayout<ShapeLayout>.offset(of: \.length)! }
        static var variableCount: Int { MemoryLayout<ShapeLayout>.offset(of: \.variableCount)! }
        static var constantCount: Int { MemoryLayout<ShapeLayout>.offset(of: \.constantCount)! }
        static var finalRun: Int { MemoryLayout<ShapeLayout>.offset(of: \.finalRun)! }
        static var memberCount: Int { MemoryLayout<ShapeLayout>.offset(of: \.memberCount)! }
        static var memberFields: Int { MemoryLayout<ShapeLayout>.offset(of: \.memberFields)! }
        static var lines: Int { MemoryLayout<ShapeLayout>.offset(of: \.lines)! }
        static var matchesLeft: Int { MemoryLayout<ShapeLayout>.offset(of: \.matchesLeft)! }
        static var interleavedLines: Int { MemoryLayout<ShapeLayout>.offset(of: \.interleavedLines)! }
        static var variableFields: Int { MemoryLayout<ShapeLayout>.offset(of: \.variableFields)! }
        static var lastChanges: Int { MemoryLayout<ShapeLayout>.offset(of: \.lastChanges)! }
        static var eitherFields: Int { MemoryLayout<ShapeLayout>.offset(of: \.eitherFields)! }
        static var fingerprint: Int { MemoryLayout<ShapeLayout>.offset(of: \.fingerprint)! }
        static var layoutSignature: Int { MemoryLayout<ShapeLayout>.offset(of: \.layoutSignature)! }
        static var skeleton: Int { MemoryLayout<ShapeLayout>.offset(of: \.skeleton)! }
        static var kind: Int { MemoryLayout<ShapeLayout>.offset(of: \.kind)! }
        static var memberMask: Int { MemoryLayout<ShapeLayout>.offset(of: \.memberMask)! }
        static var variables: Int { MemoryLayout<ShapeLayout>.offset(of: \.variables)! }
        static var variableStride: Int { MemoryLayout<VariableEntry>.stride }
        static var constants: Int { MemoryLayout<ShapeLayout>.offset(of: \.constants)! }
        static var constantStride: Int { MemoryLayout<ConstantEntry>.stride }
        static var fieldTable: Int { MemoryLayout<ShapeLayout>.offset(of: \.fieldTable)! }
        static var bytes: Int { MemoryLayout<ShapeLayout>.offset(of: \.bytes)! }
        static var sharedTexts: Int { MemoryLayout<ShapeLayout>.offset(of: \.sharedTexts)! }
        static var lineTextFields: Int { MemoryLayout<ShapeLayout>.offset(of: \.lineTextFields)! }
        static var sharedTextConstantCount: Int { MemoryLayout<ShapeLayout>.offset(of: \.sharedTextConstantCount)! }
        static var orderKeyPlace: Int { MemoryLayout<ShapeLayout>.offset(of: \.orderKeyPlace)! }
        static var orderKeyMemberOrder: Int { MemoryLayout<ShapeLayout>.offset(of: \.orderKeyMemberOrder)! }
        /// Shapes start on cache lines.
        static var stride: Int { (MemoryLayout<ShapeLayout>.size + 63) & ~63 }

        static var variableRunStart: Int { MemoryLayout<VariableEntry>.offset(of: \.runStart)! }
        static var variableStart: Int { MemoryLayout<VariableEntry>.offset(of: \.start)! }
        static var variableEnd: Int { MemoryLayout<VariableEntry>.offset(of: \.end)! }
        static var variableField: Int { MemoryLayout<VariableEntry>.offset(of: \.field)! }
        static var variableMode: Int { MemoryLayout<VariableEntry>.offset(of: \.mode)! }
        static var constantValue: Int { MemoryLayout<ConstantEntry>.offset(of: \.value)! }
        static var constantNumber: Int { MemoryLayout<ConstantEntry>.offset(of: \.number)! }
        static var constantField: Int { MemoryLayout<ConstantEntry>.offset(of: \.field)! }
        static var constantVariablesBefore: Int { MemoryLayout<ConstantEntry>.offset(of: \.variablesBefore)! }
    }

    private static let restingLines = 4096

    /// How a variable value is read.
    private enum Mode {
        /// A string; the run before it ends with its opening quote, the next begins with its closing one.
        static var string: UInt8 { 0 }
        static var number: UInt8 { 1 }
        /// A string or a number: the quotes are part of the value, not of the runs around it.
        static var either: UInt8 { 2 }
        /// The value of a member no field reads (a writer's own sequence number, say): any valid JSON
        /// value, quotes included, validated and skipped; its field byte is `unreadField`.
        static var skip: UInt8 { 3 }
    }

    /// The field byte of a `Mode.skip` value, which fills no field.
    private static let unreadField: UInt8 = 0xFF

    private static let blockLines = 256
    /// A value that changed within this many lines of a shape stays variable when the shape is
    /// learned again: a variable value is cheap to read, a miss costs a general scan.
    private static let changeWindow: Int32 = 64
    /// A shape is refreshed after this many matches: learned again from its next line that decodes to
    /// an event, with every variable value that equals the shape's own made a constant again. Without
    /// it, a shape whose values have each changed twice in a short while (a few short sessions in a
    /// row, a screen left and come back to) would read every value for the rest of the log, never
    /// missing and so never learning that most are constant again. Refreshing in place rather than
    /// dropping the shape keeps the values that do change (`ts`, `id`, `x`, `y`) variable, so the
    /// lines after a refresh still match.
    private static let refreshInterval: Int32 = 512

    /// Forking shapes: a value that changes now and then, in clusters (a touch's target and input on a
    /// tap on a button and back to the canvas; the screen), would be made variable by the second-change
    /// rule and read on every line until a refresh, mostly to find the same value. When a line differs
    /// from its shape in constants that had not changed for at least `rareChangeLines` of the shape's
    /// lines (and the shape has read `forkingAfter` lines), it becomes a shape of its own beside it,
    /// those values constants in both, and lines then match one or the other. With `maxSiblings`
    /// shapes of its type and members held, the least recently matched other one makes way (with all
    /// `capacity` shapes held and no other of its kind, the least recently matched shape, which may
    /// be the one it forks from). A value that changes more often (`ts`, `id`, `x`, `y`, `phase`) is
    /// made variable as before. A value that changes once for good after a long while (a new
    /// session's) forks too, and the old shape stays until it makes way: a failed try on misses.
    ///
    /// A refresh that makes a variable value constant again counts it as changed there, its changes
    /// while variable being unseen, so that a value changing every few lines is variable again at its
    /// next change. One still for longer (`phase` through a long stroke) can be taken for a rare one:
    /// the shapes then fork on it, crowd out the other layout, and the old rule takes over until the
    /// next refresh (two fifths of the stroke lines of `LineShapeTests.valuesChangingInClustersForkShapes`).
    ///
    /// No shape forks whose `session` is variable and whose lines come interleaved with other shapes'
    /// (not `comesInRuns`): where devices' lines are interleaved line by line (an upload of a fleet,
    /// each device's SDK its own writer), the lines of two siblings alternate as the sessions of each
    /// take turns, and a line is tried first against whichever sibling matched last: a try that reads
    /// every value up to the forked one and fails, on about every other line, where a variable value
    /// costs one reading. One session's layouts written in turn still fork (a stray line of the
    /// session before must not take the shape its session's lines match).
    ///
    /// The settings that decoded fastest among those tried (figures: Tests/Benchmarks/README.md, "Decoder choices").
    private static let rareChangeLines: Int32 = 4
    private static let forkingAfter: Int32 = 64
    private static let maxSiblings = 2

    /// Whether a shape's lines come in runs: more than a quarter of the lines of its lineage (`lines`)
    /// followed a line of the same shape, that is, were not matched after another shape's line
    /// (`interleavedLines`). Then the next line is worth trying against it before its fingerprint is
    /// made (`StateLayout.firstTry`): the lines that follow one of a shape are about as many as the
    /// lines that follow one, and a try that fails costs a fraction of the fingerprint and search that
    /// a hit spares. And then it may fork (`rareChangeLines`), as may one of a single session.
    @inline(__always)
    private static func comesInRuns(lines: Int32, interleavedLines: Int32) -> Bool {
        Int64(interleavedLines) &* 4 <= Int64(lines) &* 3
    }

    /// `StateLayout.firstTry` when the shape matched last is not tried first, and before any shape is
    /// held.
    private static let noFirstTry = -1
    private static let noShapeHeld = -2

    /// Without `holdsShapes` only the state is allocated: no shape is ever learned then (`used` stays
    /// 0, so nothing matches), and `learn` must not be called.
    init(holdsShapes: Bool) {
        // The layouts hold what they are sized for; `MemoryLayout` places and aligns the rest.
        precondition(
            EventField.count <= PerField<UInt8>.count && PerField<UInt8>.count <= FieldMask.bitWidth
                && InlineArray<17, Int>.count == Self.maxVariables + 1
                && MemoryLayout<InlineArray<24, Double>>.size >= JSONNumber.powersOfTenByteCount
                && Self.ways <= 256 && Self.capacity % Self.sets == 0 && Self.sets.nonzeroBitCount == 1
                && State.admittedCount.nonzeroBitCount == 1 && State.orderKeyPlaces.nonzeroBitCount == 1
                && Self.capacity <= Int(UInt16.max) && StateLayout.SessionKeys.count == Self.capacity
                && State.sessionShapeCount.nonzeroBitCount == 1 && Self.capacity < Self.sessionMissed,
            "LineShapes layout too small")
        let byteCount = State.shapes + (holdsShapes ? Self.capacity * Shape.stride : 0)
        storage = .allocate(byteCount: byteCount, alignment: 64)
        // Only the state is zeroed: a shape is written whole (`store`) before it is held, and only
        // held shapes are read. Zeroing all of them (~2.5 MB) cost more than a small input's matching.
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: State.shapes)
        storage.storeBytes(of: Self.noShapeHeld, toByteOffset: State.firstTry, as: Int.self)
        for index in 0..<Self.capacity {
            storage.storeBytes(of: UInt8(index % Self.ways), toByteOffset: State.order &+ index, as: UInt8.self)
        }
        // The two scratch regions used through typed pointers.
        _ = (storage + State.shifts).bindMemory(to: Int.self, capacity: Self.maxVariables + 1)
        _ = (storage + State.changes).bindMemory(to: Int32.self, capacity: EventField.count)
        (storage + State.powersOfTen).copyMemory(from: JSONNumber.powersOfTen, byteCount: JSONNumber.powersOfTenByteCount)
    }

    /// Frees the storage; the owner calls it exactly once.
    func deallocate() {
        storage.deallocate()
    }

    private var used: Int {
        get { storage.load(fromByteOffset: State.used, as: Int.self) }
        nonmutating set { storage.storeBytes(of: newValue, toByteOffset: State.used, as: Int.self) }
    }

    @inline(__always)
    private func shape(_ index: Int) -> UnsafeMutableRawPointer {
        storage + (State.shapes &+ index &* Shape.stride)
    }

    /// The index of the shape at `rank` in its set's order.
    @inline(__always)
    private func index(set: Int, rank: Int) -> Int {
        set &* Self.ways &+ Int(storage.load(fromByteOffset: State.order &+ set &* Self.ways &+ rank, as: UInt8.self))
    }

    /// The shape matched or learned last.
    @inline(__always)
    private var latestShape: UnsafeMutableRawPointer {
        shape(storage.load(fromByteOffset: State.latest, as: Int.self))
    }

    /// Whether a shape held satisfies `test`, the shapes taken set by set; stops at the first that does.
    @inline(__always)
    private func anyHeldShape(_ test: (UnsafeMutableRawPointer) -> Bool) -> Bool {
        for set in 0..<Self.sets {
            let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
            for way in 0..<setUsed where test(shape(set &* Self.ways &+ way)) { return true }
        }
        return false
    }

    // MARK: Matching

    /// Fills `fields` and `numbers` for the `count` bytes at `base` from a shape they match, and says
    /// whether one did. A match sets every field of the shape (`membersOfLatestMatch`) but its shared
    /// texts (`sharedTextsOfLatestMatch`), which the decoder takes from the shape, and no other; the caller
    /// makes the others absent. When none matched, the fields set while trying are absent
    /// again, and the others as they were.
    @inline(__always)
    func match(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>
    ) -> Bool {
        matchLine(base, bytes: count, lengthKnown: true, fields: fields, numbers: numbers) >= 0
    }

    /// `match` for a line whose end is not known yet: `readable` bytes at `base` may be read, and the
    /// line is what a shape covers if `\n` or `\r\n` follows it there. Returns the line's length
    /// (without its terminator), or nil when no shape matched.
    ///
    /// This lets the line splitter leave finding the `\n` (`memchr`) to the match, which passes over
    /// the line anyway. A match means the same as with the length known: no
    /// byte before the terminator it found is a `\n` (the shape's runs come from a line, and variable
    /// values are strings, which may not hold a raw control character, or numbers), so the line the
    /// splitter would have cut ends there too. A `\n` after a `\r` that the shape covers is not taken:
    /// the splitter strips that `\r`, so the line would be one byte shorter than the match.
    @inline(__always)
    func matchLeadingLine(
        _ base: UnsafePointer<UInt8>, readable: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>
    ) -> Int? {
        let length = matchLine(base, bytes: readable, lengthKnown: false, fields: fields, numbers: numbers)
        return length >= 0 ? length : nil
    }

    /// `match` and `matchLeadingLine`: the length of the matched line, or -1. With `lengthKnown`, `bytes`
    /// is the line's length; without, how many bytes may be read.
    ///
    /// Out of line: inlined into the decoder, it competed with the rest for registers.
    @inline(never)
    private func matchLine(
        _ base: UnsafePointer<UInt8>, bytes count: Int, lengthKnown: Bool, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>
    ) -> Int {
        storage.storeBytes(of: 0, toByteOffset: State.triedLine, as: Int.self)
        storage.storeBytes(of: 0, toByteOffset: State.triedSession, as: UInt64.self)
        // The rest counts down first: a rest may begin before any shape is held (the first lines of a
        // log unfit to learn), and would otherwise never end.
        let resting = storage.load(fromByteOffset: State.resting, as: Int.self)
        if resting > 0 {
            storage.storeBytes(of: resting &- 1, toByteOffset: State.resting, as: Int.self)
            return -1
        }
        // First the shape matched or learned last (first in its set): a log read device by device
        // repeats a layout for runs of lines, and this costs no fingerprint. Not when its lines seldom
        // follow one another (`firstTry`): then the line most likely has another layout.
        let latest = storage.load(fromByteOffset: State.firstTry, as: Int.self)
        if latest >= 0 {
            let latestShape = shape(latest)
            if matches(latestShape, base, count: count, lengthKnown: lengthKnown, fields: fields, numbers: numbers) {
                noteMatch(latestShape, index: latest, set: 0, rank: 0)
                return matchedLength(latestShape)
            }
        } else if latest == Self.noShapeHeld {
            return -1
        }
        // Then the other shapes of the line's fingerprint, in its set, most recently matched first.
        let (fingerprint, typeValueStart) = LineFingerprint.withTypeValueStart(base, limit: count)
        storage.storeBytes(of: Int(bitPattern: base), toByteOffset: State.triedLine, as: Int.self)
        storage.storeBytes(of: fingerprint, toByteOffset: State.triedFingerprint, as: UInt64.self)
        storage.storeBytes(of: typeValueStart, toByteOffset: State.triedTypeValueStart, as: Int.self)
        let set = Self.set(of: fingerprint)
        let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
        // While the set's first tries keep failing (`sessionMisfires`), the shape the line's session
        // matched last is tried once (see `sessionShape`): first, or after the set's first try.
        let misfireOffset = State.setMisfires &+ set
        var misfires = storage.load(fromByteOffset: misfireOffset, as: UInt8.self)
        var sessionLooked = false
        var sessionTried = -1
        if misfires >= Self.sessionMisfires {
            sessionLooked = true
            let found = trySessionShape(
                base, count: count, lengthKnown: lengthKnown, fields: fields, numbers: numbers, set: set,
                fingerprint: fingerprint, tried: latest, sessionTried: &sessionTried)
            if found != Self.goOn { return found }
        }
        var firstCandidate = true
        var rank = 0
        while rank < setUsed {
            let index = self.index(set: set, rank: rank)
            let candidate = shape(index)
            if index != latest, index != sessionTried,
                candidate.load(fromByteOffset: Shape.fingerprint, as: UInt64.self) == fingerprint
            {
                if matches(candidate, base, count: count, lengthKnown: lengthKnown, fields: fields, numbers: numbers) {
                    if firstCandidate { noteFirstTry(hit: true, misfires: misfires, at: misfireOffset) }
                    return matched(candidate, index: index, set: set, rank: rank)
                }
                if firstCandidate {
                    firstCandidate = false
                    misfires = noteFirstTry(hit: false, misfires: misfires, at: misfireOffset)
                }
                if !sessionLooked, misfires >= Self.sessionMisfires {
                    sessionLooked = true
                    let found = trySessionShape(
                        base, count: count, lengthKnown: lengthKnown, fields: fields, numbers: numbers, set: set,
                        fingerprint: fingerprint, tried: index, sessionTried: &sessionTried)
                    if found != Self.goOn { return found }
                }
            }
            rank &+= 1
        }
        return -1
    }

    /// Tries the shape the line's session matched last (see `sessionShape`): the matched line's
    /// length, -1 when the session's last line matched no shape, or `goOn` to try the set's others.
    /// Out of line: the hot loop of `matchLine` keeps its own `matches` inlined.
    @inline(never)
    private func trySessionShape(
        _ base: UnsafePointer<UInt8>, count: Int, lengthKnown: Bool, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>, set: Int, fingerprint: UInt64, tried: Int, sessionTried: inout Int
    ) -> Int {
        let other = sessionShape(base, count: count, set: set, fingerprint: fingerprint, tried: tried)
        if other == Self.sessionMissed { return -1 }
        guard other >= 0 else { return Self.goOn }
        sessionTried = other
        let candidate = shape(other)
        guard matches(candidate, base, count: count, lengthKnown: lengthKnown, fields: fields, numbers: numbers) else {
            return Self.goOn
        }
        return matched(candidate, index: other, set: set, rank: rank(of: other, set: set))
    }

    private static let goOn = -2

    /// Counts a line's first try in its set (see `StateLayout.setMisfires`); the new count.
    @inline(__always)
    @discardableResult
    private func noteFirstTry(hit: Bool, misfires: UInt8, at offset: Int) -> UInt8 {
        let next = hit ? (misfires > 0 ? misfires &- 1 : 0) : (misfires < 15 ? misfires &+ 1 : 15)
        storage.storeBytes(of: next, toByteOffset: offset, as: UInt8.self)
        return next
    }

    /// The shape the line's session matched last (see `sessionShapes`) when it is worth a try (held in
    /// the line's set, of its fingerprint, neither `tried` nor tried first), `sessionMissed` when the
    /// session's last line matched no shape, else -1; notes the session for learning. Sessions whose
    /// ids share their first 16 bytes share an entry: a hint, so only what is tried changes. Where the
    /// line's end is not known yet (`matchLeadingLine`), a line without a `session` key may take the
    /// next line's; a hint all the same.
    @inline(__always)
    private func sessionShape(
        _ base: UnsafePointer<UInt8>, count: Int, set: Int, fingerprint: UInt64, tried: Int
    ) -> Int {
        let sessionHash = LineFingerprint.session(base, limit: min(count, LineFingerprint.searchLimit))
        guard sessionHash != 0 else { return -1 }
        // The session's lines of this fingerprint: its other types' lines have shapes of their own.
        var session = (sessionHash ^ fingerprint) &* 0x9E37_79B9_7F4A_7C15
        session ^= session >> 31
        session |= 1
        storage.storeBytes(of: session, toByteOffset: State.triedSession, as: UInt64.self)
        let entry = sessionEntry(session)
        if entry == Self.sessionMissed { return Self.sessionMissed }
        guard entry > 0 else { return -1 }
        let other = entry &- 1
        let way = other &- set &* Self.ways
        guard other != tried, other != storage.load(fromByteOffset: State.firstTry, as: Int.self), way >= 0,
            way < Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self)),
            shape(other).load(fromByteOffset: Shape.fingerprint, as: UInt64.self) == fingerprint
        else { return -1 }
        return other
    }

    /// A set whose first tries failed on this many more lines than they matched, lately, looks the
    /// session's shape up (first, and after the first failure): where first tries seldom fail, the
    /// search costs more than the tries it spares.
    private static let sessionMisfires: UInt8 = 12

    /// A match of `candidate` (at `rank` in `set`) found in its set: noted, the session's shape
    /// remembered, and whether it is tried first next; the matched line's length.
    @inline(__always)
    private func matched(_ candidate: UnsafeMutableRawPointer, index: Int, set: Int, rank: Int) -> Int {
        // Interleaved only after another shape's line: with `firstTry` off, a line of the shape
        // matched last comes here too, and counting it would keep the shape from ever being
        // tried first again, however long the run of its lines that follows.
        var interleaved = candidate.load(fromByteOffset: Shape.interleavedLines, as: Int32.self)
        if index != storage.load(fromByteOffset: State.latest, as: Int.self) {
            interleaved &+= 1
            candidate.storeBytes(of: interleaved, toByteOffset: Shape.interleavedLines, as: Int32.self)
        }
        noteMatch(candidate, index: index, set: set, rank: rank)
        let lines = candidate.load(fromByteOffset: Shape.lines, as: Int32.self)
        storage.storeBytes(
            of: Self.comesInRuns(lines: lines, interleavedLines: interleaved) ? index : Self.noFirstTry,
            toByteOffset: State.firstTry, as: Int.self)
        rememberSession(entry: index &+ 1)
        return matchedLength(candidate)
    }

    /// The rank of the shape `index`, held in `set`, in its set's order.
    private func rank(of index: Int, set: Int) -> Int {
        let way = UInt8(truncatingIfNeeded: index &- set &* Self.ways)
        var rank = 0
        while rank < Self.ways &- 1,
            storage.load(fromByteOffset: State.order &+ set &* Self.ways &+ rank, as: UInt8.self) != way
        {
            rank &+= 1
        }
        return rank
    }

    /// `sessionShapes`' entry for a session hash: the shape index plus one, `sessionMissed`, or 0 when
    /// the place holds no entry of it.
    @inline(__always)
    private func sessionEntry(_ session: UInt64) -> Int {
        let word = storage.load(fromByteOffset: Self.sessionPlace(session), as: UInt32.self)
        guard word &>> 16 == UInt32(truncatingIfNeeded: session & 0xFFFF) else { return 0 }
        return Int(word & 0xFFFF)
    }

    @inline(__always)
    private static func sessionPlace(_ session: UInt64) -> Int {
        let place = Int(truncatingIfNeeded: session &>> UInt64(64 &- State.sessionShapeCount.trailingZeroBitCount))
        return State.sessionShapes &+ place &* MemoryLayout<UInt32>.stride
    }

    /// Notes `entry` (a shape's index plus one, or `sessionMissed`) for the session of the line
    /// `matchLine` looked up last, if it did.
    @inline(__always)
    private func rememberSession(entry: Int) {
        let session = storage.load(fromByteOffset: State.triedSession, as: UInt64.self)
        guard session != 0 else { return }
        storage.storeBytes(
            of: UInt32(truncatingIfNeeded: session & 0xFFFF) &<< 16 | UInt32(truncatingIfNeeded: entry),
            toByteOffset: Self.sessionPlace(session), as: UInt32.self)
    }

    /// `rememberSession`, for the line at `base` that is being learned, when `matchLine` looked its
    /// session up.
    @inline(__always)
    private func rememberSessionOfLine(_ base: UnsafePointer<UInt8>, entry: Int) {
        guard storage.load(fromByteOffset: State.triedLine, as: Int.self) == Int(bitPattern: base) else { return }
        rememberSession(entry: entry)
    }

    /// The `sessionShapes` entry of a session whose last line matched no shape and was not learned.
    private static let sessionMissed = 0xFFFF

    /// The set of the shapes of a fingerprint: its top bits.
    @inline(__always)
    private static func set(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: fingerprint &>> UInt64(64 &- sets.trailingZeroBitCount))
    }

    /// Lines matched so far.
    var matchedLines: Int { storage.load(fromByteOffset: State.matched, as: Int.self) }

    /// Whether the next line is tried first against the shape matched or learned last (see
    /// `comesInRuns`), for tests.
    var triesTheLatestShapeFirst: Bool { storage.load(fromByteOffset: State.firstTry, as: Int.self) >= 0 }

    /// Whether matching is resting after many misses.
    var isResting: Bool { storage.load(fromByteOffset: State.resting, as: Int.self) > 0 }


    /// The kind of the line `match` matched last, as its shape's `type` names it (the line's is the
    /// same bytes), so that the decoder does not look it up again; nil when the name is escaped.
    var kindOfLatestMatch: EventKind? {
        latestShape.load(fromByteOffset: Shape.kind, as: EventKind?.self)
    }


    /// Where the shape `match` matched last keeps the common texts all its lines share (an
    /// `InlineTexts`, to load): those the decoder would read from the line, whose bytes are the shape
    /// line's there, and that line decoded to an event. The decoder starts the line's texts from them.
    /// A pointer, not the value: loaded where the event is built, the texts are copied once.
    var sharedTextsOfLatestMatch: UnsafeRawPointer {
        UnsafeRawPointer(latestShape + Shape.sharedTexts)
    }

    /// The common text fields (bit `field.rawValue` each) not among the shared texts of the shape
    /// `match` matched last: the decoder reads these from the line.
    var lineTextFieldsOfLatestMatch: FieldMask {
        latestShape.load(fromByteOffset: Shape.lineTextFields, as: FieldMask.self)
    }

    /// The fields the line `match` matched last has (bit `field.rawValue` each): the fields it set, and
    /// its shared texts, which it left as they were.
    var membersOfLatestMatch: FieldMask {
        latestShape.load(fromByteOffset: Shape.memberMask, as: FieldMask.self)
    }

    /// Whether every place of `orderKeyPlace` counts the held shapes whose key, as they hold their
    /// fields now, falls there, with the sum of their member orders, and each shape notes that place
    /// (see `noteOrderKey`), for tests.
    var orderKeysAreCounted: Bool {
        var counts = [Int](repeating: 0, count: State.orderKeyPlaces)
        var orders = [UInt64](repeating: 0, count: State.orderKeyPlaces)
        var placesNoted = true
        _ = anyHeldShape { shape in
            let bytes = UnsafeRawPointer(shape + Shape.bytes)
            let place = Self.orderKeyPlace(
                memberMask: shape.load(fromByteOffset: Shape.memberMask, as: FieldMask.self),
                type: Self.fieldValue(shape, EventField.type.rawValue), typeBytes: bytes,
                session: Self.fieldValue(shape, EventField.session.rawValue), sessionBytes: bytes)
            counts[place] += 1
            let memberCount = Int(shape.load(fromByteOffset: Shape.memberCount, as: Int32.self))
            let memberOrder = MemberOrder.of(UnsafeBufferPointer(
                start: UnsafePointer((shape + Shape.memberFields).assumingMemoryBound(to: UInt8.self)), count: memberCount))
            orders[place] &+= memberOrder
            placesNoted = placesNoted && Int(shape.load(fromByteOffset: Shape.orderKeyPlace, as: Int32.self)) == place
            return false
        }
        return placesNoted && counts.indices.allSatisfy {
            counts[$0] == Int(storage.load(fromByteOffset: State.orderKeyCounts &+ $0 &* 2, as: UInt16.self))
                && orders[$0] == storage.load(fromByteOffset: State.orderKeyOrders &+ $0 &* 8, as: UInt64.self)
        }
    }

    /// Whether every held shape's word in `StateLayout.sessionKeys` is its `session` value's as it
    /// holds it now (see `carrySessionTexts`), for tests.
    var sessionKeysAreCurrent: Bool {
        !anyHeldShape { shape in
            storage.load(fromByteOffset: State.sessionKeys &+ shapeIndex(shape) &* 8, as: UInt64.self) != sessionKey(shape)
        }
    }

    /// The fields the most recently matched (or learned) shape reads as variable, for tests.
    var variableFieldsOfLatestShape: Set<EventField> {
        guard used > 0 else { return [] }
        let bits = latestShape.load(fromByteOffset: Shape.variableFields, as: FieldMask.self)
        return Set(EventField.allCases.filter { bits & (1 << $0.rawValue) != 0 })
    }

    @inline(__always)
    private func noteMatch(_ shape: UnsafeMutableRawPointer, index: Int, set: Int, rank: Int) {
        storage.storeBytes(of: matchedLines &+ 1, toByteOffset: State.matched, as: Int.self)
        let lines = shape.load(fromByteOffset: Shape.lines, as: Int32.self)
        shape.storeBytes(of: lines &+ 1, toByteOffset: Shape.lines, as: Int32.self)
        let left = shape.load(fromByteOffset: Shape.matchesLeft, as: Int32.self) &- 1
        shape.storeBytes(of: left, toByteOffset: Shape.matchesLeft, as: Int32.self)
        storage.storeBytes(of: left <= 0 ? 1 : 0, toByteOffset: State.refreshDue, as: Int.self)
        storage.storeBytes(of: index, toByteOffset: State.latest, as: Int.self)
        if rank > 0 { moveToFront(set: set, rank: rank) }
    }

    /// Whether the shape that matched last is due to be refreshed: the decoder then calls `refresh`
    /// once the line has decoded to an event.
    @inline(__always)
    var isRefreshDue: Bool { storage.load(fromByteOffset: State.refreshDue, as: Int.self) != 0 }

    /// Learns the shape that just matched afresh from its line, which `match` read into `fields` and
    /// `numbers` and which decoded to an event: its variable values that are the same as in the
    /// shape's line become constants (see `refreshInterval`). Writes the shared texts' constants into
    /// `fields` first, which the match left out and learning reads.
    func refresh(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafeMutablePointer<FieldValue>,
        numbers: UnsafeMutablePointer<Double>
    ) {
        storage.storeBytes(of: 0, toByteOffset: State.refreshDue, as: Int.self)
        // Learning reads every field, the shared texts' too, which the match left out.
        let latest = latestShape
        let written = Int(latest.load(fromByteOffset: Shape.constantCount, as: Int32.self))
        let shared = Int(latest.load(fromByteOffset: Shape.sharedTextConstantCount, as: Int32.self))
        Self.writeConstants(
            latest, written..<(written &+ shared), shifts: (storage + State.shifts).assumingMemoryBound(to: Int.self),
            fields: fields, numbers: numbers)
        learn(
            base, count: count, fields: fields, numbers: numbers, unreadMembers: true, refreshing: true,
            fingerprint: fingerprintForLearning(base, count: count))
    }

    private func moveToFront(set: Int, rank: Int) {
        let order = (storage + (State.order &+ set &* Self.ways)).assumingMemoryBound(to: UInt8.self)
        let index = order[rank]
        var r = rank
        while r > 0 {
            order[r] = order[r &- 1]
            r &-= 1
        }
        order[0] = index
    }

    /// Whether the line matches the shape at `shape`, its fields then filled in (see `matchLine`).
    /// Returns a `Bool`, not the line's length (`matchedLength`): kept live through the constants' loop,
    /// the length cost that loop a register.
    @inline(__always)
    private func matches(
        _ shape: UnsafeMutableRawPointer, _ base: UnsafePointer<UInt8>, count: Int, lengthKnown: Bool,
        fields: UnsafeMutablePointer<FieldValue>, numbers: UnsafeMutablePointer<Double>
    ) -> Bool {
        let variableCount = Int(shape.load(fromByteOffset: Shape.variableCount, as: Int32.self))
        let bytes = UnsafeRawPointer(shape + Shape.bytes)
        let shifts = (storage + State.shifts).assumingMemoryBound(to: Int.self)
        // A position in the line is the same position in the shape's line plus `shift`.
        var shift = 0
        var i = 0
        while i < variableCount {
            let variable = UnsafeRawPointer(shape + (Shape.variables &+ i &* Shape.variableStride))
            let runStart = Int(variable.load(fromByteOffset: Shape.variableRunStart, as: Int32.self))
            let valueStart = Int(variable.load(fromByteOffset: Shape.variableStart, as: Int32.self))
            let valueAt = valueStart &+ shift
            guard valueAt <= count,
                Self.equal(base + (runStart &+ shift), bytes + runStart, count: valueStart &- runStart)
            else { return Self.unmatched(shape, variablesFilled: i, fields: fields) }
            let field = Int(variable.load(fromByteOffset: Shape.variableField, as: UInt8.self))
            let mode = variable.load(fromByteOffset: Shape.variableMode, as: UInt8.self)
            let end: Int
            if mode == Mode.string {
                let escaped: Bool
                if let quote = JSONScanner.plainStringEnd(base, from: valueAt, end: count) {
                    end = quote
                    escaped = false
                } else if let found = Self.stringEnd(base, from: valueAt, count: count) {
                    end = found.quote
                    escaped = found.escaped
                } else {
                    return Self.unmatched(shape, variablesFilled: i, fields: fields)
                }
                fields[field] = FieldValue(
                    kind: .string, flag: escaped, start: Int32(truncatingIfNeeded: valueAt),
                    end: Int32(truncatingIfNeeded: end))
            } else if mode == Mode.number {
                guard valueAt < count, base[valueAt] == 0x2D || JSONScanner.isDigit(base[valueAt]),
                    let found = JSONNumber.scan(base, from: valueAt, end: count, powers: storage + State.powersOfTen)
                else { return Self.unmatched(shape, variablesFilled: i, fields: fields) }
                end = found.end
                fields[field] = FieldValue(
                    kind: .number, flag: found.integer, start: Int32(truncatingIfNeeded: valueAt),
                    end: Int32(truncatingIfNeeded: end))
                numbers[field] = found.value
            } else {
                guard let valueEnd = readEitherOrSkip(
                    base, at: valueAt, count: count, field: field, skip: mode == Mode.skip, fields: fields, numbers: numbers)
                else { return Self.unmatched(shape, variablesFilled: i, fields: fields) }
                end = valueEnd
            }
            shift = end &- Int(variable.load(fromByteOffset: Shape.variableEnd, as: Int32.self))
            i &+= 1
            shifts[i] = shift
        }
        let length = Int(shape.load(fromByteOffset: Shape.length, as: Int32.self))
        let finalRun = Int(shape.load(fromByteOffset: Shape.finalRun, as: Int32.self))
        let lineEnd = length &+ shift
        guard lengthKnown ? lineEnd == count : Self.terminatorFollows(base, at: lineEnd, readable: count),
            Self.equal(base + (finalRun &+ shift), bytes + finalRun, count: length &- finalRun)
        else { return Self.unmatched(shape, variablesFilled: variableCount, fields: fields) }
        shifts[0] = 0
        let constantCount = Int(shape.load(fromByteOffset: Shape.constantCount, as: Int32.self))
        Self.writeConstants(shape, 0..<constantCount, shifts: shifts, fields: fields, numbers: numbers)
        return true
    }

    /// Writes the constants in `range` to the field table, each shifted as the variable values before
    /// it moved it (`shifts`, as `matches` left them).
    @inline(__always)
    private static func writeConstants(
        _ shape: UnsafeMutableRawPointer, _ range: Range<Int>, shifts: UnsafeMutablePointer<Int>,
        fields: UnsafeMutablePointer<FieldValue>, numbers: UnsafeMutablePointer<Double>
    ) {
        var c = range.lowerBound
        while c < range.upperBound {
            let constant = UnsafeRawPointer(shape + (Shape.constants &+ c &* Shape.constantStride))
            var value = constant.load(fromByteOffset: Shape.constantValue, as: FieldValue.self)
            let field = Int(constant.load(fromByteOffset: Shape.constantField, as: UInt8.self))
            let constantShift = Int32(truncatingIfNeeded: shifts[
                Int(constant.load(fromByteOffset: Shape.constantVariablesBefore, as: UInt8.self))])
            value.start &+= constantShift
            value.end &+= constantShift
            fields[field] = value
            // Read only for a number field (see `LineReader.numbers`).
            numbers[field] = constant.load(fromByteOffset: Shape.constantNumber, as: Double.self)
            c &+= 1
        }
    }

    /// The length of the line `matches` just matched against `shape`: the shape's, shifted by the last
    /// variable value (the shifts `matches` left in the state).
    @inline(__always)
    private func matchedLength(_ shape: UnsafeMutableRawPointer) -> Int {
        let variableCount = Int(shape.load(fromByteOffset: Shape.variableCount, as: Int32.self))
        let shifts = (storage + State.shifts).assumingMemoryBound(to: Int.self)
        return Int(shape.load(fromByteOffset: Shape.length, as: Int32.self)) &+ shifts[variableCount]
    }

    /// Whether a line ending at `end` is followed by its terminator, `\n` or `\r\n`, within `readable`
    /// bytes, and is the whole line the splitter would cut (see `matchLeadingLine`).
    @inline(__always)
    private static func terminatorFollows(_ base: UnsafePointer<UInt8>, at end: Int, readable: Int) -> Bool {
        guard end < readable else { return false }
        if base[end] == 0x0A { return end == 0 || base[end &- 1] != 0x0D }
        return base[end] == 0x0D && end &+ 1 < readable && base[end &+ 1] == 0x0A
    }

    /// Reads a `Mode.either` value at `start` into the field, or skips a `Mode.skip` one; returns where
    /// it ends (after a string's closing quote), or nil if it is not a value of its mode. Both rare, in
    /// one function out of line: a branch of their own in `matches` would cost every value.
    @inline(never)
    private func readEitherOrSkip(
        _ base: UnsafePointer<UInt8>, at start: Int, count: Int, field: Int, skip: Bool,
        fields: UnsafeMutablePointer<FieldValue>, numbers: UnsafeMutablePointer<Double>
    ) -> Int? {
        guard start < count else { return nil }
        if skip {
            // Numbers and plain strings (nearly every unread value) as the general scan reads them,
            // the rest through its value skipper.
            let first = base[start]
            if first == 0x2D || JSONScanner.isDigit(first) {
                return JSONNumber.scan(base, from: start, end: count, powers: storage + State.powersOfTen)?.end
            }
            if first == 0x22, let quote = JSONScanner.plainStringEnd(base, from: start &+ 1, end: count) {
                return quote &+ 1
            }
            return Self.unreadValueEnd(base, at: start, count: count)
        }
        if base[start] == 0x22 {
            guard let found = Self.stringEnd(base, from: start &+ 1, count: count) else { return nil }
            fields[field] = FieldValue(
                kind: .string, flag: found.escaped, start: Int32(truncatingIfNeeded: start &+ 1),
                end: Int32(truncatingIfNeeded: found.quote))
            return found.quote &+ 1
        }
        guard base[start] == 0x2D || JSONScanner.isDigit(base[start]),
            let found = JSONNumber.scan(base, from: start, end: count, powers: storage + State.powersOfTen)
        else { return nil }
        fields[field] = FieldValue(
            kind: .number, flag: found.integer, start: Int32(truncatingIfNeeded: start),
            end: Int32(truncatingIfNeeded: found.end))
        numbers[field] = found.value
        return found.end
    }

    /// Where the value of an unread member at `start` ends, validated as the general scan validates an
    /// unread member's value (`JSONScanner.skipValue` at depth 1); nil if it is no valid value.
    private static func unreadValueEnd(_ base: UnsafePointer<UInt8>, at start: Int, count: Int) -> Int? {
        var scanner = JSONScanner(base: base, count: count)
        scanner.pos = start
        do {
            try scanner.skipValue(depth: 1)
            return scanner.pos
        } catch {
            return nil
        }
    }

    /// Clears the fields of the first `variablesFilled` variable values again, and says no.
    private static func unmatched(
        _ shape: UnsafeMutableRawPointer, variablesFilled: Int, fields: UnsafeMutablePointer<FieldValue>
    ) -> Bool {
        var i = 0
        while i < variablesFilled {
            let field = shape.load(fromByteOffset: Shape.variables &+ i &* Shape.variableStride &+ Shape.variableField, as: UInt8.self)
            if field != Self.unreadField { fields[Int(field)] = .absent }
            i &+= 1
        }
        return false
    }

    /// A string's closing quote and whether it has escapes, through the scanner's general loop; nil if
    /// it is malformed (the general scan will say how). The `ts` of Python's and System.Text.Json's
    /// writers (a field line in seven each) are found without the loop (`plainOrSignEscapedStringEnd`).
    @inline(never)
    private static func stringEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> (quote: Int, escaped: Bool)? {
        if let found = JSONScanner.plainOrSignEscapedStringEnd(base, from: start, end: count) { return found }
        var scanner = JSONScanner(base: base, count: count)
        scanner.pos = start
        do {
            let escaped = try scanner.scanStringBodyLoop()
            return (scanner.pos &- 1, escaped)
        } catch {
            return nil
        }
    }

    /// Whether `count` bytes at `a` equal those at `b`: 16 at a time, the last 16 overlapping the ones
    /// before, so that nothing past either end is read; shorter runs as `ByteComparison` compares them.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 16 else {
            return ByteComparison.equal(a, b.assumingMemoryBound(to: UInt8.self), count: count)
        }
        let a = UnsafeRawPointer(a)
        var i = 0
        while i &+ 16 < count {
            guard same16(a + i, b + i) else { return false }
            i &+= 16
        }
        return same16(a + (count &- 16), b + (count &- 16))
    }

    @inline(__always)
    private static func same16(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        JSONScanner.lanes(a.loadUnaligned(as: SIMD16<UInt8>.self) .== b.loadUnaligned(as: SIMD16<UInt8>.self)) == 0xFFFF
    }

    // MARK: Learning

    /// Notes a line that no shape matched (tried, or not tried for want of shapes). When more than a
    /// third of a block of `blockLines` lines missed, matching rests for `restingLines` lines: a miss
    /// costs the failed tries and learning on top of the general scan, a match saves about as much, so
    /// past about four misses in ten the shapes cost more than they save; the rest begins a little
    /// before that (figures: Tests/Benchmarks/README.md, "Decoder choices").
    func noteMiss() {
        guard storage.load(fromByteOffset: State.resting, as: Int.self) == 0 else { return }
        let misses = storage.load(fromByteOffset: State.blockMisses, as: Int.self) &+ 1
        let matchedStart = storage.load(fromByteOffset: State.blockMatchedStart, as: Int.self)
        let matched = matchedLines
        guard misses &+ (matched &- matchedStart) >= Self.blockLines else {
            storage.storeBytes(of: misses, toByteOffset: State.blockMisses, as: Int.self)
            return
        }
        storage.storeBytes(of: 0, toByteOffset: State.blockMisses, as: Int.self)
        storage.storeBytes(of: matched, toByteOffset: State.blockMatchedStart, as: Int.self)
        if misses &* 3 > Self.blockLines {
            storage.storeBytes(of: Self.restingLines, toByteOffset: State.resting, as: Int.self)
        }
    }

    /// Learns the shape of a line that the general scan read into `fields` and `numbers` and that
    /// decoded to an event; `unreadMembers` when the scan met a member no field reads.
    ///
    /// A line whose members are those of a shape of its session and type in another order is not
    /// learned, nor counted as a miss: its writer orders keys anew on every line (Foundation's
    /// `JSONEncoder` does, by hashing), so a shape of it would never match again, and learning one
    /// would push out the shapes of the writers whose lines do match. The line after it is not tried
    /// against the shapes (a rest of one line, which costs the matching nothing): in a log's runs of
    /// one device's lines it is most likely of the same writer, and trying every shape on such a line
    /// cost more than its general scan. A run of them therefore costs the general scan alone, and does not put matching to rest
    /// for the other devices' lines after it, as counting them as misses did.
    ///
    /// `members` is the scan's note of the line's fields in line order: whether the layout was seen
    /// before (`admits`) is asked of its hash first, so that a line seen for the first time, nearly
    /// every line of such a writer, costs no sorting of the field table by position.
    func learn(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<FieldValue>, numbers: UnsafePointer<Double>,
        unreadMembers: Bool, members: MemberOrder
    ) {
        // A repeated field makes the line malformed if its type reads it; never learn one.
        guard !isResting, !members.repeated, count <= Self.maxLineLength else { return }
        let fingerprint = fingerprintForLearning(base, count: count)
        // A layout seen for the first time is neither learned nor a miss (see `admits`).
        let signature = Self.layoutSignature(fingerprint: fingerprint, memberOrder: members.hash)
        guard admits(fingerprint: fingerprint, signature: signature) else {
            rememberSessionOfLine(base, entry: Self.sessionMissed)
            return
        }
        learn(
            base, count: count, fields: fields, numbers: numbers, unreadMembers: unreadMembers, refreshing: false,
            fingerprint: fingerprint)
    }

    /// A layout's signature: its fingerprint and its fields in line order (`MemberOrder.hash`), mixed,
    /// never 0 (an empty place of `State.admitted`).
    @inline(__always)
    private static func layoutSignature(fingerprint: UInt64, memberOrder: UInt64) -> UInt64 {
        var hash = (memberOrder ^ fingerprint) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return hash | 1
    }

    /// Whether a layout (a fingerprint and members in an order, `signature` as `layoutSignature` gives
    /// it) is learned: when its set holds a shape of it, or when it was seen before and its signature
    /// is still where it went then. Otherwise it is noted for the next time. A layout seen once is not
    /// learned: a writer that orders keys anew on every line (Foundation's `JSONEncoder`) would
    /// otherwise push out, line after line, the shapes of the interleaved writers whose lines do match,
    /// and learning costs more than a general scan. Two layouts with the same signature are taken for
    /// one: that changes what is learned, never a line's fields (see the type's comment).
    private func admits(fingerprint: UInt64, signature: UInt64) -> Bool {
        let set = Self.set(of: fingerprint)
        let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
        for way in 0..<setUsed {
            let candidate = shape(set &* Self.ways &+ way)
            if candidate.load(fromByteOffset: Shape.layoutSignature, as: UInt64.self) == signature,
                candidate.load(fromByteOffset: Shape.fingerprint, as: UInt64.self) == fingerprint
            {
                return true
            }
        }
        let place = Int(truncatingIfNeeded: signature &>> UInt64(64 &- State.admittedCount.trailingZeroBitCount))
        let offset = State.admitted &+ place &* MemoryLayout<UInt64>.stride
        if storage.load(fromByteOffset: offset, as: UInt64.self) == signature { return true }
        storage.storeBytes(of: signature, toByteOffset: offset, as: UInt64.self)
        return false
    }

    /// Takes a layout's signature out of `State.admitted`, if it is there.
    private func forgetAdmission(_ signature: UInt64) {
        let place = Int(truncatingIfNeeded: signature &>> UInt64(64 &- State.admittedCount.trailingZeroBitCount))
        let offset = State.admitted &+ place &* MemoryLayout<UInt64>.stride
        if storage.load(fromByteOffset: offset, as: UInt64.self) == signature {
            storage.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self)
        }
    }

    /// Whether the line's session is the one whose keys last came in a new order, or a shape shows its
    /// keys come in a new order (`hasShapeInAnotherOrder`); the session is then remembered.
    private func comesInANewKeyOrder(
        _ base: UnsafePointer<UInt8>, fields: UnsafePointer<FieldValue>, memberOrder: UInt64
    ) -> Bool {
        let session = fields[EventField.session.rawValue]
        let length = Int(session.end) &- Int(session.start)
        let plain = Self.isPlainString(session) && length <= State.maxShuffledSession
        let remembered = storage.load(fromByteOffset: State.shuffledSessionLength, as: Int.self)
        if plain, remembered == length,
            Self.equal(base + Int(session.start), UnsafeRawPointer(storage + State.shuffledSession), count: length)
        {
            return true
        }
        guard hasShapeInAnotherOrder(base, fields: fields, memberOrder: memberOrder) else { return false }
        if plain {
            (storage + State.shuffledSession).copyMemory(from: base + Int(session.start), byteCount: length)
            storage.storeBytes(of: length, toByteOffset: State.shuffledSessionLength, as: Int.self)
        }
        return true
    }

    /// Whether a shape of the line's session has the line's `type` value and the line's fields but not in
    /// the line's order. (Of the same session: other devices' writers may order keys otherwise, each
    /// always the same way.)
    private func hasShapeInAnotherOrder(
        _ base: UnsafePointer<UInt8>, fields: UnsafePointer<FieldValue>, memberOrder: UInt64
    ) -> Bool {
        var memberMask: FieldMask = 0
        for field in 0..<EventField.count where fields[field].kind != .absent {
            memberMask |= 1 << FieldMask(field)
        }
        let type = fields[EventField.type.rawValue]
        let session = fields[EventField.session.rawValue]
        // A shape that passes the first three tests below has the line's key: when no held shape's key
        // falls at its place, none passes them, and the walk over every shape is spared.
        let place = Self.orderKeyPlace(
            memberMask: memberMask, type: type, typeBytes: UnsafeRawPointer(base), session: session,
            sessionBytes: UnsafeRawPointer(base))
        let counted = storage.load(fromByteOffset: State.orderKeyCounts &+ place &* 2, as: UInt16.self)
        guard counted != 0 else { return false }
        // Nor when every shape counted there has the line's members in the line's order (the order's
        // hash taken for the order, as `admits` takes a layout's).
        let orders = storage.load(fromByteOffset: State.orderKeyOrders &+ place &* 8, as: UInt64.self)
        guard orders != UInt64(counted) &* memberOrder else { return false }
        return anyHeldShape { candidate in
            candidate.load(fromByteOffset: Shape.memberMask, as: FieldMask.self) == memberMask
                && Self.sameValue(candidate, type, in: base, field: EventField.type.rawValue)
                && Self.sameValue(candidate, session, in: base, field: EventField.session.rawValue)
                && !Self.inLineOrder(candidate, fields: fields)
        }
    }

    /// Whether the line's set holds `maxOrdersOfOneLayout` shapes of its fingerprint (its head and
    /// `type`) and its fields in other orders, and none in the line's order. Such a line is a miss
    /// but is not learned: its writer puts some keys in a new order on most lines (a fixed envelope
    /// and a hash map of properties, as an SDK writes them and as `import` keeps them), so that its
    /// orders, a few of them seen twice by chance, would each be learned in turn and push out of the
    /// set the shapes that do match (every layout of one head and `type` falls in one set), each
    /// missing in turn. Of other sessions too, unlike `comesInANewKeyOrder`: interleaved devices of
    /// one such writer each show few lines. Such a line's layout is then taken for one seen once
    /// (`forgetAdmission`): the next line of it is turned away by `admits` at the cost of a hash,
    /// no miss, and the one after it is judged here again, a miss. So about every other line of such
    /// a writer counts as a miss: matching then rests when such lines are most of the log (each costs
    /// a failed try or two on top of the general scan), and not while they are a third of it, beside
    /// writers whose lines match. Up to three writers that each keep an order of the same fields get
    /// a shape each; a fourth is read by the general scan while the three are held (writers that each
    /// keep an order of their own but not the same one: a Swift dictionary's order is fixed by its
    /// process's hash seed, so it changes from one launch of the app to the next).
    /// The shapes held still match, and when they make way a line of the fields is learned again.
    private func holdsOtherOrdersEnough(of order: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Bool {
        var memberMask: FieldMask = 0
        for field in order { memberMask |= 1 << FieldMask(field) }
        let set = Self.set(of: fingerprint)
        let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
        // The other orders' signatures seen, each once (a set holds at most `ways`).
        var seen = InlineArray<8, UInt64>(repeating: 0)
        var others = 0
        for way in 0..<setUsed {
            let candidate = shape(set &* Self.ways &+ way)
            guard candidate.load(fromByteOffset: Shape.fingerprint, as: UInt64.self) == fingerprint,
                candidate.load(fromByteOffset: Shape.memberMask, as: FieldMask.self) == memberMask
            else { continue }
            if Self.sameMembers(candidate, order: order, memberCount: order.count) { return false }
            let signature = candidate.load(fromByteOffset: Shape.layoutSignature, as: UInt64.self)
            var known = false
            for o in 0..<others where seen[o] == signature { known = true }
            if !known, others < 8 {
                seen[others] = signature
                others &+= 1
            }
        }
        return others >= Self.maxOrdersOfOneLayout
    }

    /// See `holdsOtherOrdersEnough`.
    private static let maxOrdersOfOneLayout = 3

    /// Whether the shape's fields, in its order, stand in the line in that order too.
    private static func inLineOrder(_ shape: UnsafeMutableRawPointer, fields: UnsafePointer<FieldValue>) -> Bool {
        let memberCount = Int(shape.load(fromByteOffset: Shape.memberCount, as: Int32.self))
        var previousStart: Int32 = -1
        for m in 0..<memberCount {
            let start = fields[Int(shape.load(fromByteOffset: Shape.memberFields &+ m, as: UInt8.self))].start
            guard start > previousStart else { return false }
            previousStart = start
        }
        return true
    }

    /// Learns the line (`refreshing`: refreshes the shape that matched it), its layout admitted when
    /// not refreshing; `fingerprint` is its `LineFingerprint`.
    private func learn(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<FieldValue>, numbers: UnsafePointer<Double>,
        unreadMembers: Bool, refreshing: Bool, fingerprint: UInt64
    ) {
        guard count <= Self.maxLineLength,
            storage.load(fromByteOffset: State.resting, as: Int.self) == 0
        else { return }
        // The members the line has, in line order (insertion sort: a dozen fields, mostly in order).
        let order = (storage + State.members).assumingMemoryBound(to: UInt8.self)
        var memberCount = 0
        for field in 0..<EventField.count {
            let value = fields[field]
            if value.kind == .absent { continue }
            // A repeated field makes the line malformed if its type reads it; never learn one.
            if value.duplicateColumn != nil { return }
            var j = memberCount
            while j > 0, fields[Int(order[j &- 1])].start > value.start {
                order[j] = order[j &- 1]
                j &-= 1
            }
            order[j] = UInt8(truncatingIfNeeded: field)
            memberCount &+= 1
        }
        let members = UnsafeBufferPointer(start: order, count: memberCount)
        if !refreshing {
            let memberOrder = MemberOrder.of(members)
            if comesInANewKeyOrder(base, fields: fields, memberOrder: memberOrder) {
                rememberSessionOfLine(base, entry: Self.sessionMissed)
                storage.storeBytes(of: 1, toByteOffset: State.resting, as: Int.self)
                return
            }
            if holdsOtherOrdersEnough(of: members, fingerprint: fingerprint) {
                rememberSessionOfLine(base, entry: Self.sessionMissed)
                // Taken for seen once: the layout's next line is turned away by `admits`, at the
                // cost of a hash and no miss, and the one after it is judged here again, a miss.
                forgetAdmission(Self.layoutSignature(fingerprint: fingerprint, memberOrder: memberOrder))
                noteMiss()
                return
            }
            noteMiss()
            guard !isResting else { return }
        }
        var unread = UnreadMembers(scalars: 0, containers: 0)
        if unreadMembers {
            guard let found = unreadValues(base, count: count, fields: fields, order: members) else { return }
            unread = found
        }
        store(
            base, count: count, fields: fields, numbers: numbers, order: members, memberCount: memberCount,
            unreadMembers: unread, fingerprint: fingerprint, refreshing: refreshing)
    }

    /// The `LineFingerprint` of the `count` bytes at `base`, a line that decoded to an event: the one
    /// `matchLine` computed when it was last called for this line, or else computed now. `matchLine`
    /// may have read past the line's end, which it did not know; the fingerprint is the same when the
    /// line's `type` value starts within the line (`LineFingerprint.withTypeValueStart`: the line is
    /// valid JSON, so the value's closing quote is in the line too). Every call of `matchLine` forgets
    /// the one before, so a later line at the same address never takes an earlier line's.
    @inline(__always)
    private func fingerprintForLearning(_ base: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        if storage.load(fromByteOffset: State.triedLine, as: Int.self) == Int(bitPattern: base),
            storage.load(fromByteOffset: State.triedTypeValueStart, as: Int.self) < count
        {
            return storage.load(fromByteOffset: State.triedFingerprint, as: UInt64.self)
        }
        return LineFingerprint.of(base, limit: count)
    }

    /// How many members of a line no field reads, scalars and containers (see `unreadValues`).
    private struct UnreadMembers {
        var scalars: Int
        var containers: Int
    }

    /// Notes where the values of the line's members that no field reads start and end, in line
    /// order: scalars in `State.unreadValues`, the first `maxUnreadContainers` containers (which stay
    /// in the runs, to be repeated) in `State.unreadContainers`; returns how many of each, or nil
    /// when there are more than `maxUnreadValues` scalars or the line is not one object.
    ///
    /// Such values (an SDK's sequence number or send time) change on every line where they occur at
    /// all; kept as bytes to repeat they would make every line miss. As variable values they are only
    /// validated, as the general scan validates them, and no field table entry depends on them.
    /// `order` holds the line's fields in line order: a member is read when its value is the next of
    /// theirs.
    private func unreadValues(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<FieldValue>, order: UnsafeBufferPointer<UInt8>
    ) -> UnreadMembers? {
        let spans = (storage + State.unreadValues).assumingMemoryBound(to: Int32.self)
        let containerSpans = (storage + State.unreadContainers).assumingMemoryBound(to: Int32.self)
        var scanner = JSONScanner(base: base, count: count)
        scanner.skipWhitespace()
        guard scanner.pos < count, base[scanner.pos] == 0x7B else { return nil }
        scanner.pos &+= 1
        scanner.skipWhitespace()
        guard scanner.pos < count else { return nil }
        if base[scanner.pos] == 0x7D { return UnreadMembers(scalars: 0, containers: 0) }
        var known = 0
        var unread = 0
        var containers = 0
        do {
            while true {
                scanner.skipWhitespace()
                guard scanner.pos < count, base[scanner.pos] == 0x22 else { return nil }
                scanner.pos &+= 1
                _ = try scanner.scanStringBody()
                try scanner.expectColon()
                let start = scanner.pos
                guard start < count else { return nil }
                let first = base[start]
                try scanner.skipValue(depth: 1)
                var isRead = false
                if known < order.count {
                    let value = fields[Int(order[known])]
                    isRead = value.column == start
                }
                if isRead {
                    known &+= 1
                } else if first != 0x7B && first != 0x5B {
                    guard unread < Self.maxUnreadValues else { return nil }
                    spans[2 &* unread] = Int32(truncatingIfNeeded: start)
                    spans[2 &* unread &+ 1] = Int32(truncatingIfNeeded: scanner.pos)
                    unread &+= 1
                } else {
                    if containers < Self.maxUnreadContainers {
                        containerSpans[2 &* containers] = Int32(truncatingIfNeeded: start)
                        containerSpans[2 &* containers &+ 1] = Int32(truncatingIfNeeded: scanner.pos)
                    }
                    containers &+= 1
                }
                scanner.skipWhitespace()
                guard scanner.pos < count else { return nil }
                if base[scanner.pos] == 0x2C {
                    scanner.pos &+= 1
                    continue
                }
                return base[scanner.pos] == 0x7D ? UnreadMembers(scalars: unread, containers: containers) : nil
            }
        } catch {
            return nil
        }
    }

    private func store(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<FieldValue>, numbers: UnsafePointer<Double>,
        order: UnsafeBufferPointer<UInt8>, memberCount: Int, unreadMembers: UnreadMembers, fingerprint: UInt64, refreshing: Bool
    ) {
        let type = fields[EventField.type.rawValue]
        let unreadCount = unreadMembers.scalars
        // Only lines with unread members are told apart by it: other layouts of the same fields in the
        // same order (whitespace) are rare, and hashing every learned line cost more.
        let skeleton = unreadCount == 0 && unreadMembers.containers == 0 ? 0 : Self.skeleton(
            base, count: count, fields: fields, order: order,
            unread: UnsafePointer((storage + State.unreadValues).assumingMemoryBound(to: Int32.self)),
            unreadCount: unreadCount,
            containers: UnsafePointer((storage + State.unreadContainers).assumingMemoryBound(to: Int32.self)),
            containerCount: min(unreadMembers.containers, Self.maxUnreadContainers))
        // The shape this line refines: in the set of its fingerprint, the same fingerprint and type, the
        // same members in the same order and the same bytes around them (`skeleton`), most recently
        // matched first; and how many such shapes there are.
        let set = Self.set(of: fingerprint)
        let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
        var rank = 0
        var previous: UnsafeMutableRawPointer?
        var siblings = 0
        var leastRecentSiblingRank = 0
        var candidateRank = 0
        while candidateRank < setUsed {
            let candidate = shape(index(set: set, rank: candidateRank))
            if candidate.load(fromByteOffset: Shape.fingerprint, as: UInt64.self) == fingerprint,
                candidate.load(fromByteOffset: Shape.skeleton, as: UInt64.self) == skeleton,
                Self.sameMembers(candidate, order: order, memberCount: memberCount),
                Self.sameValue(candidate, type, in: base, field: EventField.type.rawValue)
            {
                if previous == nil {
                    previous = candidate
                    rank = candidateRank
                }
                siblings &+= 1
                leastRecentSiblingRank = candidateRank
            }
            candidateRank &+= 1
        }
        // Which values vary: those that varied in the previous shape, and those that differ from it for
        // the second time within `changeWindow` lines. A value changing once (a new session, screen or
        // target, which then stays) is taken as the new constant. (Every value that ever changed would,
        // over a long log, make nearly all of them variable; `refreshInterval` undoes the rest.)
        var variableFields: FieldMask = 0
        var eitherFields: FieldMask = 0
        var variableCount = 0
        let lines = previous.map { $0.load(fromByteOffset: Shape.lines, as: Int32.self) &+ 1 } ?? 0
        let interleavedLines = previous.map { $0.load(fromByteOffset: Shape.interleavedLines, as: Int32.self) } ?? 0
        let changes = (storage + State.changes).assumingMemoryBound(to: Int32.self)
        for field in 0..<EventField.count {
            changes[field] = previous?.load(fromByteOffset: Shape.lastChanges &+ MemoryLayout<Int32>.stride &* field, as: Int32.self)
                ?? (lines &- Self.changeWindow)
        }
        // Constants that differ and change rarely, and those of them the rule above made variable (see
        // `rareChangeLines`).
        var rareChanges: FieldMask = 0
        var rareMadeVariable: FieldMask = 0
        if let previous {
            let previouslyVariable = previous.load(fromByteOffset: Shape.variableFields, as: FieldMask.self)
            let previouslyEither = previous.load(fromByteOffset: Shape.eitherFields, as: FieldMask.self)
            for m in 0..<memberCount {
                let field = Int(order[m])
                let value = fields[field]
                guard value.kind == .string || value.kind == .number else { continue }
                var variable = previouslyVariable & (1 << field) != 0
                if !Self.sameValue(previous, value, in: base, field: field) {
                    let wasVariable = variable
                    let unchangedLines = lines &- changes[field]
                    // When refreshing, only variable values can differ: they stay variable.
                    if unchangedLines < Self.changeWindow { variable = true }
                    changes[field] = lines
                    if !wasVariable && !refreshing {
                        if lines >= Self.forkingAfter && unchangedLines >= Self.rareChangeLines {
                            rareChanges |= 1 << field
                            if variable { rareMadeVariable |= 1 << field }
                        }
                    }
                } else if refreshing {
                    // Unchanged over the shape's life: a constant again. Its changes while variable were
                    // not seen: its next change is judged from here (see `rareChangeLines`).
                    if variable { changes[field] = lines }
                    variable = false
                }
                // A value written now as a string, now as a number is variable at once, read either way.
                let previousKind = Self.fieldValue(previous, field).kind
                if previouslyEither & (1 << field) != 0
                    || (previousKind != value.kind && (previousKind == .string || previousKind == .number))
                {
                    eitherFields |= 1 << field
                    variable = true
                }
                if variable {
                    variableFields |= 1 << field
                    variableCount &+= 1
                }
            }
        }
        // A line that differs from its shape in values that change rarely becomes a shape of its own
        // beside it, those values constants in both (values that change often are variable in it).
        let sessionsTakeTurns = previous.map {
            $0.load(fromByteOffset: Shape.variableFields, as: FieldMask.self) & EventField.session.bit != 0
                && !Self.comesInRuns(lines: lines, interleavedLines: interleavedLines)
        } ?? false
        let forking = previous != nil && rareChanges != 0 && !sessionsTakeTurns
        if forking {
            // A value seen both as a string and as a number stays variable.
            let madeConstant = rareMadeVariable & ~eitherFields
            variableFields &= ~madeConstant
            variableCount &-= madeConstant.nonzeroBitCount
        }
        guard variableCount &+ unreadCount <= Self.maxVariables else { return }
        if let previous, !refreshing { carrySessionTexts(from: previous, to: base, fields: fields) }

        // The slot: the previous shape's (unless forking), else a free one, else the least recently
        // matched.
        let slotRank: Int
        var replacing = true
        if previous != nil && !forking {
            slotRank = rank
        } else if forking && siblings >= Self.maxSiblings {
            slotRank = leastRecentSiblingRank
        } else if setUsed < Self.ways {
            slotRank = setUsed
            replacing = false
            storage.storeBytes(of: UInt8(truncatingIfNeeded: setUsed &+ 1), toByteOffset: State.setUsed &+ set, as: UInt8.self)
            used &+= 1
        } else {
            slotRank = setUsed &- 1
        }
        let targetIndex = index(set: set, rank: slotRank)
        let target = shape(targetIndex)
        target.storeBytes(of: fingerprint, toByteOffset: Shape.fingerprint, as: UInt64.self)
        target.storeBytes(
            of: Self.layoutSignature(fingerprint: fingerprint, memberOrder: MemberOrder.of(order)),
            toByteOffset: Shape.layoutSignature, as: UInt64.self)
        target.storeBytes(of: skeleton, toByteOffset: Shape.skeleton, as: UInt64.self)
        if !refreshing { rememberSessionOfLine(base, entry: targetIndex &+ 1) }
        target.storeBytes(of: Int32(truncatingIfNeeded: count), toByteOffset: Shape.length, as: Int32.self)
        target.storeBytes(of: Int32(truncatingIfNeeded: memberCount), toByteOffset: Shape.memberCount, as: Int32.self)
        var memberMask: FieldMask = 0
        for m in 0..<memberCount {
            target.storeBytes(of: order[m], toByteOffset: Shape.memberFields &+ m, as: UInt8.self)
            memberMask |= 1 << FieldMask(order[m])
        }
        target.storeBytes(of: memberMask, toByteOffset: Shape.memberMask, as: FieldMask.self)
        target.storeBytes(of: lines, toByteOffset: Shape.lines, as: Int32.self)
        target.storeBytes(of: interleavedLines, toByteOffset: Shape.interleavedLines, as: Int32.self)
        target.storeBytes(of: variableFields, toByteOffset: Shape.variableFields, as: FieldMask.self)
        let kind = type.flag || variableFields & (1 << EventField.type.rawValue) != 0
            ? nil
            : EventKind(wireBytes: ByteSlice(start: base + Int(type.start), count: Int(type.end) &- Int(type.start)))
        target.storeBytes(of: kind, toByteOffset: Shape.kind, as: EventKind?.self)
        target.storeBytes(of: eitherFields, toByteOffset: Shape.eitherFields, as: FieldMask.self)
        target.storeBytes(of: Self.refreshInterval, toByteOffset: Shape.matchesLeft, as: Int32.self)
        let lineTextFields = Self.storeSharedTexts(target, base, count: count, fields: fields, variableFields: variableFields)
        let sharedTextFields = EventField.commonTextBits & ~lineTextFields
        (target + Shape.lastChanges).copyMemory(from: changes, byteCount: 4 * EventField.count)
        (target + Shape.fieldTable).copyMemory(from: fields, byteCount: EventField.count * MemoryLayout<FieldValue>.stride)
        (target + Shape.bytes).copyMemory(from: base, byteCount: count)
        noteOrderKey(target, replacing: replacing, memberOrder: MemberOrder.of(order))
        var runStart = 0
        var variables = 0
        var constants = 0
        // The unread members' values, merged in line order with the fields' (see `unreadValues`).
        let unread = UnsafePointer((storage + State.unreadValues).assumingMemoryBound(to: Int32.self))
        var nextUnread = 0
        for m in 0...memberCount {
            let field = m < memberCount ? Int(order[m]) : 0
            let value = m < memberCount ? fields[field] : .absent
            let column = m < memberCount ? value.column : count
            while nextUnread < unreadCount, Int(unread[2 &* nextUnread]) < column {
                let entry = target + (Shape.variables &+ variables &* Shape.variableStride)
                entry.storeBytes(of: Int32(truncatingIfNeeded: runStart), toByteOffset: Shape.variableRunStart, as: Int32.self)
                entry.storeBytes(of: unread[2 &* nextUnread], toByteOffset: Shape.variableStart, as: Int32.self)
                entry.storeBytes(of: unread[2 &* nextUnread &+ 1], toByteOffset: Shape.variableEnd, as: Int32.self)
                entry.storeBytes(of: Self.unreadField, toByteOffset: Shape.variableField, as: UInt8.self)
                entry.storeBytes(of: Mode.skip, toByteOffset: Shape.variableMode, as: UInt8.self)
                runStart = Int(unread[2 &* nextUnread &+ 1])
                variables &+= 1
                nextUnread &+= 1
            }
            guard m < memberCount else { break }
            if variableFields & (1 << field) != 0 {
                let entry = target + (Shape.variables &+ variables &* Shape.variableStride)
                // In `either` mode a string's quotes belong to the value.
                let quotes: Int32 = eitherFields & (1 << field) != 0 && value.kind == .string ? 1 : 0
                let mode = quotes == 0 && eitherFields & (1 << field) == 0
                    ? (value.kind == .number ? Mode.number : Mode.string) : Mode.either
                entry.storeBytes(of: Int32(truncatingIfNeeded: runStart), toByteOffset: Shape.variableRunStart, as: Int32.self)
                entry.storeBytes(of: value.start &- quotes, toByteOffset: Shape.variableStart, as: Int32.self)
                entry.storeBytes(of: value.end &+ quotes, toByteOffset: Shape.variableEnd, as: Int32.self)
                entry.storeBytes(of: UInt8(truncatingIfNeeded: field), toByteOffset: Shape.variableField, as: UInt8.self)
                entry.storeBytes(of: mode, toByteOffset: Shape.variableMode, as: UInt8.self)
                runStart = Int(value.end &+ quotes)
                variables &+= 1
            } else if sharedTextFields & (1 << field) == 0 {
                Self.storeConstant(target, index: constants, value, number: numbers[field], field: field, variablesBefore: variables)
                constants &+= 1
            }
        }
        // The shared texts' constants after the others (see `Shape.sharedTextConstantCount`).
        var sharedConstants = 0
        var variablesBefore = 0
        nextUnread = 0
        for m in 0..<memberCount {
            let field = Int(order[m])
            while nextUnread < unreadCount, Int(unread[2 &* nextUnread]) < fields[field].column {
                variablesBefore &+= 1
                nextUnread &+= 1
            }
            if variableFields & (1 << field) != 0 {
                variablesBefore &+= 1
            } else if sharedTextFields & (1 << field) != 0 {
                Self.storeConstant(
                    target, index: constants &+ sharedConstants, fields[field], number: numbers[field], field: field,
                    variablesBefore: variablesBefore)
                sharedConstants &+= 1
            }
        }
        target.storeBytes(of: Int32(truncatingIfNeeded: variables), toByteOffset: Shape.variableCount, as: Int32.self)
        target.storeBytes(of: Int32(truncatingIfNeeded: constants), toByteOffset: Shape.constantCount, as: Int32.self)
        target.storeBytes(
            of: Int32(truncatingIfNeeded: sharedConstants), toByteOffset: Shape.sharedTextConstantCount, as: Int32.self)
        target.storeBytes(of: Int32(truncatingIfNeeded: runStart), toByteOffset: Shape.finalRun, as: Int32.self)
        storage.storeBytes(of: targetIndex, toByteOffset: State.latest, as: Int.self)
        storage.storeBytes(
            of: Self.comesInRuns(lines: lines, interleavedLines: interleavedLines) ? targetIndex : Self.noFirstTry,
            toByteOffset: State.firstTry, as: Int.self)
        moveToFront(set: set, rank: slotRank)
    }

    /// A new session: the line differs from the shape it refines (`previous`, a line of the session
    /// before) in its `session` value, a constant there. The other shapes learned in that session would
    /// each miss on the new session's first line of their layout (a general scan and a relearning,
    /// ~1 µs each), so they are carried over to the new session here: in every shape whose constant
    /// `session` is the previous one's, each session text that changed (`session`, `device`, `app`,
    /// `app_version`, `os_version`) and is constant there with the previous value gets the line's
    /// value, and its shared texts are made again from its line.
    ///
    /// Not when the line's session is one whose shapes were carried over lately (the last
    /// `State.carriedFromCount`): sessions that take turns, as uploads of a few devices interleave,
    /// would otherwise carry the shapes back and forth on every turn, each time making the other
    /// session's lines miss; forking gives each its own shapes instead.
    ///
    /// Only plain strings of the same length are carried, so that every position the shape keeps
    /// (runs, field table, constants) stays as it is. Why such a shape still gives exactly the general
    /// scan's result (see the type's comment): its line is a line that decoded to an event with some
    /// plain string values replaced by plain strings of the same length that this line, which decoded
    /// to an event, has for the same fields; the field table is the same, and each field's value is
    /// read alone, so the changed line decodes to an event too, with those texts.
    private func carrySessionTexts(from previous: UnsafeMutableRawPointer, to base: UnsafePointer<UInt8>, fields: UnsafePointer<FieldValue>) {
        let previouslyVariable = previous.load(fromByteOffset: Shape.variableFields, as: FieldMask.self)
        var carried: FieldMask = 0
        for field in Self.sessionTexts where previouslyVariable & field.bit == 0 {
            let old = Self.fieldValue(previous, field.rawValue)
            let new = fields[field.rawValue]
            guard Self.isPlainString(old), Self.isPlainString(new), old.end &- old.start == new.end &- new.start,
                !Self.sameValue(previous, new, in: base, field: field.rawValue)
            else { continue }
            carried |= field.bit
        }
        guard carried & EventField.session.bit != 0 else { return }
        let previousBytes = UnsafeRawPointer(previous + Shape.bytes)
        let newSession = fields[EventField.session.rawValue]
        let oldSession = Self.fieldValue(previous, EventField.session.rawValue)
        let recent = (storage + State.carriedFrom).bindMemory(to: UInt64.self, capacity: State.carriedFromCount)
        let newFingerprint = Self.fingerprint(
            UnsafeRawPointer(base + Int(newSession.start)), count: Int(newSession.end) &- Int(newSession.start))
        for slot in 0..<State.carriedFromCount where recent[slot] == newFingerprint { return }
        let next = storage.load(fromByteOffset: State.carriedFromNext, as: Int.self)
        let oldFingerprint = Self.fingerprint(previousBytes + Int(oldSession.start), count: Int(oldSession.end) &- Int(oldSession.start))
        recent[next] = oldFingerprint
        storage.storeBytes(of: (next &+ 1) % State.carriedFromCount, toByteOffset: State.carriedFromNext, as: Int.self)
        // Only a shape whose `session` bytes are the previous shape's can hold them as a constant.
        let keys = UnsafeRawPointer(storage + State.sessionKeys).assumingMemoryBound(to: UInt64.self)
        for set in 0..<Self.sets {
            let setUsed = Int(storage.load(fromByteOffset: State.setUsed &+ set, as: UInt8.self))
            for way in 0..<setUsed where keys[set &* Self.ways &+ way] == oldFingerprint {
                carrySessionTexts(from: previous, carried: carried, to: base, fields: fields, into: shape(set &* Self.ways &+ way))
            }
        }
    }

    /// The shape's index, as `shape(_:)` takes it.
    @inline(__always)
    private func shapeIndex(_ shape: UnsafeMutableRawPointer) -> Int {
        (shape - (storage + State.shapes)) / Shape.stride
    }

    /// What `StateLayout.sessionKeys` holds for the shape as it is now.
    private func sessionKey(_ shape: UnsafeMutableRawPointer) -> UInt64 {
        let session = Self.fieldValue(shape, EventField.session.rawValue)
        guard Self.isPlainString(session) else { return 0 }
        return Self.fingerprint(UnsafeRawPointer(shape + Shape.bytes) + Int(session.start), count: Int(session.end) &- Int(session.start))
    }

    /// `carrySessionTexts` into one shape, `other`: the fields in `carried` it holds with the previous
    /// shape's values as constants get the line's.
    private func carrySessionTexts(
        from previous: UnsafeMutableRawPointer, carried: FieldMask, to base: UnsafePointer<UInt8>,
        fields: UnsafePointer<FieldValue>, into other: UnsafeMutableRawPointer
    ) {
        let previousBytes = UnsafeRawPointer(previous + Shape.bytes)
        guard other != previous else { return }
        let variable = other.load(fromByteOffset: Shape.variableFields, as: FieldMask.self)
        let otherBytes = other + Shape.bytes
        // The fields of `other` that hold the previous shape's value as a constant.
        var replaced: FieldMask = 0
        for field in Self.sessionTexts where carried & field.bit != 0 && variable & field.bit == 0 {
            let old = Self.fieldValue(previous, field.rawValue)
            let value = Self.fieldValue(other, field.rawValue)
            let length = Int(old.end) &- Int(old.start)
            if Self.isPlainString(value), Int(value.end) &- Int(value.start) == length,
                Self.equal(UnsafePointer(otherBytes.bindMemory(to: UInt8.self, capacity: Self.maxLineLength)) + Int(value.start),
                           previousBytes + Int(old.start), count: length)
            {
                replaced |= field.bit
            }
        }
        guard replaced & EventField.session.bit != 0 else { return }
        for field in Self.sessionTexts where replaced & field.bit != 0 {
            let value = Self.fieldValue(other, field.rawValue)
            let new = fields[field.rawValue]
            (otherBytes + Int(value.start)).copyMemory(from: base + Int(new.start), byteCount: Int(new.end) &- Int(new.start))
        }
        // Its `session` value changed.
        noteOrderKey(other, replacing: true, memberOrder: other.load(fromByteOffset: Shape.orderKeyMemberOrder, as: UInt64.self))
        _ = Self.storeSharedTexts(
            other, UnsafePointer(otherBytes.bindMemory(to: UInt8.self, capacity: Self.maxLineLength)),
            count: Int(other.load(fromByteOffset: Shape.length, as: Int32.self)),
            fields: UnsafePointer((other + Shape.fieldTable).bindMemory(to: FieldValue.self, capacity: EventField.count)),
            variableFields: variable)
    }

    /// Counts the key of `shape` (its line's fields, `type` and `session`, as it holds them now) at its
    /// place, having taken back the count of the key it had (`replacing`: the slot held a shape, or
    /// this one before its session texts were carried over).
    private func noteOrderKey(_ shape: UnsafeMutableRawPointer, replacing: Bool, memberOrder: UInt64) {
        if replacing {
            let oldPlace = Int(shape.load(fromByteOffset: Shape.orderKeyPlace, as: Int32.self))
            let old = State.orderKeyCounts &+ oldPlace &* 2
            storage.storeBytes(of: storage.load(fromByteOffset: old, as: UInt16.self) &- 1, toByteOffset: old, as: UInt16.self)
            let oldOrders = State.orderKeyOrders &+ oldPlace &* 8
            storage.storeBytes(
                of: storage.load(fromByteOffset: oldOrders, as: UInt64.self)
                    &- shape.load(fromByteOffset: Shape.orderKeyMemberOrder, as: UInt64.self),
                toByteOffset: oldOrders, as: UInt64.self)
        }
        let bytes = UnsafeRawPointer(shape + Shape.bytes)
        let place = Self.orderKeyPlace(
            memberMask: shape.load(fromByteOffset: Shape.memberMask, as: FieldMask.self),
            type: Self.fieldValue(shape, EventField.type.rawValue), typeBytes: bytes,
            session: Self.fieldValue(shape, EventField.session.rawValue), sessionBytes: bytes)
        let new = State.orderKeyCounts &+ place &* 2
        storage.storeBytes(of: storage.load(fromByteOffset: new, as: UInt16.self) &+ 1, toByteOffset: new, as: UInt16.self)
        shape.storeBytes(of: Int32(truncatingIfNeeded: place), toByteOffset: Shape.orderKeyPlace, as: Int32.self)
        let orders = State.orderKeyOrders &+ place &* 8
        storage.storeBytes(of: storage.load(fromByteOffset: orders, as: UInt64.self) &+ memberOrder, toByteOffset: orders, as: UInt64.self)
        shape.storeBytes(of: memberOrder, toByteOffset: Shape.orderKeyMemberOrder, as: UInt64.self)
        storage.storeBytes(of: sessionKey(shape), toByteOffset: State.sessionKeys &+ shapeIndex(shape) &* 8, as: UInt64.self)
    }

    /// Where the key of `hasShapeInAnotherOrder`'s tests falls: the fields present, and the `type` and
    /// `session` values as `sameValue` compares them (kind, escaping, bytes), each value's bytes at its
    /// place from `typeBytes` or `sessionBytes`. Equal for a line and a shape that pass those tests.
    private static func orderKeyPlace(
        memberMask: FieldMask, type: FieldValue, typeBytes: UnsafeRawPointer, session: FieldValue,
        sessionBytes: UnsafeRawPointer
    ) -> Int {
        func mixing(_ value: FieldValue, at bytes: UnsafeRawPointer, into hash: UInt64) -> UInt64 {
            let kind = (hash ^ UInt64(value.kind.rawValue) ^ (value.flag ? 0x100 : 0)) &* EventIdentity.prime
            return (kind ^ bytesHash(bytes + Int(value.start), count: Int(value.end) &- Int(value.start)))
                &* EventIdentity.prime
        }
        var hash = (EventIdentity.offsetBasis ^ UInt64(memberMask)) &* EventIdentity.prime
        hash = mixing(session, at: sessionBytes, into: mixing(type, at: typeBytes, into: hash))
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: hash &>> UInt64(64 &- State.orderKeyPlaces.trailingZeroBitCount))
    }

    /// A hash of `count` bytes at `bytes` from their first and last eight and their count, read within
    /// them (FNV-1a, `fingerprint`, under eight): a key is made for every shape stored, where hashing
    /// every byte cost more than the walks it spared on a log read device by device.
    @inline(__always)
    private static func bytesHash(_ bytes: UnsafeRawPointer, count: Int) -> UInt64 {
        guard count >= 8 else { return fingerprint(bytes, count: count) }
        let first = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
        let last = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        return (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: count)
    }

    /// FNV-1a of `count` bytes at `bytes`, as `EventIdentity` hashes ids: which sessions' shapes were
    /// carried over (a collision only keeps shapes from being carried).
    private static func fingerprint(_ bytes: UnsafeRawPointer, count: Int) -> UInt64 {
        var hash = EventIdentity.offsetBasis
        for index in 0..<count {
            hash = (hash ^ UInt64(bytes.load(fromByteOffset: index, as: UInt8.self))) &* EventIdentity.prime
        }
        return hash
    }

    /// The texts a session keeps for all its events, as apps write them (`carrySessionTexts`).
    private static let sessionTexts: [EventField] = EventTexts.Slot.allCases.filter(\.isSessionWide).map(\.field)

    @inline(__always)
    private static func isPlainString(_ value: FieldValue) -> Bool { value.kind == .string && !value.flag }

    private static func storeConstant(
        _ target: UnsafeMutableRawPointer, index: Int, _ value: FieldValue, number: Double, field: Int, variablesBefore: Int
    ) {
        let entry = target + (Shape.constants &+ index &* Shape.constantStride)
        entry.storeBytes(of: value, toByteOffset: Shape.constantValue, as: FieldValue.self)
        entry.storeBytes(of: number, toByteOffset: Shape.constantNumber, as: Double.self)
        entry.storeBytes(of: UInt8(truncatingIfNeeded: field), toByteOffset: Shape.constantField, as: UInt8.self)
        entry.storeBytes(of: UInt8(truncatingIfNeeded: variablesBefore), toByteOffset: Shape.constantVariablesBefore, as: UInt8.self)
    }

    /// Keeps the common texts that every line of the shape will have as this one has them: constant,
    /// and absent, `null`, a plain string of up to 16 bytes or a canonical UUID, read as the decoder
    /// reads them (`EventTexts.setInline`, `PackedUUID`). The others the decoder reads from each line; returns them.
    private static func storeSharedTexts(
        _ target: UnsafeMutableRawPointer, _ base: UnsafePointer<UInt8>, count: Int,
        fields: UnsafePointer<FieldValue>, variableFields: FieldMask
    ) -> FieldMask {
        var shared = InlineTexts()
        var lineFields: FieldMask = 0
        for (field, slot) in EventField.commonTexts {
            let value = fields[field.rawValue]
            let length = Int(value.end) &- Int(value.start)
            if variableFields & field.bit != 0 {
                lineFields |= field.bit
            } else if value.kind == .string && !value.flag && length <= CompactText.inlineCapacity {
                shared.setInline(slot, bytes: base + Int(value.start), count: length, readable: count &- Int(value.start))
            } else if value.kind == .string && !value.flag && length == PackedUUID.textLength,
                      let uuid = PackedUUID.pack(base + Int(value.start)) {
                shared.setWords(slot, low: uuid.low, high: uuid.high, length: UInt64(uuid.count) &+ 1)
            } else if value.kind != .absent && value.kind != .null {
                lineFields |= field.bit
            }
        }
        target.storeBytes(of: shared, toByteOffset: Shape.sharedTexts, as: InlineTexts.self)
        target.storeBytes(of: lineFields, toByteOffset: Shape.lineTextFields, as: FieldMask.self)
        return lineFields
    }

    private static func sameMembers(_ shape: UnsafeMutableRawPointer, order: UnsafeBufferPointer<UInt8>, memberCount: Int) -> Bool {
        guard Int(shape.load(fromByteOffset: Shape.memberCount, as: Int32.self)) == memberCount else { return false }
        for m in 0..<memberCount where shape.load(fromByteOffset: Shape.memberFields &+ m, as: UInt8.self) != order[m] {
            return false
        }
        return true
    }

    /// The hash of a line's bytes outside the values of its fields (`order`, in line order), of its
    /// unread scalar members (`unread`: `unreadCount` pairs of where each starts and ends, in line
    /// order) and of its first unread containers (`containers`, `containerCount` pairs alike), a
    /// string's quotes counted as its value's: its keys in order, and the whitespace and separators
    /// between them. Lines of one type with the same fields in the same order can still differ there:
    /// writers that add a member no field reads (an SDK's name or context object, a sequence number)
    /// and writers that do not, interleaved (a log imported from several SDKs puts the envelope first,
    /// so all share one fingerprint). A shape refined by another layout's line would take that layout
    /// and miss on its own lines, each layout's lines pushing the other out in turn; with the skeleton
    /// each is a shape of its own. A container counts by its place, not its bytes, so that one whose
    /// content changes from line to line (a context of the moment) keeps refining its own layout's
    /// shape rather than taking a shape of each of its contents.
    private static func skeleton(
        _ base: UnsafePointer<UInt8>, count: Int, fields: UnsafePointer<FieldValue>, order: UnsafeBufferPointer<UInt8>,
        unread: UnsafePointer<Int32>, unreadCount: Int, containers: UnsafePointer<Int32>, containerCount: Int
    ) -> UInt64 {
        var hash = MemberOrder.empty
        var position = 0
        var m = 0
        var u = 0
        var c = 0
        while m < order.count || u < unreadCount || c < containerCount {
            var start = Int.max
            var end = 0
            // A value's place, and a container's: bytes no line has outside a string.
            var mark: UInt64 = 0xFF
            if m < order.count {
                let value = fields[Int(order[m])]
                let quote = value.kind == .string ? 1 : 0
                start = Int(value.start) &- quote
                end = Int(value.end) &+ quote
            }
            if u < unreadCount, Int(unread[2 &* u]) < start {
                start = Int(unread[2 &* u])
                end = Int(unread[2 &* u &+ 1])
            }
            if c < containerCount, Int(containers[2 &* c]) < start {
                start = Int(containers[2 &* c])
                end = Int(containers[2 &* c &+ 1])
                mark = 0xFE
                c &+= 1
            } else if u < unreadCount, Int(unread[2 &* u]) == start {
                u &+= 1
            } else {
                m &+= 1
            }
            hash = Self.hashing(base, from: position, to: start, into: hash)
            hash = (hash ^ mark) &* EventIdentity.prime
            position = end
        }
        return Self.hashing(base, from: position, to: count, into: hash)
    }

    /// `hash` with the bytes `from..<to` of the line mixed in, eight at a time.
    @inline(__always)
    private static func hashing(_ base: UnsafePointer<UInt8>, from: Int, to end: Int, into hash: UInt64) -> UInt64 {
        var hash = hash
        var position = from
        while position &+ 8 <= end {
            hash = (hash ^ UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) &* EventIdentity.prime
            hash ^= hash &>> 29
            position &+= 8
        }
        while position < end {
            hash = (hash ^ UInt64(base[position])) &* EventIdentity.prime
            position &+= 1
        }
        return hash
    }

    private static func fieldValue(_ shape: UnsafeMutableRawPointer, _ field: Int) -> FieldValue {
        (shape + Shape.fieldTable).load(fromByteOffset: field &* MemoryLayout<FieldValue>.stride, as: FieldValue.self)
    }

    /// Whether `value` (of this line) has the same type and bytes as the shape line's value of the field.
    private static func sameValue(
        _ shape: UnsafeMutableRawPointer, _ value: FieldValue, in base: UnsafePointer<UInt8>, field: Int
    ) -> Bool {
        let old = (shape + Shape.fieldTable).load(fromByteOffset: field &* MemoryLayout<FieldValue>.stride, as: FieldValue.self)
        let length = Int(value.end) &- Int(value.start)
        guard old.kind == value.kind, old.flag == value.flag, Int(old.end) &- Int(old.start) == length else { return false }
        return equal(base + Int(value.start), UnsafeRawPointer(shape + Shape.bytes) + Int(old.start), count: length)
    }
}

