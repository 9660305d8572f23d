import Foundation
import Testing
@testable import HIGAuditSample

@Suite struct SampleGroundTruthTests {
    /// The manifest's planted violations, per rule and version, are exactly what a plain reading of
    /// the SPEC §3 rules finds: baseline behaviour triggers nothing, each injection what it records,
    /// and upload noise changes nothing the rules see.
    @Test(arguments: [SampleFixtures.clean, SampleFixtures.noisy, SampleFixtures.noisyMixedEncoders, SampleFixtures.noisyField])
    func referenceRulesFindExactlyThePlantedViolations(configuration: SampleConfiguration) throws {
        let (files, manifest) = try SampleFixtures.generate(configuration)
        var found: [String: [String: Int]] = [:]
        var affected: [String: [String: Int]] = [:]
        for events in AcceptedEvents.bySession(files).values {
            let version = events.first?.fields["app_version"] as? String ?? "?"
            for (rule, count) in ReferenceRuleOracle.violations(in: events) where count > 0 {
                found[version, default: [:]][rule, default: 0] += count
                affected[version, default: [:]][rule, default: 0] += 1
            }
        }
        for tally in manifest.versions {
            for rule in sampleRuleIDs {
                #expect(found[tally.version]?[rule] ?? 0 == tally.violations(rule: rule), "\(tally.version) \(rule)")
                #expect(affected[tally.version]?[rule] ?? 0 == tally.sessionsAffected(rule: rule), "\(tally.version) \(rule)")
            }
        }
        if !configuration.noise.enabled {
            // The clean fixture plants every rule's problem, so each comparison above means something.
            for rule in sampleRuleIDs { #expect(manifest.expectedViolations(rule: rule) > 0, "\(rule)") }
        }
    }

    /// Read as one stream with SPEC §2's session closing, the time-first layout with 10-minute files
    /// loses no event: the stream never runs 30 minutes ahead of a session.
    @Test func timeFirstLayoutSurvivesSessionClosingAsOneStream() throws {
        var configuration = SampleFixtures.noisy
        configuration.layout = .hourDevice
        configuration.fileMinutes = 10
        let (files, manifest) = try SampleFixtures.generate(configuration)
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}/ipad-\d{4}\.ndjson\.zst$"#)
        #expect(files.allSatisfy { $0.path.wholeMatch(of: pattern) != nil })
        let sessions = AcceptedEvents.bySession(files, clock: .wholeStream)
        #expect(sessions.values.reduce(0) { $0 + $1.count } == manifest.events)
        var found: [String: Int] = [:]
        for events in sessions.values {
            for (rule, count) in ReferenceRuleOracle.violations(in: events) { found[rule, default: 0] += count }
        }
        for rule in sampleRuleIDs { #expect(found[rule] ?? 0 == manifest.expectedViolations(rule: rule), "\(rule)") }
    }

    /// Injections happen at the stated per-version rates (within four standard deviations).
    @Test func injectionsFollowTheVersionTable() throws {
        // Only the manifest is read: coalesced moves change no opportunity and save most of the work.
        let configuration = SampleConfiguration(size: .sessions(150), seed: 21, days: 3, noise: .none, moveSamplingMs: 1_000)
        let (_, manifest) = try SampleFixtures.generate(configuration)
        var checked = 0
        for tally in manifest.versions {
            let behaviour = try #require(AppVersionBehaviour.releases.first { $0.version == tally.version })
            #expect(tally.sessions > 10)
            for problem in InjectedProblem.allCases {
                let n = tally.opportunities(problem)
                let rate = behaviour.rate(problem)
                if rate == 0 { #expect(tally.injections(problem) == 0, "\(tally.version) \(problem.name)") }
                guard n >= 30 else { continue }
                let observed = Double(tally.injections(problem)) / Double(n)
                let sigma = (rate * (1 - rate) / Double(n)).squareRoot()
                #expect(abs(observed - rate) <= 4 * sigma + 0.005, "\(tally.version) \(problem.name): \(observed) vs \(rate)")
                checked += 1
            }
        }
        #expect(checked >= 12)
        #expect(manifest.versions[1].injections(.forcedTabSwitch) > 0)
    }

    @Test func summaryAndTableNameEveryRuleAndVersion() throws {
        let (_, manifest) = try SampleFixtures.generate(SampleFixtures.small)
        let summary = manifest.summary()
        let table = manifest.plantedProblemsMarkdown()
        for rule in sampleRuleIDs { #expect(summary.contains(rule) && table.contains(rule)) }
        for version in ["5.1.0", "5.2.0", "5.2.1"] { #expect(table.contains(version)) }
        #expect(table.contains("| forced-tab-switch | `forced-tab-switch` | successful save | 0 % |"))
    }

    /// The summary's counts start in one column for every rule, the longest id included.
    @Test func summaryCountsStartInOneColumn() throws {
        let (_, manifest) = try SampleFixtures.generate(SampleFixtures.small)
        let rows = manifest.summary().split(separator: "\n").filter { row in sampleRuleIDs.contains { row.hasPrefix("  \($0) ") } }
        #expect(rows.count == sampleRuleIDs.count)
        let columns = Set(rows.map { row in row.firstIndex { $0.isNumber }.map { row.distance(from: row.startIndex, to: $0) } })
        #expect(columns.count == 1, "\(rows)")
    }
}

@Suite struct SampleZstdOutputTests {
    static func zstdCLI(_ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zstd"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }

    /// Every written file decompresses with the real `zstd -dc` to exactly the generated text, and a
    /// single frame of a noisy file really ends in the middle of a line.
    @Test func filesDecompressWithTheZstdCLI() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hig-audit-sample-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = SampleFixtures.noisy
        let manifest = try SampleGenerator(configuration: configuration).write(to: directory)
        let (files, _) = try SampleFixtures.generate(configuration)
        #expect(manifest.files == files.count)
        var compressed: Int64 = 0
        for file in files {
            let url = directory.appendingPathComponent(file.path)
            compressed += Int64(try Data(contentsOf: url).count)
            #expect(try Self.zstdCLI(["-dc", url.path]) == Data(file.contents), "\(file.path)")
        }
        #expect(compressed == manifest.compressedBytes)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sample-manifest.json").path))

        // A frame that ends mid-line, compressed alone the same way: zstd gives back a cut line.
        var cut: (bytes: [UInt8], checksum: Bool, contentSize: Bool)?
        for file in files where cut == nil {
            for case .frame(let range, let checksum, let contentSize) in file.chunks
            where range.upperBound < file.contents.count && file.contents[range.upperBound - 1] != UInt8(ascii: "\n") {
                cut = (Array(file.contents[range]), checksum, contentSize)
                break
            }
        }
        let frame = try #require(cut)
        let alone = try Self.zstdCLI(["-dc"], input: Data(try ZstdFrameEncoderProbe.frame(frame.bytes, checksum: frame.checksum, contentSize: frame.contentSize)))
        #expect(alone == Data(frame.bytes))
        #expect(alone.last != UInt8(ascii: "\n"))
    }
}

@Suite struct SampleManifestMarkdownTests {
    @Test func expectedViolationsTableHasOneRowPerRuleWithEveryVersion() throws {
        let (_, manifest) = try SampleFixtures.generate(SampleFixtures.clean)
        let table = manifest.expectedViolationsMarkdown()
        let rows = table.split(separator: "\n")
        #expect(rows.count == 2 + sampleRuleIDs.count)
        for tally in manifest.versions { #expect(rows[0].contains("\(tally.version) (\(tally.sessions) sessions)")) }
        let v520 = manifest.versions[1]
        let overuse = v520.violations(rule: "haptic-overuse")
        let affected = v520.sessionsAffected(rule: "haptic-overuse")
        let row = try #require(rows.first { $0.hasPrefix("| `haptic-overuse` |") })
        #expect(row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }[2].hasPrefix("\(overuse) in \(affected) sessions ("))
        #expect(overuse > 0)
    }
}
