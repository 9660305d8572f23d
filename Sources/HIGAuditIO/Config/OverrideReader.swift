import HIGAuditCore
import Yams

/// Reads the config's `overrides:` list (SPEC §6) into `ScreenOverride`s. Each entry's `rules:` is read
/// exactly as the top-level `rules:` is (known rule ids, known parameters, whole numbers at least the
/// parameter's minimum, `enabled` true or false), and everything else is refused at its line like every
/// other key: an unknown key, missing or empty `screens`, an entry that sets nothing.
///
/// ```yaml
/// overrides:
///   - screens: ["Canvas/*"]          # * any run of characters, ? one character
///     rules:
///       haptic-overuse:
///         burst_count: 12
///       forced-tab-switch:
///         enabled: false
/// ```
struct OverrideReader {
    let reader: NodeReader
    let loader: ConfigurationLoader

    static let keys = "screens, rules"

    func read(_ node: Node) throws(ConfigurationError) -> [ScreenOverride] {
        var overrides: [ScreenOverride] = []
        for (index, item) in try reader.sequence(node, at: "overrides").enumerated() {
            overrides.append(try entry(item, at: "overrides[\(index)]"))
        }
        return overrides
    }

    private func entry(_ node: Node, at path: String) throws(ConfigurationError) -> ScreenOverride {
        guard case .mapping = node else {
            throw reader.error(
                at: node, path, "expected an entry with keys \(Self.keys), found \(reader.describe(node))")
        }
        var screens: [ScreenGlob]?
        var rules: [String: RuleSettings]?
        for (key, value) in try reader.mapping(node, at: path) {
            let keyPath = path + "." + key.name
            switch key.name {
            case "screens": screens = try patterns(value, at: keyPath)
            case "rules":
                let read = try loader.readRules(value, reader: reader, at: keyPath)
                guard read.values.contains(where: { $0.enabled != nil || !$0.parameters.isEmpty }) else {
                    throw reader.error(
                        at: value, keyPath, "sets nothing; give a rule id and the settings it has on these screens")
                }
                rules = read
            default:
                throw reader.error(at: key.node, keyPath, "unknown setting; expected one of: \(Self.keys)")
            }
        }
        guard let screens else {
            throw reader.error(at: node, path, "missing screens: list the screen patterns this entry applies to")
        }
        guard let rules else {
            throw reader.error(at: node, path, "missing rules: give the rule settings that apply on these screens")
        }
        return ScreenOverride(screens: screens, rules: rules, location: "\(reader.file):\(node.mark?.line ?? 0)")
    }

    /// A non-empty list of screen patterns.
    private func patterns(_ node: Node, at path: String) throws(ConfigurationError) -> [ScreenGlob] {
        guard case .sequence = node else {
            throw reader.error(at: node, path, "expected a list of screen patterns, found \(reader.describe(node))")
        }
        let items = try reader.sequence(node, at: path)
        guard !items.isEmpty else {
            throw reader.error(at: node, path, "an empty list matches no screen; list the screen patterns, \"*\" for every screen")
        }
        var globs: [ScreenGlob] = []
        for item in items { globs.append(ScreenGlob(try reader.text(item, at: path, what: "a screen pattern"))) }
        return globs
    }
}
