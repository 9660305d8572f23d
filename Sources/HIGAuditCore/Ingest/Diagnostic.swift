/// A problem with the input that a person should hear about: what, and exactly where.
///
/// `location` is `PATH:LINE` for a line, `PATH@BYTE` for a byte offset in the compressed file, or the
/// path alone; the run goes on after every diagnostic (SPEC §5).
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Category: String, Sendable, CaseIterable {
        case malformedLine = "malformed line"
        case corruptFrame = "corrupt frame"
        case refusedFrame = "refused frame"
        case missingDictionary = "missing dictionary"
        case truncatedFile = "truncated file"
        case trailingGarbage = "trailing garbage"
        case emptyFile = "empty file"
        case unreadableFile = "unreadable file"
        case lateEvent = "late event"
        /// A file the nightly store counted before whose content has changed since (SPEC §5).
        case changedFile = "changed file"
        /// A file whose first bytes say it is something else (gzip, UTF-16, AppleDouble), or whose first
        /// line opens JSON laid out another way than one object a line: said once, before the malformed
        /// lines it gives.
        case notNDJSON = "not NDJSON"
        /// A `ts` that reads as a time in the Unix epoch's first years, as seconds written where SPEC §2
        /// asks for milliseconds do: said once per file in a run, the events read as written.
        case suspectTimestamp = "suspect timestamp"
        /// A session that held more than `max_pending_events` events waiting to be put in order (SPEC
        /// §2): said once per session; its later events older than those that went early are late.
        case pendingLimit = "pending limit"
    }

    public var category: Category
    public var location: String
    public var message: String

    public init(_ category: Category, at location: String, _ message: String) {
        self.category = category
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(category.rawValue): \(message)" }

    /// What `SessionEngine.onPendingLimit` reports, naming the session.
    public static func pendingLimit(session: String, limit: Int) -> Diagnostic {
        Diagnostic(
            .pendingLimit, at: "session \(session)",
            "more than \(limit) events waiting to be put in order (max_pending_events): its earliest waiting events "
                + "went to the rules early, and its later events older than them are counted as late")
    }
}
