import Foundation
import GRDB
import HIGAuditCore

/// How a nightly run judges the violations it records (SPEC §6), kept in the store beside the run
/// (`run_judgements`, `run_exclusions`): a later query sees the night as it was judged then, and can
/// say which config and baseline that was.
public struct RunJudgement: Sendable {
    /// The config's `exclude:` entries, in config order, and which of them were in force on the run's day.
    public var entries: [Exclusion]
    public var suppression: Suppression
    /// SHA-256 of the config file's bytes; nil when no config file was given.
    public var configSHA256: String?
    /// The `--baseline` file, when one was given.
    public var baseline: RecordedBaseline?

    public init(entries: [Exclusion], today: CalendarDay, configSHA256: String?, baseline: RecordedBaseline?) {
        self.entries = entries
        suppression = Suppression(entries, today: today)
        self.configSHA256 = configSHA256
        self.baseline = baseline
    }

    /// No exclusions, no config file, no baseline: every violation counts.
    public static let none = RunJudgement(
        entries: [], today: CalendarDay(utcMilliseconds: 0), configSHA256: nil, baseline: nil)

    /// The hexadecimal SHA-256 of a file's bytes: the fingerprint of a config or a baseline file.
    public static func fingerprint(ofFileAt path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var hasher = SHA256()
        hasher.update([UInt8](data))
        return hasher.finalized().hex
    }

    /// Writes the run's rows; `suppressed` is how many violations it suppressed.
    func record(_ db: Database, runID: Int64, suppressed: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO run_judgements (run_id, config_sha256, baseline_path, baseline_sha256, baseline_pairs, suppressed_violations)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [runID, configSHA256, baseline?.path, baseline?.sha256, baseline?.pairs, suppressed])
        for (index, entry) in entries.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO run_exclusions (run_id, entry, location, rules, screens, app_versions, reason, until, in_force)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    runID, index + 1, entry.location, entry.rules.map { Self.json($0.sorted()) },
                    entry.screens.map { Self.json($0.map(\.pattern)) }, entry.appVersions.map(Self.json), entry.reason,
                    entry.until?.description, suppression.active.contains(entry),
                ])
        }
    }

    /// A list as a JSON array of strings, for a column people read in any SQLite client.
    static func json(_ values: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The baseline a run was judged with: the path as given, the SHA-256 of its bytes, how many pairs.
public struct RecordedBaseline: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var pairs: Int

    public init(path: String, sha256: String, pairs: Int) {
        self.path = path
        self.sha256 = sha256
        self.pairs = pairs
    }
}
