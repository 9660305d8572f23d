import HIGAuditCore
import Yams

/// Reads the config's `import:` section (SPEC §7), every mistake placed at its file:line:col:
///
/// ```yaml
/// import:
///   tab_roots: [Library, "Settings*"]   # screens that are the roots of tabs (globs)
///   touches: sampled                     # all, sampled or none: overrides the format's coverage
/// ```
struct ImportSettingsReader {
    let reader: NodeReader

    func read(_ node: Node) throws(ConfigurationError) -> ImportSettings {
        var settings = ImportSettings()
        for (key, value) in try reader.mapping(node, at: "import") {
            let path = "import." + key.name
            switch key.name {
            case "tab_roots":
                for item in try reader.sequence(value, at: path) {
                    settings.tabRoots.append(ScreenGlob(try reader.text(item, at: path, what: "a screen name or glob")))
                }
            case "touches":
                let text = try reader.text(value, at: path, what: "all, sampled or none")
                guard let touches = ImportedTouches(rawValue: text) else {
                    throw reader.error(at: value, path, "expected all, sampled or none, found \(reader.describe(value))")
                }
                settings.touches = touches
            default:
                throw reader.error(at: key.node, path, "unknown setting; expected tab_roots or touches")
            }
        }
        return settings
    }
}
