import Foundation
import GRDB
import HIGAuditIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `merge` did.
public struct StoreMergeOutcome: Sendable, Equatable {
    public var partsMerged = 0
    /// Parts the merged store already held (merging them again changes nothing).
    public var partsAlreadyMerged = 0
    public var sessions = 0
    public var violations = 0
}

/// Unions partial stores (`nightly --shard K/N`) into one store that `query`, `compare` and `export`
/// read as any other (Pipelines/spark/README.md).
///
/// A part adds its runs, files, sessions, haptics, violations, unknown types and rules. Parts are refused
/// when they hold a session the merged store already holds (the same shard twice, or two runs split
/// differently), when they were made with another configuration, or when sessions were left open in
/// them (a part is made with `--close-open`). A part already merged (known by its part ids) is skipped,
/// so merging the same parts again changes nothing.
///
/// The merged store is built in a temporary file beside it and renamed over it only when every part is
/// in: a merge that fails or is killed leaves the store as it was. Merges into one store take turns
/// (`StoreLock`), and a store that changed while a merge built its replacement is not replaced. The
/// store must be a file of its own: not a link, and not one of the parts.
public enum StoreMerge {
    public static func merge(parts: [String], into output: String, waiting: () -> Void = {}) throws -> StoreMergeOutcome {
        try merge(parts: parts, into: output, waiting: waiting, beforeReplacing: {})
    }

    /// `beforeReplacing` runs once the replacement is built, before the store is checked and replaced
    /// (tests change the store there).
    static func merge(
        parts: [String], into output: String, waiting: () -> Void, beforeReplacing: () -> Void
    ) throws -> StoreMergeOutcome {
        try checkOwnFile(output, parts: parts)
        let lock = try StoreLock(store: output, waiting: waiting)
        defer { withExtendedLifetime(lock) {} }
        let directory = output.lastIndex(of: "/").map { $0 == output.startIndex ? "/" : String(output[..<$0]) } ?? "."
        let name = output.lastIndex(of: "/").map { String(output[output.index(after: $0)...]) } ?? output
        DeadRunLeftovers.remove(in: directory, stem: name + ".merge-tmp-", tails: ["-journal", "-wal", "-shm"])
        let readIdentity = FileIdentityStamp(output)

        var outcome = StoreMergeOutcome()
        var known = Set<String>()
        var configuration: String?
        var fileOrders: [[String]] = []
        if FileManager.default.fileExists(atPath: output) {
            let existing = try PartDescription.read(output, role: .mergedStore)
            known = existing.partIDs
            configuration = existing.configuration
            fileOrders.append(existing.files)
        }
        var adding: [(path: String, part: PartDescription)] = []
        for path in parts {
            let part = try PartDescription.read(path, role: .part)
            if part.partIDs.isSubset(of: known) {
                outcome.partsAlreadyMerged += 1
                continue
            }
            guard part.partIDs.isDisjoint(with: known) else { throw StoreMergeError.overlappingParts(part: path) }
            if let configuration, configuration != part.configuration {
                throw StoreMergeError.differentConfiguration(part: path)
            }
            guard part.openSessions == 0 else {
                throw StoreMergeError.openSessions(part: path, count: part.openSessions)
            }
            configuration = part.configuration
            known.formUnion(part.partIDs)
            fileOrders.append(part.files)
            adding.append((path, part))
        }
        guard !adding.isEmpty else { return outcome }
        guard let order = FileOrder.combined(fileOrders) else { throw StoreMergeError.filesInConflictingOrder }

        let temporary = output + ".merge-tmp-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            if FileManager.default.fileExists(atPath: output) {
                try FileManager.default.copyItem(atPath: output, toPath: temporary)
            }
            try build(temporary, adding: adding, fileOrder: order, outcome: &outcome)
            beforeReplacing()
            guard FileIdentityStamp(output) == readIdentity else { throw StoreMergeError.changedWhileMerging(output) }
            guard rename(temporary, output) == 0 else {
                throw StoreMergeError.cannotReplace(output, String(cString: strerror(errno)))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        return outcome
    }

    /// Refuses a store that is a symbolic link (the rename would replace the link, not its target), has
    /// other hard links (they would keep the old store), or is one of the parts.
    private static func checkOwnFile(_ output: String, parts: [String]) throws {
        var status = stat()
        guard lstat(output, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFLNK { throw StoreMergeError.storeIsALink(output) }
        if status.st_nlink > 1 { throw StoreMergeError.storeHasHardLinks(output, Int(status.st_nlink)) }
        for part in parts {
            var partStatus = stat()
            if stat(part, &partStatus) == 0, partStatus.st_dev == status.st_dev, partStatus.st_ino == status.st_ino {
                throw StoreMergeError.storeIsAPart(store: output, part: part)
            }
        }
    }

    /// `PRAGMA user_version` of a store that `merge` wrote ("MRGE"): a partial store that `nightly
    /// --shard` wrote holds `shard_parts` rows too, but is not to be merged into (it would stop being
    /// one part and overlap every later merge of it).
    static let mergedStoreMark: Int32 = 0x4D52_4745

    private static func build(
        _ path: String, adding: [(path: String, part: PartDescription)], fileOrder: [String],
        outcome: inout StoreMergeOutcome
    ) throws {
        let store = try ResultsStore(writingAt: path)
        try store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = \(mergedStoreMark)")
            try db.execute(sql: ShardPart.table)
            for (partPath, _) in adding {
                try db.execute(sql: "ATTACH DATABASE ? AS part", arguments: [partPath])
                do {
                    try db.inTransaction(.immediate) {
                        try add(partPath, db, outcome: &outcome)
                        return .commit
                    }
                } catch {
                    try? db.execute(sql: "DETACH DATABASE part")
                    throw error
                }
                try db.execute(sql: "DETACH DATABASE part")
            }
            try db.inTransaction(.immediate) {
                try renumberFiles(db, order: fileOrder)
                return .commit
            }
        }
    }

    /// One attached part into the main database.
    private static func add(_ partPath: String, _ db: Database, outcome: inout StoreMergeOutcome) throws {
        if let session = try String.fetchOne(
            db, sql: "SELECT session FROM part.sessions WHERE session IN (SELECT session FROM main.sessions) LIMIT 1") {
            throw StoreMergeError.overlappingSessions(part: partPath, session: session)
        }
        let runOffset = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM main.runs") ?? 0
        let partColumns = Set(try db.columns(in: "runs", in: "part").map(\.name))
        let columns = try db.columns(in: "runs", in: "main").map(\.name).filter(partColumns.contains)
        let selected = columns.map { $0 == "id" ? "id + \(runOffset)" : $0 }
        try db.execute(sql: """
            INSERT INTO main.runs (\(columns.joined(separator: ", ")))
            SELECT \(selected.joined(separator: ", ")) FROM part.runs
            """)

        // The part's files by their display path: files another part read too are recorded once. A part
        // is read as its version wrote it (a reader does not migrate it): its leads are a column of
        // `input_files`, rows of `input_file_leads` beside their head (`v2`), or none (`v1`), and files
        // without one are then looked for by their head alone.
        let partLead: String
        if try db.columns(in: "input_files", in: "part").contains(where: { $0.name == "lead_sha256" }) {
            partLead = "lead_sha256"
        } else if try db.tableExists("input_file_leads", in: "part") {
            partLead = """
                (SELECT l.lead_sha256 FROM part.input_file_leads l
                 WHERE l.file = part.input_files.id AND l.head_sha256 = part.input_files.head_sha256)
                """
        } else {
            partLead = "NULL"
        }
        try db.execute(sql: "CREATE TEMP TABLE part_files (part_id INTEGER PRIMARY KEY, main_id INTEGER NOT NULL)")
        defer { try? db.execute(sql: "DROP TABLE temp.part_files") }
        for row in try Row.fetchAll(db, sql: "SELECT id, display_path FROM part.input_files ORDER BY id") {
            let partID: Int64 = row["id"]
            let displayPath: String = row["display_path"]
            var mainID = try Int64.fetchOne(
                db, sql: "SELECT id FROM main.input_files WHERE display_path = ? ORDER BY id LIMIT 1", arguments: [displayPath])
            if mainID == nil {
                try db.execute(sql: """
                    INSERT INTO main.input_files (display_path, head_length, head_sha256, size, content_sha256,
                        resume_stored_offset, resume_decompressed_offset, resume_lines_before, counted_lines, held_back,
                        first_run, last_run, lead_sha256)
                    SELECT display_path, head_length, head_sha256, size, content_sha256,
                        resume_stored_offset, resume_decompressed_offset, resume_lines_before, counted_lines, held_back,
                        first_run + \(runOffset), last_run + \(runOffset), \(partLead)
                    FROM part.input_files WHERE id = ?
                    """, arguments: [partID])
                mainID = db.lastInsertedRowID
            }
            try db.execute(sql: "INSERT INTO temp.part_files (part_id, main_id) VALUES (?, ?)", arguments: [partID, mainID])
        }

        // A part made before migration v6 judged every session as holding all its touches.
        let partTouches = try StoreSchema.recordsTouches(db, in: "part") ? "touches" : "'all'"
        try db.execute(sql: """
            INSERT INTO main.sessions (session, device, app_version, first_ts, last_ts, events, violations, run_id, touches)
            SELECT session, device, app_version, first_ts, last_ts, events, violations, run_id + \(runOffset), \(partTouches)
            FROM part.sessions
            """)
        outcome.sessions += db.changesCount
        try db.execute(sql: """
            INSERT INTO main.session_haptics (session, kind, count) SELECT session, kind, count FROM part.session_haptics
            """)
        // A part written by this version keeps each violation's suppressed flag and its runs' judgements
        // (migration v3); in one written before, nothing was suppressed.
        let partRecordsJudgements = try db.tableExists("run_judgements", in: "part")
        try db.execute(sql: """
            INSERT INTO main.violations (run_id, rule, severity, session, device, app_version, screen, start_ts,
                end_ts, count, detail, source, source_file, source_line, suppressed)
            SELECT v.run_id + \(runOffset), v.rule, v.severity, v.session, v.device,
                v.app_version, v.screen, v.start_ts, v.end_ts, v.count, v.detail, v.source,
                IFNULL(f.main_id, v.source_file), v.source_line, \(partRecordsJudgements ? "v.suppressed" : "0")
            FROM part.violations v LEFT JOIN temp.part_files f ON f.part_id = v.source_file
            ORDER BY v.id
            """)
        outcome.violations += db.changesCount
        if partRecordsJudgements {
            try db.execute(sql: """
                INSERT INTO main.run_judgements (run_id, config_sha256, baseline_path, baseline_sha256, baseline_pairs,
                    suppressed_violations)
                SELECT run_id + \(runOffset), config_sha256, baseline_path, baseline_sha256, baseline_pairs, suppressed_violations
                FROM part.run_judgements
                """)
            try db.execute(sql: """
                INSERT INTO main.run_exclusions (run_id, entry, location, rules, screens, app_versions, reason, until, in_force)
                SELECT run_id + \(runOffset), entry, location, rules, screens, app_versions, reason, until, in_force
                FROM part.run_exclusions
                """)
        }
        try db.execute(sql: """
            INSERT INTO main.unknown_types (run_id, type, events) SELECT run_id + \(runOffset), type, events FROM part.unknown_types
            """)
        try db.execute(sql: "INSERT OR IGNORE INTO main.rules (rule, severity) SELECT rule, severity FROM part.rules")
        try db.execute(sql: """
            INSERT INTO main.shard_parts (part_id, shard, shards, configuration)
            SELECT part_id, shard, shards, configuration FROM part.shard_parts
            """)
        outcome.partsMerged += 1
    }

    /// Gives the files the ids 1, 2, … in `order`, and the violations the new ids of their files.
    private static func renumberFiles(_ db: Database, order: [String]) throws {
        try db.execute(sql: "CREATE TEMP TABLE file_ids (old_id INTEGER PRIMARY KEY, new_id INTEGER NOT NULL)")
        defer { try? db.execute(sql: "DROP TABLE temp.file_ids") }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, Int64($0 + 1)) })
        for row in try Row.fetchAll(db, sql: "SELECT id, display_path FROM input_files") {
            guard let newID = position[row["display_path"] as String] else { continue }
            try db.execute(sql: "INSERT INTO temp.file_ids (old_id, new_id) VALUES (?, ?)", arguments: [row["id"] as Int64, newID])
        }
        try db.execute(sql: "UPDATE input_files SET id = -id")
        try db.execute(sql: "UPDATE input_files SET id = (SELECT new_id FROM temp.file_ids WHERE old_id = -input_files.id)")
        try db.execute(sql: """
            UPDATE violations SET source_file = (SELECT new_id FROM temp.file_ids WHERE old_id = violations.source_file)
            WHERE source_file IN (SELECT old_id FROM temp.file_ids)
            """)
    }
}

/// What `merge` needs to know of a store before it merges it.
private struct PartDescription {
    enum Role { case part, mergedStore }

    var partIDs: Set<String>
    var configuration: String?
    var openSessions: Int
    /// Display paths in file-id order.
    var files: [String]

    static func read(_ path: String, role: Role) throws -> PartDescription {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreMergeError.missing(path) }
        let store = try ResultsStore(readingAt: path)
        return try store.read { db in
            let hasParts = try db.tableExists("shard_parts")
            let rows = hasParts ? try Row.fetchAll(db, sql: "SELECT part_id, configuration FROM shard_parts") : []
            let runs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM runs") ?? 0
            // A store merge wrote is marked; one of an earlier version is not, but holds several parts.
            let marked = try Int32.fetchOne(db, sql: "PRAGMA user_version") == StoreMerge.mergedStoreMark
            let parts = Set(rows.map { $0["part_id"] as String }).count
            switch role {
            case .part where rows.isEmpty:
                throw StoreMergeError.notAPart(path)
            case .mergedStore where rows.isEmpty && runs > 0:
                throw StoreMergeError.notAMergedStore(path)
            case .mergedStore where parts == 1 && !marked:
                throw StoreMergeError.aPartAsTheStore(path)
            default:
                break
            }
            let configurations = Set(rows.map { $0["configuration"] as String })
            guard configurations.count <= 1 else { throw StoreMergeError.differentConfiguration(part: path) }
            return PartDescription(
                partIDs: Set(rows.map { $0["part_id"] as String }), configuration: configurations.first,
                openSessions: try Int.fetchOne(db, sql: "SELECT open_sessions FROM engine_checkpoint WHERE id = 1") ?? 0,
                files: try String.fetchAll(db, sql: "SELECT display_path FROM input_files ORDER BY id"))
        }
    }
}

/// Why a merge wrote nothing; the message is for the person at the terminal.
public enum StoreMergeError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAPart(String)
    case notAMergedStore(String)
    case differentConfiguration(part: String)
    case openSessions(part: String, count: Int)
    case overlappingParts(part: String)
    case overlappingSessions(part: String, session: String)
    case filesInConflictingOrder
    case cannotReplace(String, String)
    case cannotLock(String, String)
    case changedWhileMerging(String)
    case storeIsALink(String)
    case storeHasHardLinks(String, Int)
    case storeIsAPart(store: String, part: String)
    case aPartAsTheStore(String)

    public var description: String {
        switch self {
        case .missing(let path):
            "\(path) does not exist"
        case .notAPart(let path):
            "\(path) is not a partial store (write one with `hig-audit nightly --shard K/N --close-open --store \(path) …`)"
        case .notAMergedStore(let path):
            "\(path) is a store of nightly runs, not of merged parts; merge into a new path"
        case .differentConfiguration(let part):
            "\(part) was made with another configuration (rules, parameters or time bounds) than the other parts; "
                + "its results cannot be merged with theirs"
        case .openSessions(let part, let count):
            "\(part) left \(count) sessions open; a partial store is made with --close-open"
        case .overlappingParts(let part):
            "\(part) holds parts the merged store already holds and others it does not; merge the parts themselves"
        case .overlappingSessions(let part, let session):
            "\(part) holds session \(session), which another part holds too: the parts overlap "
                + "(the same shard twice, or runs split differently)"
        case .filesInConflictingOrder:
            "the parts read their input files in different orders: they were not made from one run"
        case .cannotReplace(let path, let why):
            "cannot replace \(path): \(why)"
        case .cannotLock(let path, let why):
            "cannot lock \(path): \(why)"
        case .changedWhileMerging(let path):
            "\(path) was changed by another process while the parts were merged; run the merge again"
        case .storeIsALink(let path):
            "\(path) is a symbolic link; give the store's own path (the merge replaces the file it names)"
        case .storeHasHardLinks(let path, let count):
            "\(path) has \(count) hard links; the merge would leave the others with the old store: give a store of its own"
        case .aPartAsTheStore(let path):
            "\(path) is a partial store that `nightly --shard` wrote, not a store made by merge; merge into a new path "
                + "(merging into a part would make it overlap every later merge of it)"
        case .storeIsAPart(let store, let part):
            "\(store) is the same file as the part \(part); merge into another path"
        }
    }
}

/// A file's identity and last change (device, inode, size, modification time), or nil when it does not
/// exist: equal stamps before and after mean nobody replaced or wrote the file in between.
private struct FileIdentityStamp: Equatable {
    var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        seconds = Int(status.st_mtimespec.tv_sec)
        nanoseconds = Int(status.st_mtimespec.tv_nsec)
        #else
        seconds = Int(status.st_mtim.tv_sec)
        nanoseconds = Int(status.st_mtim.tv_nsec)
        #endif
    }
}
