import GRDB
import HIGAuditCore

/// The SPEC §4 tables over everything the store holds, built by the same `AnalysisAccumulator` that
/// `analyze` uses: each stored session is replayed as the `SessionReport` the engine produced, so the
/// tables of the store equal those of one `analyze` over the same input (the `violations` table byte
/// for byte in CSV).
///
/// Built from one read transaction, so the tables describe one consistent snapshot.
public struct StoredTables: Sendable {
    public let accumulator: AnalysisAccumulator
    public let sources: SourceFileTable
    /// The ingest counters summed over the selected runs (all runs when none is selected).
    public let ingest: IngestStatistics
    /// Sessions left open by the latest run (checkpointed for the next).
    public let openSessions: Int

    /// What to say about `filter`'s app versions and devices that match no stored session.
    public static func filterMisses(_ db: Database, filter: TableFilter) throws -> [String] {
        let versions = filter.appVersions.isEmpty ? [] : try String.fetchSet(db, sql: "SELECT DISTINCT app_version FROM sessions")
        let devices = filter.devices.isEmpty ? [] : try String.fetchSet(db, sql: "SELECT DISTINCT device FROM sessions")
        return FilterMisses.notes(for: filter, appVersions: versions, devices: devices)
    }

    /// Reads the store. Session filters are applied in SQL; the accumulator applies the rest exactly
    /// as `analyze` does.
    /// `showsSuppressed` lists the violations their runs suppressed in `violations` too, flagged
    /// (`query --show-suppressed`).
    public static func load(_ db: Database, selection: StoreSelection = .everything, showsSuppressed: Bool = false) throws -> StoredTables {
        let accumulator = try accumulate(db, selection: selection, sessions: .all, showsSuppressed: showsSuppressed)
        return try StoredTables(db, accumulator: accumulator, selection: selection)
    }

    /// `load` of `store`, its sessions counted in two halves at once, on this thread and a connection
    /// of the store's own (`ResultsStore.read(_:alongside:)`, one snapshot) when it has at least
    /// `minimumSessions`, and the two accumulators merged: the tables are the same as `load`'s (see
    /// `AnalysisAccumulator.merge`), reading a large store takes two cores.
    public static func load(
        _ store: ResultsStore, selection: StoreSelection = .everything, showsSuppressed: Bool = false, minimumSessions: Int = 2_000
    ) throws -> StoredTables {
        // Any session splits them correctly; the middle one of this moment only balances the halves.
        // Read without waiting for a reader's check of the store: it is no answer, and the check goes
        // on beside the halves (`read` waits for it before it returns them).
        let middle: String?
        do {
            middle = try store.queue.read { db -> String? in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? 0
                guard count >= max(minimumSessions, 2) else { return nil }
                return try String.fetchOne(
                    db, sql: "SELECT session FROM sessions ORDER BY session LIMIT 1 OFFSET ?", arguments: [count / 2])
            }
        } catch {
            // A damaged store is reported as such, as `read` would after its check.
            try store.integrityCheck?.verdict()
            throw StoreError.describing(error, store: store.path)
        }
        guard let middle else { return try store.read { try load($0, selection: selection, showsSuppressed: showsSuppressed) } }
        let (first, later) = try store.read(
            { db in
                try StoredTables(
                    db, accumulator: accumulate(db, selection: selection, sessions: .before(middle), showsSuppressed: showsSuppressed),
                    selection: selection)
            },
            alongside: { db in try accumulate(db, selection: selection, sessions: .from(middle), showsSuppressed: showsSuppressed) })
        var accumulator = first.accumulator
        accumulator.merge(later)
        return StoredTables(accumulator: accumulator, sources: first.sources, ingest: first.ingest, openSessions: first.openSessions)
    }

    /// Which of the selected sessions an accumulation counts, by their ids' order.
    enum SessionRange: Sendable {
        case all
        case before(String)
        case from(String)

        /// The condition on `column`, and its argument.
        func condition(on column: String) -> (sql: String, argument: String)? {
            switch self {
            case .all: nil
            case .before(let session): ("\(column) < ?", session)
            case .from(let session): ("\(column) >= ?", session)
            }
        }
    }

    /// The rules, files, counters and open sessions of the store, with `accumulator`.
    private init(_ db: Database, accumulator: AnalysisAccumulator, selection: StoreSelection) throws {
        let paths = try Row.fetchAll(db, sql: "SELECT id, display_path FROM input_files ORDER BY id")
        var table = [String](repeating: "", count: (paths.last.map { Int($0["id"] as Int64) } ?? 0) + 1)
        for row in paths { table[Int(row["id"] as Int64)] = row["display_path"] }
        self.init(
            accumulator: accumulator, sources: SourceFileTable(paths: table),
            ingest: try Self.ingest(db, runs: selection.runs),
            openSessions: try Self.openSessions(db, runs: selection.runs))
    }

    /// The sessions left open for a later run: by the last of `runs` when they are chosen (`--run`),
    /// as the ingest counters beside them are those runs', else by the store's checkpoint now.
    static func openSessions(_ db: Database, runs: Set<Int64>) throws -> Int {
        guard let last = runs.max() else {
            return try Int.fetchOne(db, sql: "SELECT open_sessions FROM engine_checkpoint WHERE id = 1") ?? 0
        }
        return try Int.fetchOne(db, sql: "SELECT open_sessions FROM runs WHERE id = ?", arguments: [last]) ?? 0
    }

    private init(accumulator: AnalysisAccumulator, sources: SourceFileTable, ingest: IngestStatistics, openSessions: Int) {
        self.accumulator = accumulator
        self.sources = sources
        self.ingest = ingest
        self.openSessions = openSessions
    }

    /// Every selected session of `sessions` replayed as its `SessionReport` into an accumulator.
    private static func accumulate(
        _ db: Database, selection: StoreSelection, sessions range: SessionRange, showsSuppressed: Bool
    ) throws -> AnalysisAccumulator {
        let ruleRows = try Row.fetchAll(db, sql: "SELECT rule FROM rules ORDER BY rule")
        let rules = ruleRows.compactMap { RuleRegistry.description(of: $0["rule"] as String) }
        // Each violation carries the verdict of the run that recorded it (SPEC §6); a store from before
        // migration v3 suppressed nothing.
        let recordsJudgements = try StoreSchema.recordsJudgements(db)
        let judgedWithEntries = try recordsJudgements && RecordedJudgements.hadExclusions(db, runs: selection.runs)
        var accumulator = AnalysisAccumulator(
            rules: rules, filter: selection.filter, keepsViolations: true,
            suppression: Suppression(judgedEarlierWithEntries: judgedWithEntries), showsSuppressed: showsSuppressed)
        let violationColumns = Self.violationColumns + (recordsJudgements ? ", v.suppressed" : ", 0")

        var (conditions, arguments) = selection.sessionConditions()
        let selectsSessions = !conditions.isEmpty
        if let (sql, argument) = range.condition(on: "s.session") {
            conditions.append(sql)
            _ = arguments.append(contentsOf: [argument])
        }
        let population = conditions.whereClause
        // Without session filters no join is needed; each session's violations are put in SPEC order
        // below, so the index on (session, start_ts) gives the order without a sort.
        var ownConditions: [String] = []
        var ownArguments = StatementArguments()
        if let (sql, argument) = range.condition(on: "session") {
            ownConditions.append(sql)
            _ = ownArguments.append(contentsOf: [argument])
        }
        // Columns are named in the SELECTs and read by position: GRDB would look a column up by its name
        // at every access, for every row of the store. A store made before migration v6 held no touch
        // coverage: its sessions were judged as holding every touch.
        let touches = try StoreSchema.touchesExpression(db, alias: "s")
        let sessions = try Row.fetchCursor(
            db,
            sql: """
                SELECT s.session, s.device, s.app_version, s.first_ts, s.last_ts, s.events, \(touches)
                FROM sessions s \(population) ORDER BY s.session
                """,
            arguments: arguments)
        let violations = try Row.fetchCursor(
            db,
            sql: selectsSessions
                ? "SELECT \(violationColumns) FROM violations v JOIN sessions s ON s.session = v.session \(population) ORDER BY v.session"
                : "SELECT \(violationColumns) FROM violations v \(ownConditions.map { "v." + $0 }.whereClause) ORDER BY v.session",
            arguments: selectsSessions ? arguments : ownArguments)
        let haptics = try Row.fetchCursor(
            db,
            sql: selectsSessions
                ? "SELECT h.session, h.kind, h.count FROM session_haptics h JOIN sessions s ON s.session = h.session \(population) ORDER BY h.session"
                : "SELECT h.session, h.kind, h.count FROM session_haptics h \(ownConditions.map { "h." + $0 }.whereClause) ORDER BY h.session",
            arguments: selectsSessions ? arguments : ownArguments)
        var nextViolation = try violations.next().map(Self.violation)
        // A session's violations with their recorded flags, and the flags in the order counted: kept
        // from session to session so that their storage is reused.
        var judged: [(violation: Violation, suppressed: Bool)] = []
        var flags: [Bool] = []
        var nextHaptic = try haptics.next().map(Self.haptic)
        while let row = try sessions.next() {
            var report = SessionReport(
                session: row[0], device: row[1], appVersion: row[2], firstTs: row[3], lastTs: row[4], acceptedEvents: row[5],
                hapticCounts: [:], violations: [], touches: Self.coverage(row[6]))
            judged.removeAll(keepingCapacity: true)
            // SQLite orders text by its UTF-8 bytes; the merge compares the same way.
            while let (violation, suppressed) = nextViolation, !report.session.precedesInByteOrder(violation.session) {
                if violation.session.utf8.elementsEqual(report.session.utf8), selection.admits(violation) {
                    judged.append((violation, suppressed))
                }
                nextViolation = try violations.next().map(Self.violation)
            }
            while let (session, kind, count) = nextHaptic, !report.session.precedesInByteOrder(session) {
                if session.utf8.elementsEqual(report.session.utf8), let hapticKind = HapticKind(rawValue: kind) {
                    report.hapticCounts[hapticKind, default: 0] += count
                }
                nextHaptic = try haptics.next().map(Self.haptic)
            }
            judged.sort { Violation.sessionOrder($0.violation, $1.violation) }
            report.violations = judged.map(\.violation)
            flags.removeAll(keepingCapacity: true)
            flags.append(contentsOf: judged.lazy.map(\.suppressed))
            accumulator.add(report, recordedSuppression: recordsJudgements ? flags : nil)
        }
        return accumulator
    }

    /// The table called `name`; `ingest` has an `open_sessions` column added (sessions checkpointed
    /// for the next run, `openSessions`).
    public func table(_ name: TableName) -> HIGAuditCore.Table {
        guard name == .ingest else { return accumulator.table(name, ingest: ingest, sources: sources) }
        let plain = IngestTables.ingestTable(ingest)
        let row = (plain.rowCount > 0 ? plain.row(0) : []) + [.int(openSessions)]
        return HIGAuditCore.Table(name: "ingest", columns: plain.columns + [.integer("open_sessions")], rows: [row])
    }

    private static let violationColumns = """
        v.rule, v.severity, v.session, v.device, v.app_version, v.screen, v.start_ts, v.end_ts, v.count, v.detail, \
        v.source_file, v.source_line
        """

    /// A row of `violationColumns` and the suppressed flag after them.
    private static func violation(_ row: Row) -> (Violation, Bool) {
        let file: Int64 = row[10]
        let violation = Violation(
            rule: row[0], severity: Severity(rawValue: row[1]) ?? .warning, session: row[2], device: row[3],
            appVersion: row[4], screen: row[5], startTs: row[6], endTs: row[7], count: row[8], detail: row[9],
            source: SourceLocation(file: Int32(clamping: file), line: row[11]))
        return (violation, (row[12] as Int64) != 0)
    }

    /// A stored `sessions.touches`. The column's CHECK admits only `TouchCoverage`'s values; anything
    /// else would be read as lacking touches, so that no rule is credited with a session it could not judge.
    static func coverage(_ text: String) -> TouchCoverage {
        TouchCoverage(rawValue: text) ?? .none
    }

    /// A row of `session_haptics`' session, kind and count.
    private static func haptic(_ row: Row) -> (session: String, kind: String, count: Int) {
        (row[0], row[1], row[2])
    }

    /// The ingest counters summed over `runs` (all runs when empty), as the `ingest` table gives them.
    public static func ingest(_ db: Database, runs: Set<Int64>) throws -> IngestStatistics {
        let condition = runs.isEmpty ? "" : "WHERE id IN (\(runs.sorted().map(String.init).joined(separator: ",")))"
        var statistics = IngestStatistics()
        // A store no nightly run has opened since a counter's column was added reads it as 0.
        let present = try StoreSchema.runsColumns(db)
        let counters = IngestStatistics.counters.filter(\.isSettable)
        let totals = counters.map { present.contains($0.name) ? "TOTAL(\($0.name))" : "0.0" }
        // A file refused because it changed after it was counted (`files_changed`) is a fault.
        if let row = try Row.fetchOne(
            db, sql: "SELECT \(totals.joined(separator: ", ")), TOTAL(files_changed) FROM runs \(condition)")
        {
            func value(_ index: Int) -> Int64 { Int64((row[index] as Double?) ?? 0) }
            for (index, counter) in counters.enumerated() { counter.set(&statistics, value(index)) }
            statistics.faults += Int(value(counters.count))
        }
        let typeCondition = runs.isEmpty ? "" : "WHERE run_id IN (\(runs.sorted().map(String.init).joined(separator: ",")))"
        for row in try Row.fetchAll(db, sql: "SELECT type, SUM(events) AS events FROM unknown_types \(typeCondition) GROUP BY type") {
            statistics.unknownTypes[row["type"]] = row["events"]
        }
        return statistics
    }
}
