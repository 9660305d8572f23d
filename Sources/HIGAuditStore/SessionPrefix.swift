import GRDB

/// A session named by the start of its id, as `show --session` takes it and as people copy ids (the
/// first 4 to 8 characters of a UUID), for `query` and `export`.
public enum SessionPrefix {
    /// What a prefix names in the store.
    public enum Match: Sendable, Equatable {
        /// The session whose id is the prefix, or the only one it starts.
        case session(String)
        /// No session id starts with it.
        case none
        /// Several ids start with it and none is it: the first `listed` of them in id order, and
        /// whether there are more.
        case ambiguous([String], more: Bool)
    }

    /// How many ids an ambiguous prefix lists.
    public static let listed = 10

    /// What `prefix` names: the store keeps sessions in id order (byte order), so the ids it starts
    /// are the first ones at or after it.
    public static func match(_ db: Database, prefix: String) throws -> Match {
        let ids = try String.fetchAll(
            db, sql: "SELECT session FROM sessions WHERE session >= ? ORDER BY session LIMIT ?", arguments: [prefix, listed + 1])
        let starting = ids.prefix { $0.utf8.starts(with: prefix.utf8) }
        if starting.first == prefix { return .session(prefix) }
        switch starting.count {
        case 0: return .none
        case 1: return .session(starting[0])
        default: return .ambiguous(Array(starting.prefix(listed)), more: starting.count > listed)
        }
    }
}
