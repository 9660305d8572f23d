/// Turns each line of another tool's export into this tool's events (SPEC §7), one event at a time.
/// Each event's fields are located in the export line and handed to the decoder's own mapping
/// (`ImportedEventFields`, `EventDecoder.mapFields`), so that they are judged by the rules a line of
/// ours is judged by without a line being written and scanned again; `import` writes the line of each
/// accepted event (`onAcceptedLines`), which decodes to the same event (`ImportedFieldsDifferentialTests`).
///
/// It keeps, per SDK session, how many launches were accepted (to name the imported sessions
/// `<id>#<n>`), the ids of those launches (so that a retried launch is a duplicate, not a new session),
/// the time of its synthetic start while that is its only one (`launchNumber`) and the tab the person
/// is on (for `nav.tab_switch`'s `from`): a few words a session, no event.
/// One importer reads a run's inputs in order, on one thread.
public final class EventImporter: @unchecked Sendable {
    public let format: ImportFormat
    public let settings: ImportSettings
    var tape = JSONTape()
    /// Layouts of earlier lines (`ExportLineLayouts`): a matching line's tape without the general scan.
    var layouts: ExportLineLayouts
    /// Whether lines are matched against learned layouts (tests compare both ways).
    var readsLayouts = true
    /// How well the layouts serve this export (`layoutsTakeLine`): of the lines of the current block
    /// that went to them, how many a layout matched; and whether only one line in `layoutOdds`
    /// goes to them in this block.
    private var blockLines = 0
    private var blockMatches = 0
    private(set) var layoutsSparse = false
    private var sparseTurn = 0
    private(set) var layoutOdds = sparseLayoutOdds
    /// Lines that went to the layouts, for tests.
    private(set) var linesAsked = 0
    static let layoutBlock = 1024
    static let sparseLayoutOdds = 16
    static let rareLayoutOdds = 64
    /// The layout the current line matched or became, or nil (read by the general scan and not learned).
    var lineLayout: ExportLineLayouts.LayoutID?
    /// Per layout: where a line's members are (`postHogEvent`, `datadogEvent`, `otlpRecords`), and
    /// which of them are the event's own fields (`assemblePending`).
    let postHogMemo = LayoutMemo<PostHogPlaces>()
    let datadogMemo = LayoutMemo<DatadogPlaces>()
    let otlpMemo = LayoutMemo<OTLPPlaces>()
    let otherFieldsMemo = OtherFieldsMemo()
    /// The OTLP record being handed over: its attributes' entry, its own entry, and its own fields
    /// (`OTLPPlaces.recordFields`, lent for the hand-over), which are then not searched for again.
    var otlpRecordFields: (attributes: Int, record: Int, fields: UnsafePointer<OTLPRecordFields>)?
    /// Layouts of OTLP records, for requests of many records a line (`translateRecords`), which
    /// hardly repeat whole while their records do.
    var recordLayouts = ExportLineLayouts(countsQuotes: false, placesAttributeNames: true)
    /// Per record layout, its plan (`ConventionPlan.takesResource`).
    let recordPlans = ConventionPlans()
    /// Whether requests of many records are read record by record by their layouts (tests compare both ways).
    var readsRecordLayouts = true
    /// How well the record layouts serve this export (`recordsTakeLine`): of the records of the current
    /// block that went to them, how many a layout matched at the first try; and whether only one
    /// request in `rareLayoutOdds` goes to them in this block.
    private var recordBlockRecords = 0
    private var recordBlockMatches = 0
    private(set) var recordsSparse = false
    private var recordSparseTurn = 0
    /// Records that went to the record layouts, and those of them a layout matched at the first try,
    /// for tests.
    private(set) var recordsAsked = 0
    private(set) var recordsMatchedFirst = 0
    /// The request being read record by record: its records and resources, and the values their
    /// matches noted.
    let recordBatch = RecordBatch()
    /// The resource of the records being handed over (`translateRecords`).
    var recordResource = RecordResource()
    /// A tape of one record alone (`translateRecords`), from which its layout is learned.
    var recordTape = JSONTape()
    /// Names the request being read record by record (`ImportedFieldAssembly.startLine(_:stamp:)`).
    var lineStamp = 0
    /// Where the last record's `eventName` key was, from its first byte (`recordLead`).
    var recordNameOffset = 0
    /// Where the last record's attribute `event.name` was, from its first byte (`recordLead`).
    var recordAttributeNameOffset = 0
    /// Where the `event` key began in the last PostHog line in which `postHogLinePlaces` found it.
    var postHogNameOffset = 0
    /// Where the attribute `event.name` began in the last OTLP line in which `otlpLinePlaces` found it.
    var lineNameOffset = 0
    /// Where the record's `eventName` key began in the last OTLP line in which `otlpLinePlaces` found it.
    var lineEventNameOffset = 0
    /// Whether OTLP requests are read with their attributes in the order of their names
    /// (`OTLPAttributeOrder`; tests compare both ways).
    var sortsAttributes = true
    var attributeOrder = OTLPAttributeOrder()
    /// Whether the line just read with its attributes reordered turned out malformed.
    private var reorderedLineIsMalformed = false
    /// Whether an OTLP line read without a layout is read by `OTLPRequestReader`, which notes its
    /// places as it validates it, rather than by the tape and then its look-ups (tests compare both ways).
    var readsRequestsInOnePass = true
    /// The request reader's lists, and the places of the request it read, kept from line to line.
    var requestParts = OTLPRequestParts()
    var requestPlaces = OTLPPlaces()
    /// OTLP attribute names' classes (`attributeNameClass`).
    let attributeNames = AttributeNameMemo()
    /// Whether the last request read by its tape or record by record (not by a line's plan) held more
    /// than one record: a line no longer than a layout's is read record by record only then, so that
    /// an export of one record a line whose layout is new is not framed for nothing.
    var lastRequestWasMany = false
    /// The bytes the event being read is written from, at most (`EventImporter+LineLimit`): the
    /// line's, or in a line that may pass the limit, its record's or page item's.
    var sourceBytes = 0
    /// Per layout, where a convention event's values are in its lines (`ConventionPlan`).
    let plans = ConventionPlans()
    /// Whether lines are read by their layout's plan where they can be (tests compare both ways).
    var readsPlans = true
    /// The event of the planned line being handed over.
    var planned: PlannedEvent?
    /// Lines read by their layout's plan (for tests).
    var linesPlanned = 0
    /// The minute of the last RFC 3339 time read (PostHog's `timestamp`).
    var recentMinute = RecentExportMinute()
    let writer = ImportedLineWriter()
    let wireNames = EventKind.WireNames()
    let syntheticWriter = ImportedLineWriter()
    /// The fields of the event being handed over, for the decoder (`ImportedEventFields`).
    let assembly = ImportedFieldAssembly()
    /// What the event being handed over maps to, kept for its synthetic start and its written line.
    var pending = PendingEvent()
    /// Internal for `EventImporter+SessionStates.swift`, which restores and hands over its states.
    var sessions = ImportedSessions()
    /// The SDK session of the previous event, as it stands in its line (with escapes when
    /// `lastSessionEscaped`): most events follow one of their own session.
    private var lastSessionBytes = GrowingBytes(capacity: 64)
    private var lastSessionEscaped = false
    /// That session's entry in `sessions` (before its first look-up, an entry of no launches), so
    /// that an event of the same session as the last does not look its name up again;
    /// `lastSessionKnown` says whether it was looked up, `lastSessionPlace` where it is kept (nil:
    /// not yet). Read in place, field by field: a copy of the entry retained and released its table of
    /// launch ids and its tab on every event.
    private var lastSessionState = SessionLaunches()
    private var lastSessionPlace: Int?
    var lastSessionKnown = false

    public struct SessionLaunches: Sendable, Equatable {
        /// The launch the session's next events belong to: 0 before any, 1 after its synthetic start.
        public var launches = 0
        /// Each launch id accepted, with the number of its launch.
        public var launchIds: [String: Int] = [:]
        public var tabRoot: String?
        /// While the session's only start is its synthetic one, that start's `ts` (`launchNumber`).
        public var syntheticStartTs: Int64?

        public init(launches: Int = 0, launchIds: [String: Int] = [:], tabRoot: String? = nil, syntheticStartTs: Int64? = nil) {
            self.launches = launches
            self.launchIds = launchIds
            self.tabRoot = tabRoot
            self.syntheticStartTs = syntheticStartTs
        }
    }

    /// The number of the launch at `ts` that is no retry of one seen: the next, except in a session
    /// whose only start so far is synthetic, where a launch at or before that start's `ts` is the first.
    ///
    /// Why: a synthetic start stands for the launch the source has no event for, at the session's first
    /// event read, and counts as the first launch. A launch read after it but no later in `ts` order is
    /// that launch, uploaded after the events it preceded (out of order by up to `max_lateness_ms`, SPEC
    /// §2, whose results equal those on the input sorted per session, where it comes first): it keeps
    /// the SDK's id, so that the events read before it are timed from it (`early-rating-prompt`), and
    /// the synthetic start beside it is no launch to the rules. A launch after the synthetic start's
    /// `ts` is a later launch, `<id>#2`: put into the first imported session, it would be late there
    /// once that session closed (after its `session.end`), and so would all of its launch's events.
    static func launchNumber(of state: SessionLaunches, at ts: Int64) -> Int {
        if let synthetic = state.syntheticStartTs, ts <= synthetic { return 1 }
        return state.launches + 1
    }

    /// One mapped event as it is being handed over: everything both the decoder's fields and the
    /// written line are made from.
    struct PendingEvent {
        var mapping = ImportedMapping.launch
        var envelope = ImportedEnvelope()
        var fields = ImportedFields.attributes
        /// Which launch of its SDK session the event belongs to: the imported session is the SDK's id
        /// past the first launch, `<id>#<launch>` (SPEC §7). A number, not the suffix as a `String`,
        /// which was retained and released on every event; the suffix is made only when written.
        var launch = 1
        var screenView: ScreenViewPlan?
    }

    /// What a screen view becomes, given the tab the session is on (SPEC §7, `import.tab_roots`).
    struct ScreenViewPlan {
        var kind: EventKind
        /// The tab left, for `nav.tab_switch`.
        var from: String?
        /// Whether the screen is a tab root: the session is then on its tab.
        var isTabRoot: Bool
    }

    /// Given the lines of ours the accepted events became, in order (a synthetic start before its
    /// event), each ending in a newline, with how many they are: what `import` writes. Lines are
    /// handed on in runs of about `acceptedRunBytes`, and the rest by `handOnAcceptedLines`, which
    /// the caller calls where its output changes or ends.
    public var onAcceptedLines: ((_ lines: UnsafeRawBufferPointer, _ count: Int) -> Void)? {
        didSet { writesAccepted = onAcceptedLines != nil }
    }
    /// Whether `onAcceptedLines` is set: read on every event, without loading (and retaining) the closure.
    private(set) var writesAccepted = false

    /// Bytes of accepted lines held before they are handed on: a few hundred lines, one call.
    static let acceptedRunBytes = 1 << 18

    /// Hands on the accepted lines not yet handed on (`onAcceptedLines`). Called between lines (not
    /// from inside `translate`'s handler), when no line is half-written.
    public func handOnAcceptedLines() {
        guard writer.keptLines > 0, let onAcceptedLines else { return }
        writer.handOnKept(onAcceptedLines)
    }

    /// Keeps the line just written for an accepted event, and hands the lines kept on once they fill a run.
    @inline(__always)
    func keepAcceptedLine() {
        writer.keepLine()
        if writer.keptBytes >= Self.acceptedRunBytes { handOnAcceptedLines() }
    }

    public init(format: ImportFormat, settings: ImportSettings = ImportSettings()) {
        self.format = format
        self.settings = settings
        // PostHog names an event in a line's first bytes; the others deep inside it.
        layouts = ExportLineLayouts(countsQuotes: format != .posthog, placesAttributeNames: format == .otlp)
    }

    deinit {
        tape.deallocate()
        layouts.deallocate()
        recordTape.deallocate()
        recordLayouts.deallocate()
        requestParts.deallocate()
    }

    /// SDK sessions seen so far, for tests of what memory follows.
    public var sessionsKnown: Int { sessions.count }

    /// The coverage written on the `session.start`s this importer makes.
    var touches: ImportedTouches { settings.touches ?? format.automaticTouches }

    /// What one judged source event is.
    enum Judged {
        case mapped(ImportedMapping, ImportedEnvelope, ImportedFields)
        case unknown(String)
        case problem(ImportProblem)
    }

    /// Translates one line (not blank) of the export. `handle` gets each of its records in order with
    /// its 1-based position in the line (0 when a line is one event, as in PostHog and Datadog RUM
    /// but for a Datadog events-API page, whose items are numbered),
    /// and says whether the event it got was accepted by the decoder, which commits what the importer
    /// learned from it (a launch, a tab).
    public func translate(_ line: UnsafeRawBufferPointer, _ handle: (_ record: Int32, ImportedRecord) -> Bool) {
        sourceBytes = line.count
        // While an OTLP export changes the order of its attribute lists, a request is read with its
        // lists in the order of their names (`OTLPAttributeOrder`); a problem's column is then moved
        // back to the export's line.
        // A reordered line that is not valid JSON is read again as it stands, before any of its records
        // was handed over (the tape finds it malformed before any is), so that it is reported as the
        // export's line reads. A request longer than a layout's line (a collector's batch) is read as
        // it stands while the record layouts seldom match (`recordsSortLine`).
        guard format == .otlp, sortsAttributes, line.count <= ExportLineLayouts.maxLineLength || recordsSortLine(),
              attributeOrder.takesLine(), let sorted = attributeOrder.reorder(line)
        else {
            // Columns are the line's own (the last line reordered is forgotten).
            if attributeOrder.reordered { attributeOrder.forgetLine() }
            return translateAsItStands(line, handle)
        }
        translateReordered(line, sorted, handle)
    }

    @inline(never)
    private func translateReordered(
        _ line: UnsafeRawBufferPointer, _ sorted: UnsafeRawBufferPointer, _ handle: (_ record: Int32, ImportedRecord) -> Bool
    ) {
        let order = attributeOrder
        reorderedLineIsMalformed = false
        translateAsItStands(sorted) { record, imported in
            guard case .malformed(var problem) = imported, let column = problem.column else { return handle(record, imported) }
            problem.column = order.sourceColumn(column)
            return handle(record, .malformed(problem))
        }
        guard reorderedLineIsMalformed else { return }
        attributeOrder.forgetLine()
        translateAsItStands(line, handle)
    }

    @inline(__always)
    private func translateAsItStands(_ line: UnsafeRawBufferPointer, _ handle: (_ record: Int32, ImportedRecord) -> Bool) {
        // A line longer than any layout's is seldom matched whole (only one whose values are long):
        // an OTLP request that long is read record by record, or, while records seldom match, by the
        // request reader, without asking the line layouts.
        let readsRecords = format == .otlp && readsLayouts && readsRecordLayouts
        let isLong = line.count > ExportLineLayouts.maxLineLength
        if readsRecords, isLong, recordsTakeLine(), translateRecords(line, minimumRecords: 1, handle) { return }
        // OTLP and PostHog lines are placed among the layouts by their event's name first
        // (`otlpLinePlaces`, `postHogLinePlaces`).
        let usesLayouts = readsLayouts && !(readsRecords && isLong) && layoutsTakeLine()
        let places: (lead: Int, alternative: Int?)? = switch format {
        case .otlp where usesLayouts: otlpLinePlaces(line)
        case .posthog where usesLayouts: postHogLinePlaces(line)
        default: nil
        }
        let hit = usesLayouts ? layouts.find(line, lead: places?.lead, alternative: places?.alternative) : nil
        var read = false
        if usesLayouts { noteLayoutsServed(matched: hit != nil) }
        if let hit {
            // A planned OTLP line is a request of one record, numbered 1 as `otlpRecords` numbers it.
            if readsPlans, let plan = plans.kept(for: hit.layout), serves(plan),
               translatePlanned(line, hit, plan, record: format == .otlp ? 1 : 0, handle) {
                return
            }
            lineLayout = layouts.accept(hit, line, into: &tape)
        } else {
            if readsRecords, !isLong, lastRequestWasMany, recordsTakeLine(), translateRecords(line, minimumRecords: 2, handle) {
                return
            }
            // An OTLP request's reader writes the tape `read` writes (which the layouts learn from)
            // and finds its places; a line it declines is read by the tape, which says what is wrong.
            read = format == .otlp && readsRequestsInOnePass && readOTLPRequest(line)
            if !read {
                do {
                    try tape.read(line)
                } catch {
                    // A line with its attributes reordered is read again as it stands (`translate`).
                    if attributeOrder.reordered {
                        reorderedLineIsMalformed = true
                        return
                    }
                    _ = handle(0, .malformed(error))
                    return
                }
            }
            lineLayout = usesLayouts
                ? layouts.learnRepeated(
                    tape, constantKeys: Self.layoutConstantKeys(format), lead: places?.lead, alternative: places?.alternative)
                : nil
        }
        assembly.startLine(line)
        switch format {
        case .posthog:
            let judged = postHogEvent()
            if case .mapped(.convention, let envelope, let fields) = judged { planPostHogLayout(envelope, fields) }
            emit(record: 0, judged, handle)
        case .datadogRUM:
            let places = datadogMemo.place(lineLayout) { datadogLinePlaces() }
            if let items = places.pointee.pageItems {
                datadogPage(items, handle)
                return
            }
            let judged = datadogEvent(places)
            if case .mapped(.convention, let envelope, let fields) = judged { planDatadogLayout(envelope, fields) }
            emit(record: 0, judged, handle)
        case .otlp: otlpRecords(handle, read: read)
        }
    }

    /// Whether the line goes to the layouts (`find`, and `learnRepeated` when it misses): every line
    /// while they match at least half the lines of a block, else one in `sparseLayoutOdds`, and one in
    /// `rareLayoutOdds` after a block of those in which none matched.
    ///
    /// Why: a line a layout matches costs a fraction of one read the general way, but a line that
    /// misses pays for the search, its signature and, seen twice, its learning and planning, several
    /// times what a match saves. An exporter that orders a record's attributes anew on every record
    /// (OpenTelemetry Swift writes a Swift dictionary, whose order is per instance) or in each
    /// session makes most lines miss for good; one whose layouts repeat is matched well within a
    /// block once they are learned. The lines that still go to the layouts tell when that changes;
    /// while none of them matches (an order new on every line), fewer are asked, the block staying
    /// as many lines of the export.
    @inline(__always)
    private func layoutsTakeLine() -> Bool {
        guard layoutsSparse else { return true }
        sparseTurn &+= 1
        return sparseTurn & (layoutOdds &- 1) == 0
    }

    /// Counts a line that went to the layouts; at a block's end, decides the next block's way.
    @inline(__always)
    private func noteLayoutsServed(matched: Bool) {
        linesAsked &+= 1
        blockLines &+= 1
        if matched { blockMatches &+= 1 }
        // A sparse block is as many lines of the export, of which one in `layoutOdds` counted.
        guard blockLines >= (layoutsSparse ? Self.layoutBlock / layoutOdds : Self.layoutBlock) else { return }
        let wasSparse = layoutsSparse
        layoutsSparse = blockMatches &* 2 < blockLines
        layoutOdds = wasSparse && layoutsSparse && blockMatches == 0 ? Self.rareLayoutOdds : Self.sparseLayoutOdds
        blockLines = 0
        blockMatches = 0
    }

    /// Whether a request of many records may be read with its attribute lists in name order
    /// (`OTLPAttributeOrder`, which then decides): while the record layouts match, and on the request
    /// `recordsTakeLine` sends to them while they are sparse (it is asked next, by
    /// `translateAsItStands`).
    ///
    /// Why: in name order, the records of a writer that orders each record's attributes anew repeat
    /// their layouts, so that reading them by layout pays for the order (a batch of such records
    /// costs about a quarter less). Where the record layouts seldom match anyway (a varied mix of
    /// many devices), the order is read for nothing and a batch costs about a quarter more; the
    /// probe that may make the layouts serve again is read in order, as the requests it stands for
    /// would be.
    @inline(__always)
    private func recordsSortLine() -> Bool {
        !recordsSparse || (recordSparseTurn &+ 1) % Self.rareLayoutOdds == 0
    }

    /// Whether a request of many records goes to the record layouts (`translateRecords`): every one
    /// while they match at the first try at least three in four records of a block (fifteen in
    /// sixteen while requests are read in name order), else one in `rareLayoutOdds`; the others are
    /// read in one pass (`OTLPRequestReader`).
    ///
    /// Why: a record a layout matches costs a fraction of one read in one pass, but one that misses
    /// is read twice by the general scan (to frame it and again to hand it over), its resource once
    /// more, and it pays for the search and the learning: several times what a match saves. So the
    /// bar is higher than the line layouts' (`layoutsTakeLine`), whose misses cost less. A collector
    /// batching an SDK's records whose attributes come in a new order each (OpenTelemetry Swift's)
    /// makes nearly every record miss for good; one batching many devices' records of a varied mix
    /// makes many miss, new layouts of rare events among them. And a probe is a whole request of
    /// many records, not one line of one event, so the odds are the rare ones from the start.
    @inline(__always)
    private func recordsTakeLine() -> Bool {
        guard recordsSparse else { return true }
        recordSparseTurn &+= 1
        return recordSparseTurn % Self.rareLayoutOdds == 0
    }

    /// Counts the records of a request that went to the record layouts, and how many matched at the
    /// first try; at a block's end (`layoutBlock` records, fewer while sparse, as for lines), decides
    /// the next block's way.
    func noteRecordsServed(records: Int, matched: Int) {
        recordsAsked &+= records
        recordsMatchedFirst &+= matched
        recordBlockRecords &+= records
        recordBlockMatches &+= matched
        guard recordBlockRecords >= (recordsSparse ? Self.layoutBlock / Self.rareLayoutOdds : Self.layoutBlock) else { return }
        // While requests are read in name order (`recordsSortLine`), the order costs each record about
        // what a match saves over a miss: the layouts serve only when nearly every record matches.
        recordsSparse = attributeOrder.sorting
            ? recordBlockMatches &* 16 < recordBlockRecords &* 15
            : recordBlockMatches &* 4 < recordBlockRecords &* 3
        recordBlockRecords = 0
        recordBlockMatches = 0
    }

    /// Members whose string values a layout of `format` keeps constant (`ExportLineLayouts.learn`):
    /// OTLP's attribute names, and its instrumentation scope's `name` and `version` (the only members
    /// of those names in a request), which an exporter writes alike on every line.
    static func layoutConstantKeys(_ format: ImportFormat) -> [StaticString] {
        format == .otlp ? ["key", "name", "version"] : []
    }

    func emit(record: Int32, _ judged: Judged, _ handle: (Int32, ImportedRecord) -> Bool) {
        switch judged {
        case .unknown(let name):
            _ = handle(record, .unknownType(name))
        case .problem(let problem):
            _ = handle(record, .malformed(problem.line))
        case .mapped(let mapping, let envelope, let fields):
            emitMapped(record: record, mapping, envelope, fields, handle)
        }
    }

    private func emitMapped(
        record: Int32, _ mapping: ImportedMapping, _ envelope: ImportedEnvelope, _ fields: ImportedFields,
        _ handle: (Int32, ImportedRecord) -> Bool
    ) {
        noteSession(envelope.session)
        guard lastSessionBytes.count > 0 else {
            _ = handle(record, .malformed(MalformedLine(reason: "the session id is empty")))
            return
        }
        lookUpLastSession()
        let launches = lastSessionState.launches
        let isLaunch: Bool
        switch mapping {
        case .launch, .convention(.sessionStart): isLaunch = true
        default: isLaunch = false
        }
        var launch = max(launches, 1)
        var newLaunch = false
        var needsSynthetic = false
        var launchId: String?
        if isLaunch {
            launchId = envelope.id.map { tape.string($0) }
            if let launchId, let earlier = lastSessionState.launchIds[launchId] {
                launch = earlier
            } else {
                launch = Self.launchNumber(of: lastSessionState, at: envelope.ts)
                newLaunch = true
            }
        } else if launches == 0 {
            needsSynthetic = true
        }
        pending.mapping = mapping
        pending.envelope = envelope
        pending.fields = fields
        pending.launch = launch
        pending.screenView = nil
        if case .screenView(let screen) = mapping { pending.screenView = screenViewPlan(screen, tabRoot: lastSessionState.tabRoot) }
        if let tooLong = pendingLineTooLong() {
            _ = handle(record, .malformed(tooLong))
            return
        }
        let accepted = handle(record, .event(ImportedEventFields(
            importerReference: Unmanaged.passUnretained(self), hasSyntheticStart: needsSynthetic, isPlanned: false)))
        guard accepted else { return }
        if writesAccepted {
            if needsSynthetic {
                writeSyntheticStart(envelope)
                writer.keepLine(of: syntheticWriter)
            }
            writePending()
            keepAcceptedLine()
        }
        let tabRoot = pending.screenView.flatMap { plan -> String? in
            guard plan.isTabRoot, case .screenView(let screen) = mapping else { return nil }
            return screen
        }
        // Most events teach nothing: the session's entry is written back only when it changes.
        guard newLaunch || needsSynthetic || (tabRoot != nil && tabRoot != lastSessionState.tabRoot) else { return }
        var state = lastSessionState
        if newLaunch {
            // A launch that begins a new imported session begins on no tab; a first launch after a
            // synthetic start is in the imported session of the events read before it, which follow it
            // in `ts` order: the tab they showed is still the one the person is on.
            if launch > state.launches { state.tabRoot = nil }
            state.launches = launch
            if let launchId { state.launchIds[launchId] = launch }
            state.syntheticStartTs = nil
        }
        if needsSynthetic {
            state.launches = 1
            state.syntheticStartTs = envelope.ts
        }
        if let tabRoot { state.tabRoot = tabRoot }
        lastSessionPlace = sessions.keep(state, at: lastSessionPlace, raw: lastSession, name: lastSessionName)
        lastSessionState = state
    }

    /// The first tab root a session shows is where it starts (a push), not a switch from a tab; the
    /// tab it is on again is a pop; another tab root is a switch.
    private func screenViewPlan(_ screen: String, tabRoot: String?) -> ScreenViewPlan {
        guard settings.isTabRoot(screen) else { return ScreenViewPlan(kind: .navPush, from: nil, isTabRoot: false) }
        guard let current = tabRoot else { return ScreenViewPlan(kind: .navPush, from: nil, isTabRoot: true) }
        if current == screen { return ScreenViewPlan(kind: .navPop, from: nil, isTabRoot: true) }
        return ScreenViewPlan(kind: .tabSwitch, from: current, isTabRoot: true)
    }

    /// Makes the string at `index` the SDK session of the events that follow: read in place by the
    /// caller, not returned (a returned `String` was retained and released on every event).
    private func noteSession(_ index: Int) {
        let raw = tape.bytes(index)
        let escaped = tape[index].flag
        if escaped == lastSessionEscaped, isLastSession(raw) { return }
        noteSession(raw, escaped: escaped)
    }

    private func isLastSession(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        raw.count == lastSessionBytes.count && ByteComparison.equal(lastSessionBytes.start, raw.baseAddress!, count: raw.count)
    }

    private func noteSession(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) {
        lastSessionEscaped = escaped
        lastSessionKnown = false
        lastSessionBytes.count = 0
        lastSessionBytes.append(UnsafeRawBufferPointer(raw))
    }

    /// The last session's bytes as they stand in its line (valid until the next `noteSession`).
    private var lastSession: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: lastSessionBytes.start, count: lastSessionBytes.count)
    }

    /// The last session's name, unescaped.
    private func lastSessionName() -> String {
        let raw = lastSession
        return lastSessionEscaped
            ? JSONStringUnescaper.string(base: raw.baseAddress!, start: 0, end: raw.count)
            : String(decoding: raw, as: UTF8.self)
    }

    /// Reads the last session's entry, unless it was read since it became the last.
    @inline(__always)
    private func lookUpLastSession() {
        guard !lastSessionKnown else { return }
        lastSessionPlace = sessions.place(raw: lastSession, name: lastSessionName)
        lastSessionState = lastSessionPlace.map { sessions.states[$0] } ?? SessionLaunches()
        lastSessionKnown = true
    }

    /// Makes the SDK session named by `raw` (not empty, with no escapes) the last, and returns how
    /// many of its launches were accepted: what `emitMapped` reads of it for an event that is no launch.
    func launchesOfSession(plain raw: UnsafeBufferPointer<UInt8>) -> Int {
        if lastSessionEscaped || !isLastSession(raw) { noteSession(raw, escaped: false) }
        lookUpLastSession()
        return lastSessionState.launches
    }

    // MARK: Writing

    private func writeEnvelope(
        into w: ImportedLineWriter, _ envelope: ImportedEnvelope, ts: Int64, launch: Int,
        type: StaticString, screen: String?, writeId: Bool
    ) {
        w.begin()
        w.integer("ts", ts)
        w.value("session", from: tape, envelope.session)
        if launch > 1 {
            // Reopen the string just written to add `#n` inside its quotes.
            w.dropLastByte()
            w.appendRawBytes("#\(launch)")
            w.appendRawBytes("\"")
        }
        w.string("type", type)
        if let device = envelope.device { w.value("device", from: tape, device) }
        if let version = envelope.appVersion { w.value("app_version", from: tape, version) }
        if let os = envelope.osVersion { w.value("os_version", from: tape, os) }
        if let screen { w.string("screen", screen) } else if let screen = envelope.screen { w.value("screen", from: tape, screen) }
        if writeId, let id = envelope.id { w.value("id", from: tape, id) }
    }

    /// Writes the line of ours the pending event is (`import`'s output, and the oracle the decoder's
    /// fields are tested against).
    func writePending() {
        let envelope = pending.envelope
        let launch = pending.launch
        switch pending.mapping {
        case .convention(let kind):
            let loading = kind == .loadingStart || kind == .loadingEnd
            writeEnvelope(into: writer, envelope, ts: envelope.ts, launch: launch, type: kind.wireNameLiteral,
                          screen: nil, writeId: !loading)
            writeOtherFields(envelope.fields, pending.fields, keepId: loading)
        case .screenView(let screen):
            let plan = pending.screenView!
            writeEnvelope(into: writer, envelope, ts: envelope.ts, launch: launch, type: plan.kind.wireNameLiteral,
                          screen: screen, writeId: true)
            if let from = plan.from { writer.string("from", from) }
            writer.string("to", screen)
        case .tap(let target, let x, let y):
            writeEnvelope(into: writer, envelope, ts: envelope.ts, launch: launch, type: "touch", screen: nil, writeId: true)
            writer.string("phase", "ended")
            if let target, !target.isEmpty { writer.string("target", TouchTargetName.target(target)) }
            if let x { writer.number("x", x) }
            if let y { writer.number("y", y) }
        case .launch:
            writeEnvelope(into: writer, envelope, ts: envelope.ts, launch: launch, type: "session.start", screen: nil, writeId: true)
            writer.string("touches", touches.rawValue)
        case .background:
            writeEnvelope(into: writer, envelope, ts: envelope.ts, launch: launch, type: "session.end", screen: nil, writeId: true)
        case .ready(let ts):
            writeEnvelope(into: writer, envelope, ts: ts, launch: launch, type: "app.ready", screen: nil, writeId: true)
        }
        writer.end()
    }

    /// The `session.start` (`synthetic: true`) of a session whose source had no launch event, at
    /// its first event (SPEC §7 "Touch coverage").
    func writeSyntheticStart(_ envelope: ImportedEnvelope) {
        let w = syntheticWriter
        var bare = envelope
        bare.screen = nil
        bare.id = nil
        writeEnvelope(into: w, bare, ts: envelope.ts, launch: 1, type: "session.start", screen: nil, writeId: false)
        w.string("touches", touches.rawValue)
        w.bool("synthetic", true)
        w.end()
    }

    /// Our common fields, which the envelope gives and other fields may not override.
    private static let envelopeKeys: [StaticString] = ["ts", "session", "type", "device", "app_version", "os_version", "screen"]

    private func isEnvelopeKey(_ key: Int, keepId: Bool) -> Bool {
        if !tape[key].flag {
            // Most keys: told by their length and bytes, without a pass over the list.
            let raw = tape.bytes(key)
            guard let start = raw.baseAddress else { return false }
            let bytes = ByteSlice(start: start, count: raw.count)
            switch raw.count {
            case 2: return bytes == "ts" || (!keepId && bytes == "id")
            case 4: return bytes == "type"
            case 6: return bytes == "device" || bytes == "screen"
            case 7: return bytes == "session"
            case 10: return bytes == "os_version"
            case 11: return bytes == "app_version"
            default: return false
            }
        }
        // Our common fields start with one of these letters; most other fields are passed at once.
        let first = tape.bytes(key).first ?? 0
        guard first == UInt8(ascii: "t") || first == UInt8(ascii: "s") || first == UInt8(ascii: "d")
            || first == UInt8(ascii: "a") || first == UInt8(ascii: "o") || first == UInt8(ascii: "i")
        else { return false }
        if !keepId, tape.keyEquals(key, "id") { return true }
        return Self.envelopeKeys.contains { tape.keyEquals(key, $0) }
    }

    private func writeOtherFields(_ container: Int?, _ fields: ImportedFields, keepId: Bool) {
        if case .attributes = fields, let held = otlpRecordFields, held.attributes == container {
            // An OTLP record's fields came with its places (kept by layout, or found in one pass).
            for attribute in held.fields.pointee.written where keepId || !attribute.isId {
                writeOtherField(attribute.key &+ held.record, attribute.value.moved(by: held.record))
            }
            return
        }
        forEachOtherField(container, fields, keepId: keepId) { key, value in writeOtherField(key, value) }
    }

    @inline(__always)
    private func writeOtherField(_ key: Int, _ value: OtherFieldValue) {
        switch value {
        case .asItStands(let index): writer.member(from: tape, key: key, value: index)
        case .intValue(let index):
            if let integer = integerAttribute(index) {
                writer.member(rawKey: tape.bytes(key), integer: integer)
            } else {
                writer.member(from: tape, key: key, value: index)
            }
        }
    }

    /// A field of the event's own that the export gives: its value as it stands in the line, or OTLP's
    /// `intValue`, an integer converted from the export's form of it (`integerAttribute`) when it is
    /// one, else as it stands. Which of the two depends on the line's structure only (`OtherFieldsMemo`).
    enum OtherFieldValue {
        case asItStands(Int)
        case intValue(Int)

        /// The same value `offset` entries further in the tape.
        func moved(by offset: Int) -> Self {
            switch self {
            case .asItStands(let index): .asItStands(index &+ offset)
            case .intValue(let index): .intValue(index &+ offset)
            }
        }
    }

    /// Calls `body` with each of the event's other fields (the key's entry, the value) in their order
    /// in the line: what the written line holds after the envelope, and what the decoder is handed.
    func forEachOtherField(_ container: Int?, _ fields: ImportedFields, keepId: Bool, _ body: (Int, OtherFieldValue) -> Void) {
        guard let container else { return }
        switch fields {
        case .object(let skipDollar):
            tape.forEachMember(container) { key, value in
                if skipDollar, tape.hasPrefix(key, "$") { return }
                if isEnvelopeKey(key, keepId: keepId) { return }
                body(key, .asItStands(value))
            }
        case .attributes:
            forEachAttribute(container, keepId: keepId, body)
        }
    }
}

