import Foundation
import HIGAuditCore
import HIGAuditSample
import Testing

/// The sample generator's ground truth held against the real rules: whatever the generator says it
/// planted, `hig-audit analyze` finds, no more and no less, per rule and app version.
@Suite struct SampleLogsGroundTruthTests {
    static let committedNight = "SampleLogs/night-2026-11-20"

    /// The committed night's profile (short sessions, coalesced moves, ten-minute time-first files),
    /// smaller and with much more noise; and the heavy default profile (every move, long sessions).
    static let freshSets: [SampleConfiguration] = {
        let noise = NoiseProfile.heavy
        let light = SampleConfiguration(
            size: .sessions(400), seed: 4_242, noise: noise, layout: .hourDevice, fileMinutes: 10,
            moveSamplingMs: 250, sessionLength: .short)
        let heavy = SampleConfiguration(
            size: .sessions(30), seed: 99, noise: noise, layout: .hourDevice, fileMinutes: 10)
        // `--mix field` with noise: 60 sessions in progress at once, interleaved line by line.
        var field = SampleConfiguration(size: .sessions(300), seed: 4_949, noise: noise, fileMinutes: 10)
        SampleMix.field.apply(to: &field)
        field.concurrentSessions = 60
        return [light, heavy, field]
    }()

    /// A freshly generated noisy set: every planted violation found, per rule and version, every
    /// noise line counted in its bucket.
    @Test(arguments: freshSets)
    func rulesFindExactlyThePlantedViolationsOfAFreshNoisySet(configuration: SampleConfiguration) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hig-audit-samplelogs-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try SampleGenerator(configuration: configuration).write(to: directory)
        let audit = try SampleAudit(directory: directory.path)
        Self.expectAudit(audit, matches: manifest)
        if configuration.sessionLength == .short, configuration.concurrentSessions == nil {
            // Every rule has planted violations here, so every comparison above can fail.
            for rule in sampleRuleIDs { #expect(manifest.expectedViolations(rule: rule) > 0, "\(rule)") }
        }
    }

    /// The committed night gives exactly the counts of its committed manifest.
    @Test func committedNightGivesItsManifestCounts() throws {
        let root = HigAuditBinary.packageRoot.appendingPathComponent(Self.committedNight)
        let manifest = try JSONDecoder().decode(
            SampleManifest.self, from: Data(contentsOf: root.appendingPathComponent("sample-manifest.json")))
        #expect(manifest.sessions == 2_000)
        let audit = try SampleAudit(directory: root.path)
        Self.expectAudit(audit, matches: manifest)
        for rule in sampleRuleIDs { #expect(manifest.expectedViolations(rule: rule) > 0, "\(rule)") }
    }

    /// SampleLogs/README.md shows the committed manifest's own table, and the command that made it.
    @Test func readmeStatesTheCommittedManifest() throws {
        let root = HigAuditBinary.packageRoot.appendingPathComponent(Self.committedNight)
        let manifest = try JSONDecoder().decode(
            SampleManifest.self, from: Data(contentsOf: root.appendingPathComponent("sample-manifest.json")))
        let readme = try String(
            contentsOf: HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs/README.md"), encoding: .utf8)
        #expect(readme.contains(manifest.plantedProblemsMarkdown()))
        #expect(readme.contains("--seed \(manifest.seed)"))
        #expect(readme.contains("--sessions \(manifest.sessions)"))
        #expect(readme.contains(manifest.expectedViolationsMarkdown()))
    }

    static func expectAudit(_ audit: SampleAudit, matches manifest: SampleManifest) {
        for tally in manifest.versions {
            #expect(audit.sessions[tally.version] ?? 0 == tally.sessions, "\(tally.version) sessions")
            for rule in sampleRuleIDs {
                #expect(audit.violations[tally.version]?[rule] ?? 0 == tally.violations(rule: rule), "\(tally.version) \(rule)")
                #expect(
                    audit.sessionsAffected[tally.version]?[rule] ?? 0 == tally.sessionsAffected(rule: rule),
                    "\(tally.version) \(rule) sessions affected")
            }
        }
        let statistics = audit.statistics
        #expect(statistics.files == manifest.files)
        #expect(statistics.frames == manifest.frames)
        #expect(statistics.lines == Int64(manifest.lines))
        #expect(statistics.compressedBytes == manifest.compressedBytes)
        #expect(statistics.decompressedBytes == manifest.uncompressedBytes)
        #expect(statistics.sessions == manifest.sessions)
        #expect(statistics.events == Int64(manifest.events))
        #expect(statistics.malformedLines == Int64(manifest.noise.malformedLines))
        #expect(statistics.duplicateEvents == Int64(manifest.noise.duplicateEvents))
        #expect(statistics.lateEvents == Int64(manifest.noise.lateEvents))
        #expect(statistics.unknownTypes == manifest.noise.unknownTypes.mapValues(Int64.init))
        #expect(statistics.skippedBytes == 0 && statistics.truncatedFiles == 0 && statistics.faults == 0)
        #expect(statistics.unbalancedDismisses == 0)
        let late = audit.diagnostics.filter { $0.category == .lateEvent }.count
        let malformed = audit.diagnostics.filter { $0.category == .malformedLine }.count
        #expect(late == manifest.noise.lateEvents && malformed == manifest.noise.malformedLines)
        #expect(audit.diagnostics.count == late + malformed)
    }
}
