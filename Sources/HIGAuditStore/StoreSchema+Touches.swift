import GRDB
import HIGAuditCore

/// Migration "v6-session-touches": which of its touches each stored session's log held (SPEC §7
/// "Touch coverage"), so that the store's tables leave the sessions a rule that needs every touch did
/// not judge out of that rule's `sessions_total`, as `analyze` does.
///
/// A store without the column was written before it: its sessions read as `all`, as that version
/// judged them.
extension StoreSchema {
    /// `sessions.touches`: `all`, `sampled` or `none` (`TouchCoverage`).
    static let sessionTouchesDDL = """
        ALTER TABLE sessions ADD COLUMN touches TEXT NOT NULL DEFAULT 'all'
            CHECK (touches IN ('all', 'sampled', 'none'))
        """

    /// Whether `schema`'s `sessions` has the `touches` column (a store migrated to v6, or a part of one).
    static func recordsTouches(_ db: Database, in schema: String? = nil) throws -> Bool {
        try db.columns(in: "sessions", in: schema).contains { $0.name == "touches" }
    }

    /// The expression of a session's coverage on `sessions` aliased `alias`: the column, or `'all'`
    /// in a store made before it.
    static func touchesExpression(_ db: Database, alias: String) throws -> String {
        try recordsTouches(db) ? "\(alias).touches" : "'all'"
    }
}
