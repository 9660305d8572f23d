/// What an importer found in one source event before writing it: where each common field stands in
/// the tape (SPEC §7's envelope table), and what the event maps to.
///
/// Its places are kept in 32 bits each (`CompactTapeIndex`): an envelope is copied with every event
/// judged (into `EventImporter.Judged`, the pending event, an OTLP record's checked places).
struct ImportedEnvelope {
    var ts: Int64 = 0
    private var sessionPlace: Int32 = -1
    @CompactTapeIndex var device: Int?
    @CompactTapeIndex var appVersion: Int?
    @CompactTapeIndex var osVersion: Int?
    @CompactTapeIndex var screen: Int?
    @CompactTapeIndex var id: Int?
    /// Where the "other fields" are: an object's members, or OTLP's attribute list.
    @CompactTapeIndex var fields: Int?

    var session: Int {
        get { Int(sessionPlace) }
        set { sessionPlace = Int32(truncatingIfNeeded: newValue) }
    }
}

/// Where a format keeps its other fields, and which of their keys are not an event's own.
enum ImportedFields {
    /// An object's members; with `skipDollar`, `$`-prefixed keys (PostHog's own properties) are left out.
    case object(skipDollar: Bool)
    /// OTLP attributes: `{"key": …, "value": {"stringValue": …}}` a member.
    case attributes
}

/// One of SPEC §2's types an event maps to, with what the mapping found.
enum ImportedMapping {
    /// `hig.<type>`: the type, its fields taken from the other fields.
    case convention(EventKind)
    /// A screen view: a push, or a tab switch when the screen is a tab root.
    case screenView(String)
    /// A tap on an element, written as a `touch` that ended.
    case tap(target: String?, x: Double?, y: Double?)
    /// A launch (or a return to the foreground): a `session.start`.
    case launch
    /// The app went to the background: a `session.end`.
    case background
    /// A launch measurement: `app.ready` at `ts`.
    case ready(ts: Int64)
}

/// Why an event of a mapped name cannot be read (SPEC §7: malformed per §2).
struct ImportProblem: Error {
    var line: MalformedLine
    init(_ reason: String) {
        line = MalformedLine(reason: reason)
    }

    /// A problem with the value at `index`, located at its byte in the line.
    init(_ reason: String, at tape: borrowing JSONTape, _ index: Int) {
        line = MalformedLine(reason: reason, column: Int(tape[index].start))
    }
}

extension JSONTape {
    /// The string at `key` of `object`: nil when absent or null, a problem when of another type.
    func optionalString(_ object: Int?, _ key: StaticString, name: String) throws(ImportProblem) -> Int? {
        guard let object, let index = member(object, key) else { return nil }
        switch self[index].kind {
        case .string: return index
        case .null: return nil
        default: throw ImportProblem("\(name) is not a string", at: self, index)
        }
    }

    /// The string at `index` (a member's value already found): nil when absent or null.
    func optionalString(_ index: Int?, name: String) throws(ImportProblem) -> Int? {
        guard let index else { return nil }
        switch self[index].kind {
        case .string: return index
        case .null: return nil
        default: throw ImportProblem("\(name) is not a string", at: self, index)
        }
    }

    func requiredString(_ index: Int?, name: String) throws(ImportProblem) -> Int {
        guard let index = try optionalString(index, name: name) else { throw ImportProblem("missing \(name)") }
        return index
    }

    func requiredString(_ object: Int?, _ key: StaticString, name: String) throws(ImportProblem) -> Int {
        guard let index = try optionalString(object, key, name: name) else { throw ImportProblem("missing \(name)") }
        return index
    }

    /// A finite number at `index`, or a problem naming `name`.
    func finiteNumber(_ index: Int, name: String) throws(ImportProblem) -> Double {
        guard self[index].kind == .number else { throw ImportProblem("\(name) is not a number", at: self, index) }
        let value = double(index)
        guard value.isFinite else { throw ImportProblem("\(name) is not a finite number", at: self, index) }
        return value
    }
}

/// Turns the element name an SDK gives a tap into the `target` the rules read: a tab bar button is
/// `tab:<name>` (SPEC §7), a navigation bar's back button `nav.back`; anything else is kept.
enum TouchTargetName {
    static func target(_ raw: String) -> String {
        if raw.hasPrefix("tab:") || raw == "nav.back" { return raw }
        for tabClass in ["UITabBarButton", "TabBarButton"] where raw.hasPrefix(tabClass) {
            let rest = raw.dropFirst(tabClass.count)
            if rest.first == "(", rest.last == ")", rest.count > 2 { return "tab:" + rest.dropFirst().dropLast() }
        }
        if raw.contains("BackButton") { return "nav.back" }
        return raw
    }
}
