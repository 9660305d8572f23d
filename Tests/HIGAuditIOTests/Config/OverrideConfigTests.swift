import Testing
import HIGAuditCore
@testable import HIGAuditIO

/// The config's `overrides:` list (SPEC §6): read in order with its settings, and refused, at its
/// line and column, for everything `rules:` refuses and for entries that say nothing or match nothing.
@Suite struct OverrideConfigTests {
    let loader = ConfigFixtures.loader

    @Test func readsEntriesInOrderWithTheirLines() throws {
        let configuration = try loader.parse("""
            rules:
              modal-depth:
                max_depth: 3
            overrides:
              - screens: ["Canvas/*", "Sketch?"]
                rules:
                  haptic-overuse:
                    burst_count: 12
                    burst_window_ms: 1_000
              - screens: ["*"]
                rules:
                  modal-depth:
                    enabled: false
            """, file: "c.yml")
        #expect(configuration.overrides == [
            ScreenOverride(
                screens: [ScreenGlob("Canvas/*"), ScreenGlob("Sketch?")],
                rules: ["haptic-overuse": RuleSettings(parameters: ["burst_count": 12, "burst_window_ms": 1000])],
                location: "c.yml:5"),
            ScreenOverride(screens: [ScreenGlob("*")], rules: ["modal-depth": RuleSettings(enabled: false)], location: "c.yml:10"),
        ])
        // The ordinary settings are untouched by the entries.
        #expect(configuration.rules["modal-depth"] == RuleSettings(parameters: ["max_depth": 3]))
    }

    @Test func anEmptyOverridesSetsNothing() throws {
        #expect(try loader.parse("overrides:\n", file: "c.yml") == AuditConfiguration())
        #expect(try loader.parse("overrides: []\n", file: "c.yml") == AuditConfiguration())
    }

    @Test(arguments: [
        // (yaml, key path, line, column, message fragment)
        ("overrides:\n  - rules: {modal-depth: {max_depth: 3}}\n", "overrides[0]", 2, 5, "missing screens"),
        ("overrides:\n  - screens: [a]\n", "overrides[0]", 2, 5, "missing rules"),
        ("overrides:\n  - screens: []\n    rules: {modal-depth: {max_depth: 3}}\n", "overrides[0].screens", 2, 14, "empty list"),
        ("overrides:\n  - screens: Canvas\n    rules: {modal-depth: {max_depth: 3}}\n", "overrides[0].screens", 2, 14, "expected a list"),
        ("overrides:\n  - screens: [[a]]\n    rules: {modal-depth: {max_depth: 3}}\n", "overrides[0].screens", 2, 15, "a screen pattern"),
        ("overrides:\n  - screens: [a]\n    rules: {}\n", "overrides[0].rules", 3, 12, "sets nothing"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-dept:\n        max_depth: 3\n",
         "overrides[0].rules.modal-dept", 4, 7, "unknown rule"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-depth:\n        depth: 3\n",
         "overrides[0].rules.modal-depth.depth", 5, 9, "unknown setting; expected one of: enabled, max_depth"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-depth:\n        max_depth: 0\n",
         "overrides[0].rules.modal-depth.max_depth", 5, 20, "at least 1, found 0"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-depth:\n        max_depth: \"3\"\n",
         "overrides[0].rules.modal-depth.max_depth", 5, 20, "quoted string"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-depth:\n        max_depth: 2.5\n",
         "overrides[0].rules.modal-depth.max_depth", 5, 20, "fraction"),
        ("overrides:\n  - screens: [a]\n    rules:\n      modal-depth:\n        enabled: no\n",
         "overrides[0].rules.modal-depth.enabled", 5, 18, "expected true or false"),
        ("overrides:\n  - screens: [a]\n    rule: {modal-depth: {max_depth: 3}}\n", "overrides[0].rule", 3, 5, "unknown setting; expected one of: screens, rules"),
        ("overrides:\n  - screens: [a]\n    rules: {modal-depth: {max_depth: 3}}\n  - screens: [b]\n",
         "overrides[1]", 4, 5, "missing rules"),
        ("overrides:\n  screens: [a]\n", "overrides", 2, 3, "expected a list"),
        ("overrides:\n  - Canvas\n", "overrides[0]", 2, 5, "expected an entry"),
        ("override:\n  - screens: [a]\n", "override", 1, 1, "expected max_lateness_ms, max_pending_events, session_gap_ms, idle_runs, rules, exclude, overrides or import"),
    ])
    func refusesWithKeyPathLineAndColumn(yaml: String, keyPath: String, line: Int, column: Int, fragment: String) {
        do {
            _ = try loader.parse(yaml, file: "conf/audit.yml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.keyPath == keyPath, "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("conf/audit.yml:\(line):\(column): \(keyPath): "), "\(error)")
        }
    }

    /// `rules --defaults` is a complete config: the `import:` section is there too, commented out,
    /// and valid once uncommented.
    @Test func theDefaultConfigShowsTheImportSection() throws {
        let text = DefaultConfigWriter.render(rules: ConfigFixtures.rules)
        #expect(try loader.parse(text, file: "d.yml").importSettings == ImportSettings())
        let example = text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("# import:") }
            .prefix { $0.hasPrefix("#") }
            .map { String($0.dropFirst(2)) }
            .joined(separator: "\n")
        let settings = try loader.parse(example, file: "e.yml").importSettings
        #expect(settings.tabRoots.map(\.pattern) == ["Library", "Search", "Settings*"])
        #expect(settings.touches == .sampled)
    }

    @Test func theDefaultConfigShowsACommentedExample() throws {
        let text = DefaultConfigWriter.render(rules: ConfigFixtures.rules)
        #expect(text.contains("\n# overrides:\n"))
        #expect(try loader.parse(text, file: "d.yml").overrides.isEmpty)
        // Uncommented, the example is a valid config.
        let example = text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("# overrides:") }
            .prefix { $0.hasPrefix("#") }
            .map { String($0.dropFirst(2)) }
            .joined(separator: "\n")
        let configuration = try loader.parse(example, file: "e.yml")
        #expect(configuration.overrides == [
            ScreenOverride(
                screens: [ScreenGlob("Canvas/*")],
                rules: [
                    "haptic-overuse": RuleSettings(parameters: ["burst_count": 11]),
                    "modal-depth": RuleSettings(enabled: false),
                ],
                location: "e.yml:2"),
        ])
    }
}
