import Foundation
import Testing
import HIGAuditCore
@testable import HIGAuditIO

enum ConfigFixtures {
    static func rule(_ id: String, _ parameters: [RuleParameter]) -> RuleDescription {
        RuleDescription(
            identifier: id, name: "Name of \(id)", summary: "Summary of \(id).", severity: .warning,
            citation: GuidelineCitation(
                page: .playingHaptics, guideline: "Avoid \"overusing\"\nhaptics.",
                origin: SeedOrigin(file: "001_a5135006b5b70e41.txt", quote: "Évitez l’abus.")
            ),
            parameters: parameters, triggeringExamples: [], nonTriggeringExamples: []
        )
    }

    static let rules = [
        rule("haptic-overuse", [
            RuleParameter(name: "burst_count", defaultValue: 5, minimum: 2, summary: "Haptics in a burst."),
            RuleParameter(name: "burst_window_ms", defaultValue: 2000, minimum: 1, summary: "Burst window."),
        ]),
        rule("modal-depth", [RuleParameter(name: "max_depth", defaultValue: 2, minimum: 1, summary: "Deepest allowed stack.")]),
        rule("modal-over-popover", []),
    ]

    static let loader = ConfigurationLoader(rules: rules)
}

@Suite struct ConfigurationLoaderTests {
    let loader = ConfigFixtures.loader

    @Test func readsEverySetting() throws {
        let configuration = try loader.parse("""
            max_lateness_ms: 5000
            session_gap_ms: 1_800_000
            idle_runs: 3
            rules:
              haptic-overuse:
                enabled: false
                burst_count: 3
              modal-depth:
                max_depth: 1
            """, file: "c.yml")
        #expect(configuration.maxLatenessMs == 5000)
        #expect(configuration.sessionGapMs == 1_800_000)
        #expect(configuration.idleRuns == 3)
        #expect(configuration.rules == [
            "haptic-overuse": RuleSettings(enabled: false, parameters: ["burst_count": 3]),
            "modal-depth": RuleSettings(parameters: ["max_depth": 1]),
        ])
        #expect(!configuration.isEnabled(ConfigFixtures.rules[0]))
        #expect(configuration.value(of: ConfigFixtures.rules[0].parameters[1], for: ConfigFixtures.rules[0]) == 2000)
    }

    @Test(arguments: ["", "# only a comment\n", "---\n"])
    func emptyFileIsTheDefault(yaml: String) throws {
        #expect(try loader.parse(yaml, file: "c.yml") == AuditConfiguration())
    }

    @Test func emptyMappingsSetNothing() throws {
        let configuration = try loader.parse("rules:\n  modal-depth:\n", file: "c.yml")
        #expect(configuration.rules == ["modal-depth": RuleSettings()])
        #expect(try loader.parse("rules:\n", file: "c.yml") == AuditConfiguration())
    }

    @Test func zeroLatenessIsAllowed() throws {
        #expect(try loader.parse("max_lateness_ms: 0", file: "c.yml").maxLatenessMs == 0)
    }

    /// SPEC §2 `max_pending_events`: read like the other bounds, default 100000; the canonical text of
    /// a configuration names it only when it is not the default, so older fingerprints stay the same.
    @Test func pendingEventsLimitIsRead() throws {
        #expect(try loader.parse("max_pending_events: 1_000", file: "c.yml").maxPendingEvents == 1_000)
        #expect(try loader.parse("", file: "c.yml").maxPendingEvents == 100_000)
        #expect(!AuditConfiguration().canonicalText.contains("max_pending_events"))
        #expect(AuditConfiguration(maxPendingEvents: 5).canonicalText.contains("max_pending_events=5"))
    }

    @Test(arguments: [
        // (yaml, key path, line, message fragment)
        ("max_latenes_ms: 5", "max_latenes_ms", 1, "unknown setting"),
        ("max_lateness_ms: -1", "max_lateness_ms", 1, "at least 0"),
        ("max_lateness_ms: 1.5", "max_lateness_ms", 1, "fraction 1.5"),
        ("max_lateness_ms: 1e3", "max_lateness_ms", 1, "whole number"),
        ("max_lateness_ms: \"100\"", "max_lateness_ms", 1, "quoted string"),
        ("max_lateness_ms: yes", "max_lateness_ms", 1, "boolean-like word yes"),
        ("max_lateness_ms:", "max_lateness_ms", 1, "empty value"),
        ("max_lateness_ms: [1]", "max_lateness_ms", 1, "a list"),
        ("max_lateness_ms: 0x10", "max_lateness_ms", 1, "whole number"),
        ("max_lateness_ms: 99999999999999999999", "max_lateness_ms", 1, "too large"),
        ("session_gap_ms: 0", "session_gap_ms", 1, "at least 1"),
        ("session_gap_ms: -5", "session_gap_ms", 1, "at least 1"),
        ("idle_runs: 0", "idle_runs", 1, "at least 1"),
        ("max_pending_events: 0", "max_pending_events", 1, "at least 1"),
        ("max_pending_events: 1.5", "max_pending_events", 1, "fraction 1.5"),
        ("rules:\n  haptic-overuse:\n    burst_count: 1", "rules.haptic-overuse.burst_count", 3, "at least 2, found 1"),
        ("rules:\n  haptic-overuse:\n    burst_count: five", "rules.haptic-overuse.burst_count", 3, "\"five\""),
        ("rules:\n  haptic-overuse:\n    burst_cnt: 3", "rules.haptic-overuse.burst_cnt", 3, "burst_count"),
        ("rules:\n  haptic-overuse:\n    enabled: yes", "rules.haptic-overuse.enabled", 3, "true or false"),
        ("rules:\n  haptic-overuse:\n    enabled: 1", "rules.haptic-overuse.enabled", 3, "true or false"),
        ("rules:\n  haptic-overuse:\n    enabled: \"true\"", "rules.haptic-overuse.enabled", 3, "true or false"),
        ("rules:\n  modal-dept:\n    enabled: true", "rules.modal-dept", 2, "unknown rule"),
        ("rules:\n  modal-depth: true", "rules.modal-depth", 2, "mapping"),
        ("rules: [haptic-overuse]", "rules", 1, "mapping"),
        ("- 1\n- 2", "", 1, "mapping"),
        ("rules:\n  modal-over-popover:\n    max_depth: 3", "rules.modal-over-popover.max_depth", 3, "expected one of: enabled"),
    ])
    func refusesWithKeyPathAndLine(yaml: String, keyPath: String, line: Int, fragment: String) {
        do {
            _ = try loader.parse(yaml, file: "conf/audit.yml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.keyPath == keyPath)
            #expect(error.line == line)
            #expect(error.file == "conf/audit.yml")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix("conf/audit.yml:\(line):"))
        }
    }

    @Test(arguments: ["a: [1,", "rules:\n  x: 1\n y: 2", "max_lateness_ms: 1\nmax_lateness_ms: 2", "key: \"unterminated"])
    func invalidYAMLNamesFileAndLine(yaml: String) {
        do {
            _ = try loader.parse(yaml, file: "bad.yml")
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.file == "bad.yml")
            #expect(error.line != nil, "\(error)")
        }
    }

    @Test func duplicateKeysAreNamed() {
        #expect(throws: ConfigurationError.self) { try loader.parse("session_gap_ms: 1\nsession_gap_ms: 2", file: "d.yml") }
        do {
            _ = try loader.parse("session_gap_ms: 1\nsession_gap_ms: 2", file: "d.yml")
        } catch {
            #expect(error.message.contains("session_gap_ms"))
        }
    }

    @Test func missingFileIsAnError() {
        do {
            _ = try loader.load(path: "/nonexistent/hig-audit.yml")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description == "/nonexistent/hig-audit.yml: no such file")
        }
    }

    /// A file that is no UTF-8 text, or no file, is said with what it is and, where it shows on a
    /// line, that line: not an error code of the platform's.
    static let notText: [(bytes: [UInt8], said: String)] = [
        (Array("max_lateness_ms: 1\n# note\n".utf8) + [0xFF] + Array(": 2\n".utf8),
         ":3: bytes that are not UTF-8; a config file is UTF-8 text"),
        (Array("a: 1\n".utf8) + [0, 0x0A], ":2: a NUL byte, which a YAML file cannot hold"),
        ([0xFF, 0xFE, 0x61, 0x00], ": the file is UTF-16 text; save it as UTF-8"),
    ]

    @Test(arguments: 0..<3)
    func aFileThatIsNoUTF8TextIsSaidWhere(index: Int) throws {
        let (bytes, said) = Self.notText[index]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-\(UUID().uuidString).yml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigurationError.self) { _ = try loader.load(path: path) }
        do {
            _ = try loader.load(path: path)
        } catch {
            #expect(error.description == path + said)
        }
    }

    @Test func aDirectoryIsNoConfigFile() {
        let path = FileManager.default.temporaryDirectory.path
        do {
            _ = try loader.load(path: path)
            Issue.record("loaded a directory")
        } catch {
            #expect(error.description == "\(path): it is a directory, not a config file")
        }
    }

    @Test func loadsFromAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-\(UUID().uuidString).yml").path
        try Data("rules:\n  modal-depth:\n    max_depth: 4\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try loader.load(path: path).rules["modal-depth"]?.parameters["max_depth"] == 4)
    }

    /// A 10.9 MB config of unknown keys took 571 MB and 4.7 s before its first error: a file over
    /// 1 MiB is refused before it is parsed, even one that is all comments and would be valid.
    @Test func aFileOverOneMebibyteIsRefusedUnparsed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-\(UUID().uuidString).yml").path
        let comment = "# " + String(repeating: "x", count: 1021) + "\n"
        try Data(String(repeating: comment, count: 1025).utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try loader.load(path: path)
            Issue.record("loaded a config larger than the limit")
        } catch {
            #expect(error.description == "\(path): the file is larger than 1024 KiB; a config file sets a few dozen values")
        }
        let justUnder = String(repeating: comment, count: 1024)
        try Data(justUnder.utf8).write(to: URL(fileURLWithPath: path))
        #expect(justUnder.utf8.count == ConfigurationLoader.maximumFileSize)
        #expect(try loader.load(path: path) == AuditConfiguration())
    }

    @Test func defaultConfigLoadsBackToTheDefaults() throws {
        let text = DefaultConfigWriter.render(rules: ConfigFixtures.rules)
        let configuration = try loader.parse(text, file: "default.yml")
        #expect(configuration.maxLatenessMs == AuditConfiguration.defaultMaxLatenessMs)
        #expect(configuration.sessionGapMs == AuditConfiguration.defaultSessionGapMs)
        #expect(Set(configuration.rules.keys) == Set(ConfigFixtures.rules.map(\.identifier)))
        for rule in ConfigFixtures.rules {
            #expect(configuration.isEnabled(rule))
            #expect(configuration.rules[rule.identifier]?.parameters.count == rule.parameters.count)
            for parameter in rule.parameters {
                #expect(configuration.value(of: parameter, for: rule) == parameter.defaultValue)
            }
        }
    }

    @Test func defaultConfigDocumentsEveryRuleAndParameter() {
        let text = DefaultConfigWriter.render(rules: ConfigFixtures.rules)
        for rule in ConfigFixtures.rules {
            #expect(text.contains("  # \(rule.summary)"))
            #expect(text.contains("  # Guideline: Avoid \"overusing\""))
            #expect(text.contains(
                "  # Apple HIG, Playing haptics: https://developer.apple.com/design/human-interface-guidelines/playing-haptics\n"))
            // The contract's background texts are not the user's: neither their file names nor their words.
            #expect(!text.contains(rule.citation.origin.file) && !text.contains(rule.citation.origin.quote))
            for parameter in rule.parameters {
                #expect(text.contains("# \(parameter.summary) Minimum \(parameter.minimum)."))
                #expect(text.contains("    \(parameter.name): \(parameter.defaultValue)\n"))
            }
        }
        // A multi-line guideline stays inside comments.
        #expect(text.contains("\n  # haptics.\n"))
    }

    @Test func defaultConfigWithoutRulesLoads() throws {
        #expect(try ConfigurationLoader(rules: []).parse(DefaultConfigWriter.render(rules: []), file: "d.yml") == AuditConfiguration())
    }
}
