import HIGAuditCore
import Yams

/// Reads the config's `exclude:` list (SPEC §6) into `Exclusion`s, refusing what it does not
/// understand at its line like every other key: an unknown key, a missing or empty `reason`, an unknown
/// rule id, an empty list (which would match nothing, surely not what was meant), a date that is not a
/// real `YYYY-MM-DD` day.
///
/// ```yaml
/// exclude:
///   - rules: [haptic-overuse]       # rule ids, or "*" for every rule
///     screens: ["Canvas/*"]         # optional: * any run of characters, ? one character
///     app_versions: ["5.2"]         # optional: whole-component prefixes, as --app-version
///     reason: the drawing canvas plays haptics on purpose
///     until: 2026-12-31             # optional: the last day it applies (UTC)
/// ```
struct ExclusionReader {
    let reader: NodeReader
    let rules: [RuleDescription]

    static let keys = "rules, screens, app_versions, reason, until"

    func read(_ node: Node) throws(ConfigurationError) -> [Exclusion] {
        var exclusions: [Exclusion] = []
        for (index, item) in try reader.sequence(node, at: "exclude").enumerated() {
            exclusions.append(try entry(item, at: "exclude[\(index)]"))
        }
        return exclusions
    }

    private func entry(_ node: Node, at path: String) throws(ConfigurationError) -> Exclusion {
        guard case .mapping = node else {
            throw reader.error(
                at: node, path, "expected an entry with keys \(Self.keys), found \(reader.describe(node))")
        }
        var ruleIds: Set<String>?? = .none
        var screens: [ScreenGlob]?
        var appVersions: [String]?
        var reason: String?
        var until: CalendarDay?
        for (key, value) in try reader.mapping(node, at: path) {
            let keyPath = path + "." + key.name
            switch key.name {
            case "rules": ruleIds = .some(try readRules(value, at: keyPath))
            case "screens": screens = try texts(value, at: keyPath, what: "a screen pattern").map(ScreenGlob.init)
            case "app_versions": appVersions = try texts(value, at: keyPath, what: "an app version")
            case "reason":
                let text = try reader.text(value, at: keyPath, what: "a reason in words")
                guard text.contains(where: { !$0.isWhitespace }) else {
                    throw reader.error(at: value, keyPath, "the reason is empty; say why these violations are accepted")
                }
                reason = text
            case "until":
                let text = try reader.text(value, at: keyPath, what: "a date YYYY-MM-DD")
                guard let day = CalendarDay(text) else {
                    throw reader.error(at: value, keyPath, "expected a date YYYY-MM-DD that exists, found \(reader.describe(value))")
                }
                until = day
            default:
                throw reader.error(at: key.node, keyPath, "unknown setting; expected one of: \(Self.keys)")
            }
        }
        guard case .some(let rules) = ruleIds else {
            throw reader.error(at: node, path, "missing rules: list the rule ids this entry accepts, or \"*\" for every rule")
        }
        guard let reason else {
            throw reader.error(at: node, path, "missing reason: say why these violations are accepted")
        }
        let location = "\(reader.file):\(node.mark?.line ?? 0)"
        return Exclusion(rules: rules, screens: screens, appVersions: appVersions, reason: reason, until: until, location: location)
    }

    /// `"*"` (alone or in the list) for every rule, else the listed ids, each a rule the tool knows.
    private func readRules(_ node: Node, at path: String) throws(ConfigurationError) -> Set<String>? {
        if case .scalar = node, try reader.text(node, at: path, what: "a list of rule ids") == "*" { return nil }
        let ids = try texts(node, at: path, what: "a rule id")
        if ids.contains("*") { return nil }
        guard case .sequence(let items) = node else { return Set(ids) }
        for (id, item) in zip(ids, items) where !rules.contains(where: { $0.identifier == id }) {
            let known = rules.map(\.identifier).sorted().joined(separator: ", ")
            throw reader.error(at: item, path, "unknown rule \(id); known rules: \(known), or \"*\" for every rule")
        }
        return Set(ids)
    }

    /// A non-empty list of texts.
    private func texts(_ node: Node, at path: String, what: String) throws(ConfigurationError) -> [String] {
        guard case .sequence = node else {
            throw reader.error(at: node, path, "expected a list, found \(reader.describe(node))")
        }
        let items = try reader.sequence(node, at: path)
        guard !items.isEmpty else {
            throw reader.error(at: node, path, "an empty list matches nothing; leave the key out to match every value")
        }
        var values: [String] = []
        for item in items { values.append(try reader.text(item, at: path, what: what)) }
        return values
    }
}
