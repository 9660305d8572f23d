import Foundation
import GRDB
import HIGAuditCore
import HIGAuditIO

/// What one nightly run did, for the exit status and the log line.
public struct NightlyOutcome: Sendable, Equatable {
    public var runID: Int64
    /// Reader, decoder and engine counters of this run (the `ingest` row of the run).
    public var statistics: IngestStatistics
    public var filesRead = 0
    /// Files already counted (same content, maybe another name): not read.
    public var filesSkipped = 0
    /// Files whose content changed since they were counted: reported, not read.
    public var filesChanged = 0
    /// Files with an unterminated last line held back for a later run.
    public var tailsHeldBack = 0
    public var sessionsClosed = 0
    public var openSessions = 0
    /// Violations recorded that count: the suppressed ones are in `suppressed` only (SPEC §6).
    public var violations = 0
    /// Violations an `exclude:` entry in force suppressed, recorded with their flag.
    public var suppressed = 0
    /// Whether the store had no session and no violation, so the rows' indexes were built after the
    /// run's inserts instead of kept row by row (`RowIndex`).
    public var rowIndexesBuiltAfterInserts = false
    /// Open sessions whose checkpoint row this run wrote (new, or changed since the last checkpoint);
    /// the others kept their rows (`CheckpointWriter`).
    public var checkpointSessionsWritten = 0

    /// SPEC §5: the run finished but skipped input (changed files included).
    public var skippedInput: Bool { statistics.skippedInput || filesChanged > 0 }
}

/// One nightly run: reads the inputs the store has not counted, continues the stream from the stored
/// engine checkpoint, and records runs, files, closed sessions, violations and the new checkpoint in
/// **one transaction** (SPEC §5), so a run killed at any moment leaves the store as it was.
///
/// Inputs are identified by content (`FileIdentity`); a file's source column is `PATH:LINE` with PATH
/// as this run names the file, and the file's store id is its index in the stream's file order.
public final class NightlyRun {
    let store: ResultsStore
    let configuration: AuditConfiguration
    let reader: InputReader
    let closeOpen: Bool
    /// `--strict`: a run that skipped input commits nothing.
    public var strict = false
    /// Threads reading inputs (`RunPipeline`); the store is the same for any number.
    public var jobs = 1
    /// Set to read another tool's export (`--from`, SPEC §7): every input is translated by it.
    public var importer: EventImporter?
    let onDiagnostic: (Diagnostic) -> Void
    /// Called after each input with its display path and what happened to it ("read", "skipped", …).
    public var onFile: ((String, String) -> Void)?
    /// The exclusions, config fingerprint and baseline the run judges with and records; set before `run`.
    public var judgement = RunJudgement.none
    /// `--shard K/N`: this run writes one shard's partial store (`ShardPart`); set before `run`.
    public var shardPart: ShardPart?
    /// Test hook: called after each input is read, inside the transaction (the kill test stops here).
    public var afterEachFile: (() -> Void)?

    /// How many closed sessions' checkpoint rows are deleted together (`CheckpointWriter`); tests make
    /// it small.
    var checkpointDeleteBatch = CheckpointWriter.deleteBatch

    public init(
        store: ResultsStore, configuration: AuditConfiguration, reader: InputReader, closeOpen: Bool,
        onDiagnostic: @escaping (Diagnostic) -> Void
    ) {
        self.store = store
        self.configuration = configuration
        self.reader = reader
        self.closeOpen = closeOpen
        self.onDiagnostic = onDiagnostic
    }

    /// Runs over `sources` (stored files; standard input cannot be identified by content) and commits.
    /// `unreadable` are problems found while resolving the inputs; they count as faults.
    public func run(_ sources: [InputSource], unreadable: [Diagnostic] = [], now: Date = Date()) throws -> NightlyOutcome {
        try store.queue.write { db in
            try RunTransaction(db: db, run: self, startedAt: Int64(now.timeIntervalSince1970 * 1000))
                .execute(sources, unreadable: unreadable)
        }
    }
}

/// The body of one run's transaction.
private final class RunTransaction {
    let db: Database
    let run: NightlyRun
    let startedAt: Int64
    var identity: FileIdentity
    /// The store's counted files, looked up by `identity`.
    let storedFiles: StoredFiles
    let files: RunFiles
    /// Counters of what was found before reading (faults of inputs that could not be examined); the
    /// pipeline's and the engine's are added at the end.
    var statistics = IngestStatistics()
    var outcome: NightlyOutcome
    var engine: SessionEngine?
    /// The stored checkpoint's rows, kept up to date as sessions close and at the end of the run.
    var checkpoint: CheckpointWriter?
    /// Inputs handed to the pipeline and not concluded yet, by store id. The run commits only after
    /// every one is concluded (a failure anywhere rolls the transaction back), which is why a new file's
    /// rows can wait for its conclusion.
    var pending: [Int32: PendingFile] = [:]
    /// The store id of the next new file: ids are given in input order, as SQLite would give them, and
    /// a new file's row is written once, when it is concluded.
    var nextFileID: Int64
    var failure: (any Error)?
    /// The statements run once per input file, new or closed session, haptic kind and violation.
    let statements: RunStatements
    /// The names of files counted by earlier runs, read as the run first cites each.
    var earlierFiles: EarlierFileNames
    /// Into a store without sessions or violations, the rows' indexes are built after the inserts.
    let rowIndexes: RowIndexes

    init(db: Database, run: NightlyRun, startedAt: Int64) throws {
        self.db = db
        rowIndexes = try RowIndexes.deferredWhileEmpty(db)
        statements = try RunStatements(db)
        self.run = run
        self.startedAt = startedAt
        // Counted files are looked up as inputs need them, not read whole (`StoredFiles`), and so are
        // their names: only a violation or a late event of a session begun in an earlier run cites an
        // earlier file, and a night should cost what it holds, not what the store has kept (issue 46).
        storedFiles = StoredFiles(db)
        identity = FileIdentity([], stored: storedFiles)
        if let failure = storedFiles.failure { throw failure }
        nextFileID = try storedFiles.nextID()
        earlierFiles = try EarlierFileNames(db, below: nextFileID)
        files = RunFiles(SourceFileTable(paths: [String](repeating: "", count: Int(nextFileID))))
        // The first version's columns have no default; the counters added since default to 0.
        let zeroed = [
            "files", "files_skipped", "files_changed", "compressed_bytes", "decompressed_bytes", "frames", "lines",
            "events", "sessions", "sessions_closed", "open_sessions", "malformed_lines", "late_events",
            "duplicate_events", "unknown_types", "skipped_bytes", "truncated_files", "unbalanced_dismisses",
            "faults", "violations",
        ]
        try db.execute(
            sql: """
                INSERT INTO runs (started_at, finished_at, close_open, \(zeroed.joined(separator: ", ")))
                VALUES (?, ?, ?, \(zeroed.map { _ in "0" }.joined(separator: ", ")))
                """, arguments: [startedAt, startedAt, run.closeOpen])
        outcome = NightlyOutcome(runID: db.lastInsertedRowID, statistics: IngestStatistics())
    }

    func execute(_ inputs: [InputSource], unreadable: [Diagnostic]) throws -> NightlyOutcome {
        for problem in unreadable {
            if let part = run.shardPart, part.shard.index != 0 { continue }
            statistics.faults += 1
            run.onDiagnostic(problem)
        }
        // Until an input needs reading, nothing needs the engine: a run over files already counted
        // neither restores nor rewrites the open sessions.
        var remaining = inputs.makeIterator()
        var firstRead: PreparedInput?
        while firstRead == nil, let source = remaining.next() {
            try Interruption.checkpoint()
            let input = try prepare(source)
            if input.read == nil, input.atTurn == nil {
                for note in input.notes { note() }
            } else {
                firstRead = input
            }
        }
        var pipeline: RunPipeline<SessionEngine>?
        if let firstRead {
            let engine = try startEngine()
            // Before the pipeline starts: its reader thread uses the importer and never the store.
            if let importer = keptImporter {
                try RunCache.checkpoint.apply(db)
                try StoredImportedSessions.restore(into: importer, db)
                try RunCache.rows.apply(db)
            }
            let reading = RunPipeline(
                target: engine, reader: run.reader, jobs: run.jobs, onDiagnostic: run.onDiagnostic)
            reading.importer = run.importer
            pipeline = reading
            var first: PreparedInput? = firstRead
            try reading.read({ [unowned self] in
                if let input = first.take() { return input }
                return try remaining.next().map(prepare)
            }, conclude: { [unowned self] read, result in try conclude(read, result) })
        }
        try Interruption.checkpoint()
        if run.closeOpen { try startEngine().finish() }
        if let failure { throw failure }
        if let pipeline { statistics.addInputCounters(of: run.shardPart == nil ? pipeline.statistics : shardCountedInput) }
        try finishRun()
        if run.strict, outcome.skippedInput { throw NightlyRunError.skippedInputUnderStrict }
        return outcome
    }

    /// The importer whose SDK sessions the store keeps between runs (`StoredImportedSessions`). Not a
    /// shard's: its partial store is made in one run, with its sessions closed, and `merge` carries no
    /// checkpoint into the merged store.
    private var keptImporter: EventImporter? {
        run.shardPart == nil ? run.importer : nil
    }

    /// The engine, restored from the stored checkpoint the first time something needs it.
    @discardableResult
    private func startEngine() throws -> SessionEngine {
        if let engine { return engine }
        checkpoint = try CheckpointWriter(db, deleteBatch: run.checkpointDeleteBatch)
        let files = self.files
        try RunCache.checkpoint.apply(db)
        defer { try? RunCache.rows.apply(db) }
        let engine = try StoredCheckpoint.engine(
            db, configuration: run.configuration,
            onLate: { [unowned self] event, reason in
                do { try earlierFiles.name(event.source.file, in: files) } catch { failure = failure ?? error }
                run.onDiagnostic(files.lateDiagnostic(event, reason))
            },
            onReport: { [unowned self] report in
                do { try record(report) } catch { failure = failure ?? error }
            })
        engine.shard = run.shardPart?.shard
        engine.onPendingLimit = { [unowned self] session, limit in run.onDiagnostic(.pendingLimit(session: session, limit: limit)) }
        engine.closedBeforeStart = { [unowned self] session in
            do {
                return try statements.closedSession.hasRow(session)
            } catch {
                failure = failure ?? error
                return false
            }
        }
        self.engine = engine
        return engine
    }

    // MARK: - Files

    /// The input counters of the files this shard counts (`ShardPart`): each file's are counted by one
    /// shard, its sessions' by the engine of theirs.
    private var shardCountedInput = IngestStatistics()

    private func countsFile(_ source: InputSource) -> Bool {
        run.shardPart?.countsFile(source.displayPath) ?? true
    }

    /// What the run does with an input, decided from its content (SPEC §5) on the run's thread, in
    /// input order, maybe while earlier inputs are still being read (`--jobs`). An input that begins
    /// like one not concluded yet, or has its name, is decided only at its turn, when every input
    /// before it is counted, as one thread would decide it.
    private func prepare(_ source: InputSource) throws -> PreparedInput {
        let afterwards: () -> Void = { [unowned self] in run.afterEachFile?() }
        guard let path = source.filePath else {
            if countsFile(source) { statistics.faults += 1 }
            let problem = Diagnostic(
                .unreadableFile, at: source.displayPath, "standard input cannot be identified by content; give a file")
            return PreparedInput(notes: [{ [unowned self] in run.onDiagnostic(problem) }, afterwards], read: nil)
        }
        let verdict: FileVerdict
        let digest: FileDigest
        do {
            (verdict, digest) = try identity.examine(
                path: path, displayPath: source.displayPath, closeOpen: run.closeOpen, stopAfterHead: true)
        } catch {
            if countsFile(source) { statistics.faults += 1 }
            let problem = Diagnostic(.unreadableFile, at: source.displayPath, "cannot open: \(error.message)")
            return PreparedInput(notes: [{ [unowned self] in run.onDiagnostic(problem) }, afterwards], read: nil)
        }
        if let failure = storedFiles.failure { throw failure }
        if pending.values.contains(where: { $0.mayDecide(digest, displayPath: source.displayPath) }) {
            var atTurn = PreparedInput(read: nil)
            atTurn.atTurn = { [unowned self] in try prepare(source) }
            return atTurn
        }
        var record: CountedFile
        var isNew = false
        switch verdict {
        case .empty:
            return PreparedInput(notes: [{ [unowned self] in run.onFile?(source.displayPath, "empty") }, afterwards], read: nil)
        case .alreadyCounted(let counted):
            outcome.filesSkipped += 1
            // A file counted by an earlier version gets its lead, so that later files find it cheaply.
            if counted.leadSHA256 == nil, digest.lead != nil {
                var upgraded = counted
                try recordLead(of: &upgraded, digest.lead)
                identity.remember(upgraded)
            }
            // Every night re-lists the files of earlier nights: name only the renamed or copied ones, the
            // rest are in the run's summary count.
            guard counted.displayPath != source.displayPath else { return PreparedInput(notes: [afterwards], read: nil) }
            return PreparedInput(
                notes: [{ [unowned self] in run.onFile?(source.displayPath, "already counted as \(counted.displayPath)") }, afterwards],
                read: nil)
        case .changed(let why):
            outcome.filesChanged += 1
            let problem = Diagnostic(.changedFile, at: source.displayPath, why)
            return PreparedInput(notes: [{ [unowned self] in run.onDiagnostic(problem) }, afterwards], read: nil)
        case .continues(let counted):
            record = counted
            record.displayPath = source.displayPath
        case .new:
            record = CountedFile(
                id: nextFileID, displayPath: source.displayPath, headLength: digest.headLength,
                headSHA256: digest.headSHA256, size: 0, contentSHA256: "",
                resume: FileReadSummary.ResumePoint(storedOffset: 0, decompressedOffset: 0, linesBefore: 0),
                countedLines: 0, heldBack: false)
            // Its row and its lead are written when it is concluded: a run commits only once every
            // input it prepared is concluded.
            isNew = true
        }
        guard let fileIndex = Int32(exactly: record.id) else { throw StoreError.invalidQuery("too many input files") }
        if isNew { nextFileID += 1 }
        files.table.name(Int(record.id), source.displayPath)
        earlierFiles.named(record.id)

        let resumes = record.resume.storedOffset > 0 || record.countedLines > 0
        // A new file that `examine` decided from its head is hashed as it is read, from its first byte:
        // its digest then covers exactly the bytes read.
        let hashing = !digest.isComplete && !resumes ? ContentHashing() : nil
        pending[fileIndex] = PendingFile(record: record, digest: digest, hashing: hashing, isNew: isNew)
        identity.hashPrefixes(ofLength: digest.headLength, lead: digest.lead)
        return PreparedInput(read: FileRead(
            source: source, file: fileIndex, resume: resumes ? record.resume : nil,
            tail: TailHandling(countedThrough: record.countedLines, forward: run.closeOpen),
            storedBytes: hashing.map { hashing in { hashing.hasher.update($0) } }))
    }

    /// An input read to its end: its record updated to where the read stopped.
    private func conclude(_ read: FileRead, _ result: FileReadResult) throws {
        if run.shardPart != nil, countsFile(read.source) { shardCountedInput.addInputCounters(of: result.statistics) }
        guard let file = pending.removeValue(forKey: read.file) else { return }
        var record = file.record
        var digest = file.digest
        if let hashing = file.hashing { digest.finish(with: hashing.hasher) }
        if result.heldBack { outcome.tailsHeldBack += 1 }
        outcome.filesRead += 1
        run.onFile?(read.source.displayPath, result.heldBack ? "read, last line held back" : "read")

        let headChanged = record.headSHA256 != digest.headSHA256
        record.headLength = digest.headLength
        record.headSHA256 = digest.headSHA256
        record.size = digest.size
        record.contentSHA256 = digest.contentSHA256
        record.resume = result.summary.resumePoint
        record.countedLines = max(record.countedLines, result.forwardedThrough)
        record.heldBack = result.heldBack
        // The lead goes with the head it was taken beside: a new head without one has none.
        record.leadSHA256 = digest.lead?.hex ?? (headChanged ? nil : record.leadSHA256)
        if file.isNew {
            try statements.insertFile.execute(
                record.id, record.displayPath, record.headLength, record.headSHA256, record.size, record.contentSHA256,
                record.resume.storedOffset, record.resume.decompressedOffset, record.resume.linesBefore,
                record.countedLines, record.heldBack, outcome.runID, outcome.runID, record.leadSHA256)
        } else {
            try statements.updateFile.execute(
                record.displayPath, record.headLength, record.headSHA256, record.size, record.contentSHA256,
                record.resume.storedOffset, record.resume.decompressedOffset, record.resume.linesBefore,
                record.countedLines, record.heldBack, outcome.runID, record.leadSHA256, record.id)
        }
        identity.remember(record)
        if let failure { throw failure }
        run.afterEachFile?()
    }

    /// Gives a file counted by an earlier version, which has no lead, its lead, in the store too.
    private func recordLead(of record: inout CountedFile, _ lead: SHA256.Digest?) throws {
        guard let lead else { return }
        let hex = lead.hex
        guard record.leadSHA256 != hex else { return }
        try statements.recordLead.execute(hex, record.id)
        record.leadSHA256 = hex
    }


    // MARK: - Sessions

    private func record(_ report: SessionReport) throws {
        outcome.sessionsClosed += 1
        try checkpoint?.sessionClosed(report.session, db: db)
        let runID = outcome.runID
        let suppression = run.judgement.suppression
        let suppressed = report.violations.map {
            suppression.suppresses(rule: $0.rule, screen: $0.screen, appVersion: report.appVersion)
        }
        let counted = suppressed.lazy.filter { !$0 }.count
        try statements.insertSession.execute(
            report.session, report.device, report.appVersion, report.firstTs, report.lastTs, report.acceptedEvents,
            counted, runID, report.touches.rawValue)
        for (kind, count) in report.hapticCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count > 0 {
            try statements.insertHaptic.execute(report.session, kind.rawValue, count)
        }
        for violation in report.violations {
            try earlierFiles.name(violation.source.file, in: files)
            if let related = violation.related { try earlierFiles.name(related.location.file, in: files) }
        }
        let table = files.table
        for (violation, isSuppressed) in zip(report.violations, suppressed) {
            if isSuppressed { outcome.suppressed += 1 } else { outcome.violations += 1 }
            try statements.insertViolation.execute(
                runID, violation.rule, violation.severity.rawValue, violation.session, violation.device,
                violation.appVersion, violation.screen, violation.startTs, violation.endTs, violation.count,
                violation.detail(describing: table), table.describe(violation.source), Int64(violation.source.file),
                violation.source.line, isSuppressed)
        }
    }

    // MARK: - End of run

    private func finishRun() throws {
        if let engine {
            try finishEngine(engine)
        } else {
            // Nothing was read: the stored checkpoint stays as it is.
            outcome.openSessions = try Int.fetchOne(db, sql: "SELECT open_sessions FROM engine_checkpoint WHERE id = 1") ?? 0
        }
        outcome.statistics = statistics
        let counters = IngestStatistics.counters
        let runOwnValues: [any DatabaseValueConvertible] = [
            Int64(Date().timeIntervalSince1970 * 1000), outcome.filesSkipped, outcome.filesChanged,
            outcome.sessionsClosed, outcome.openSessions, outcome.violations,
        ]
        try db.execute(
            sql: """
                UPDATE runs SET finished_at = ?, files_skipped = ?, files_changed = ?, sessions_closed = ?,
                    open_sessions = ?, violations = ?, \(counters.map { "\($0.name) = ?" }.joined(separator: ", "))
                WHERE id = ?
                """,
            arguments: StatementArguments(runOwnValues + counters.map { $0.value(in: statistics) } + [outcome.runID]))
        for (name, count) in statistics.unknownTypes {
            try db.execute(
                sql: "INSERT INTO unknown_types (run_id, type, events) VALUES (?, ?, ?)", arguments: [outcome.runID, name, count])
        }
        try run.judgement.record(db, runID: outcome.runID, suppressed: outcome.suppressed)
        try run.shardPart?.record(db, configuration: run.configuration)
        try rowIndexes.build(db)
        outcome.rowIndexesBuiltAfterInserts = rowIndexes.areDeferred
    }

    /// The engine's counters into the run's, and its open sessions into the checkpoint, but those of
    /// devices idle for `idle_runs` runs, which close now (SPEC §2).
    private func finishEngine(_ engine: SessionEngine) throws {
        engine.closeSessionsOfIdleDevices(after: run.configuration.idleRuns)
        if let failure { throw failure }
        statistics.takeEngineCounters(from: engine.statistics)
        outcome.statistics = statistics
        outcome.openSessions = engine.openSessionCount

        if let checkpoint {
            try RunCache.checkpoint.apply(db)
            try checkpoint.finish(engine, runID: outcome.runID, db: db)
            try RunCache.rows.apply(db)
            outcome.checkpointSessionsWritten = checkpoint.sessionsWritten
        }
        if let importer = keptImporter {
            try RunCache.checkpoint.apply(db)
            try StoredImportedSessions.save(from: importer, idleRuns: run.configuration.idleRuns, db)
            try RunCache.rows.apply(db)
        }
        for rule in engine.enabledRules {
            try db.execute(
                sql: "INSERT OR REPLACE INTO rules (rule, severity) VALUES (?, ?)",
                arguments: [rule.identifier, rule.severity.rawValue])
        }
    }
}

/// Why a nightly run committed nothing.
public enum NightlyRunError: Error, Equatable, CustomStringConvertible {
    case skippedInputUnderStrict

    public var description: String {
        switch self {
        case .skippedInputUnderStrict: "input was skipped and --strict makes that fatal; the store is unchanged"
        }
    }
}

/// The statements a run executes once per input file, new or closed session, haptic kind and violation.
private struct RunStatements {
    let insertFile: RowStatement
    let updateFile: RowStatement
    let recordLead: RowStatement
    let insertSession: RowStatement
    let insertHaptic: RowStatement
    let insertViolation: RowStatement
    /// Whether a session was closed by an earlier run.
    let closedSession: RowStatement

    init(_ db: Database) throws {
        insertFile = try RowStatement(db, sql: """
            INSERT INTO input_files (id, display_path, head_length, head_sha256, size, content_sha256,
                resume_stored_offset, resume_decompressed_offset, resume_lines_before, counted_lines, held_back,
                first_run, last_run, lead_sha256)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        updateFile = try RowStatement(db, sql: """
            UPDATE input_files SET display_path = ?, head_length = ?, head_sha256 = ?, size = ?,
                content_sha256 = ?, resume_stored_offset = ?, resume_decompressed_offset = ?,
                resume_lines_before = ?, counted_lines = ?, held_back = ?, last_run = ?, lead_sha256 = ?
            WHERE id = ?
            """)
        recordLead = try RowStatement(db, sql: "UPDATE input_files SET lead_sha256 = ? WHERE id = ?")
        insertSession = try RowStatement(db, sql: """
            INSERT INTO sessions (session, device, app_version, first_ts, last_ts, events, violations, run_id, touches)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertHaptic = try RowStatement(db, sql: "INSERT INTO session_haptics (session, kind, count) VALUES (?, ?, ?)")
        insertViolation = try RowStatement(db, sql: """
            INSERT INTO violations (run_id, rule, severity, session, device, app_version, screen, start_ts, end_ts,
                count, detail, source, source_file, source_line, suppressed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        closedSession = try RowStatement(db, sql: "SELECT 1 FROM sessions WHERE session = ?")
    }
}

/// An input handed to the pipeline, with what its conclusion needs.
private struct PendingFile {
    var record: CountedFile
    var digest: FileDigest
    /// Set when the file is hashed as it is read.
    var hashing: ContentHashing?
    /// A file this run counts first: its row is inserted at its conclusion, not updated.
    var isNew: Bool

    /// Whether counting this file may change what the store makes of a file with `digest` at
    /// `displayPath`: the same name, or the same beginning (`FileIdentity` looks files up by both).
    func mayDecide(_ digest: FileDigest, displayPath: String) -> Bool {
        record.displayPath == displayPath
            || digest.prefixes.prefix(Int64(self.digest.headLength), hasHex: self.digest.headSHA256)
            || digest.headSHA256 == self.digest.headSHA256
    }
}

/// The hash of a file's bytes as a reader thread reads them; read by the run's thread once the file
/// is concluded.
private final class ContentHashing: @unchecked Sendable {
    var hasher = SHA256()
}
