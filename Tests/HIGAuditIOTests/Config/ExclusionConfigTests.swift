import Testing
import HIGAuditCore
@testable import HIGAuditIO

@Suite struct ExclusionConfigTests {
    let loader = ConfigFixtures.loader

    @Test func readsEntriesWithTheirLines() throws {
        let configuration = try loader.parse("""
            rules:
              modal-depth:
                max_depth: 3
            exclude:
              - rules: [haptic-overuse]
                screens: ["Canvas/*", "Sketch?"]
                app_versions: [5.2, "6"]
                reason: the canvas plays haptics on purpose
                until: 2026-12-31
              - rules: "*"
                reason: known
            """, file: "c.yml")
        #expect(configuration.exclusions == [
            Exclusion(
                rules: ["haptic-overuse"], screens: [ScreenGlob("Canvas/*"), ScreenGlob("Sketch?")], appVersions: ["5.2", "6"],
                reason: "the canvas plays haptics on purpose", until: CalendarDay("2026-12-31"), location: "c.yml:5"),
            Exclusion(rules: nil, reason: "known", location: "c.yml:10"),
        ])
        #expect(configuration.rules["modal-depth"]?.parameters["max_depth"] == 3)
    }

    @Test func aStarAmongTheRulesMeansEveryRule() throws {
        let configuration = try loader.parse("exclude:\n  - rules: [modal-depth, \"*\"]\n    reason: r\n", file: "c.yml")
        #expect(configuration.exclusions.first?.rules == nil)
    }

    @Test func anEmptyExcludeSetsNothing() throws {
        #expect(try loader.parse("exclude:\n", file: "c.yml") == AuditConfiguration())
        #expect(try loader.parse("exclude: []\n", file: "c.yml") == AuditConfiguration())
    }

    @Test(arguments: [
        // (yaml, key path, line, message fragment)
        ("exclude:\n  - rules: [modal-depth]\n", "exclude[0]", 2, "missing reason"),
        ("exclude:\n  - reason: r\n", "exclude[0]", 2, "missing rules"),
        ("exclude:\n  - rules: [modal-depth]\n    reason: \"  \"\n", "exclude[0].reason", 3, "reason is empty"),
        ("exclude:\n  - rules: [modal-depth]\n    reason:\n", "exclude[0].reason", 3, "empty value"),
        ("exclude:\n  - rules: [modal-dept]\n    reason: r\n", "exclude[0].rules", 2, "unknown rule modal-dept"),
        ("exclude:\n  - rules: modal-depth\n    reason: r\n", "exclude[0].rules", 2, "expected a list"),
        ("exclude:\n  - rules: []\n    reason: r\n", "exclude[0].rules", 2, "empty list"),
        ("exclude:\n  - rules: [modal-depth]\n    screens: []\n    reason: r\n", "exclude[0].screens", 3, "empty list"),
        ("exclude:\n  - rules: [modal-depth]\n    screens: Home\n    reason: r\n", "exclude[0].screens", 3, "expected a list"),
        ("exclude:\n  - rules: [modal-depth]\n    screens: [[a]]\n    reason: r\n", "exclude[0].screens", 3, "a list"),
        ("exclude:\n  - rules: [modal-depth]\n    reason: r\n    until: 2026-02-30\n", "exclude[0].until", 4, "YYYY-MM-DD"),
        ("exclude:\n  - rules: [modal-depth]\n    reason: r\n    until: tomorrow\n", "exclude[0].until", 4, "YYYY-MM-DD"),
        ("exclude:\n  - rules: [modal-depth]\n    reason: r\n    screen: [a]\n", "exclude[0].screen", 4, "unknown setting"),
        ("exclude:\n  - rules: [modal-depth]\n    reason: r\n  - rules: [x]\n    reason: r\n", "exclude[1].rules", 4, "unknown rule x"),
        ("exclude:\n  rules: [modal-depth]\n", "exclude", 2, "expected a list"),
        ("exclude:\n  - modal-depth\n", "exclude[0]", 2, "expected an entry"),
    ])
    func refusesWithKeyPathAndLine(yaml: String, keyPath: String, line: Int, fragment: String) {
        do {
            _ = try loader.parse(yaml, file: "conf/audit.yml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.keyPath == keyPath, "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("conf/audit.yml:\(line):"))
        }
    }

    @Test func theDefaultConfigShowsACommentedExample() throws {
        let text = DefaultConfigWriter.render(rules: ConfigFixtures.rules)
        #expect(text.contains("\n# exclude:\n"))
        #expect(try loader.parse(text, file: "d.yml").exclusions.isEmpty)
        // Uncommented, the example is a valid config.
        let example = text.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("# exclude:") }
            .prefix { $0.hasPrefix("#") }
            .map { String($0.dropFirst(2)) }
            .joined(separator: "\n")
        let configuration = try loader.parse(example, file: "e.yml")
        #expect(configuration.exclusions.count == 1)
    }
}
