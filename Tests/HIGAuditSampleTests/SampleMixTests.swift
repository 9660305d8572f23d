import Foundation
import Testing
@testable import HIGAuditSample

/// The options that shape the event mix (`--concurrent-sessions`, `--extra-haptics-per-minute`,
/// `--problem-rate-scale`) and the `--mix field` preset, measured on the generated lines.
@Suite struct SampleMixTests {
    /// Issue 49's field figures (a held-out corpus from another generator).
    static let fieldMovedShare = 0.29
    static let fieldHapticsPerThousandLines = 85.0
    static let fieldViolationsPerThousandLines = 23.0

    /// What a reading in directory order shows of the mix.
    struct MixFigures {
        var lines = 0
        var moved = 0
        var haptics = 0
        /// Sessions from their first line to their last, at each line.
        var inProgress: [Int] = []
        var sessionChanges = 0

        init(_ files: [SampleLogFile]) {
            var first: [String: Int] = [:]
            var last: [String: Int] = [:]
            var previous: String?
            for file in SampleFixtures.inReadingOrder(files) {
                for line in SampleFixtures.lines(of: file.contents) {
                    defer { lines += 1 }
                    guard case .event(_, let session, let type, let fields) = SpecLineClassifier.classify(line) else { continue }
                    if type == "touch", fields["phase"] as? String == "moved" { moved += 1 }
                    if type == "haptic" { haptics += 1 }
                    if first[session] == nil { first[session] = lines }
                    last[session] = lines
                    if let previous, previous != session { sessionChanges += 1 }
                    previous = session
                }
            }
            var delta = [Int](repeating: 0, count: lines + 1)
            for (session, start) in first {
                delta[start] += 1
                delta[last[session]! + 1] -= 1
            }
            var open = 0
            inProgress = (0..<lines).map { index in
                open += delta[index]
                return open
            }
        }

        var movedShare: Double { Double(moved) / Double(max(lines, 1)) }
        var hapticsPerThousandLines: Double { 1_000 * Double(haptics) / Double(max(lines, 1)) }
        /// The mean over the middle half of the reading, past the lanes' start and before their end.
        var steadyInProgress: Double {
            let middle = inProgress[(inProgress.count / 4)..<(3 * inProgress.count / 4)]
            return Double(middle.reduce(0, +)) / Double(max(middle.count, 1))
        }
    }

    /// The field preset on a size a test can afford: without noise, so every line is an event.
    static let field: SampleConfiguration = {
        var configuration = SampleConfiguration(size: .sessions(600), seed: 49, noise: .none, fileMinutes: 10)
        SampleMix.field.apply(to: &configuration)
        return configuration
    }()

    @Test func fieldMixHasTheFieldProportions() throws {
        let (files, manifest) = try SampleFixtures.generate(Self.field)
        let figures = MixFigures(files)
        #expect(figures.lines == manifest.lines && figures.lines > 20_000)
        let violations = Double(sampleRuleIDs.reduce(0) { $0 + manifest.expectedViolations(rule: $1) })
        let violationsPerThousand = 1_000 * violations / Double(manifest.lines)
        print("field mix: \(figures.lines) lines, \(manifest.uncompressedBytes / Int64(manifest.lines)) bytes a line, "
            + "moved \(figures.movedShare), haptics \(figures.hapticsPerThousandLines) and violations \(violationsPerThousand) "
            + "per 1,000 lines, \(figures.inProgress.max() ?? 0) sessions in progress at most")
        #expect(abs(figures.movedShare - Self.fieldMovedShare) <= 0.03, "\(figures.movedShare)")
        #expect(abs(figures.hapticsPerThousandLines - Self.fieldHapticsPerThousandLines) <= 10, "\(figures.hapticsPerThousandLines)")
        #expect(abs(violationsPerThousand - Self.fieldViolationsPerThousandLines) <= 4, "\(violationsPerThousand)")
        // 600 sessions on 150 devices, fewer than the preset's 3,000 lanes: every device at once.
        #expect(figures.inProgress.max() ?? 0 >= 140, "\(figures.inProgress.max() ?? 0)")
        #expect(Double(figures.sessionChanges) > 0.9 * Double(figures.lines), "line by line: \(figures.sessionChanges)")
        #expect(files.allSatisfy { $0.device.isEmpty }, "the stream layout")
    }

    /// N lanes: at most N sessions in progress in reading order (a lane's sessions follow each other),
    /// and nearly N all along, their lines alternating.
    @Test func concurrentSessionsAreInProgressAtOnceInReadingOrder() throws {
        let configuration = SampleConfiguration(
            size: .sessions(900), seed: 7, noise: .none, layout: .stream, fileMinutes: 10, moveSamplingMs: 250,
            sessionLength: .short, concurrentSessions: 40)
        let (files, manifest) = try SampleFixtures.generate(configuration)
        let figures = MixFigures(files)
        #expect(manifest.sessions == 900)
        #expect(figures.inProgress.max() == 40)
        #expect(figures.steadyInProgress >= 32, "\(figures.steadyInProgress)")
        #expect(Double(figures.sessionChanges) > 0.8 * Double(figures.lines), "\(figures.sessionChanges) of \(figures.lines)")

        // Without lanes the same devices spread their sessions over the evening: few at once.
        var spread = configuration
        spread.concurrentSessions = nil
        let spreadFigures = MixFigures(try SampleFixtures.generate(spread).files)
        #expect(spreadFigures.steadyInProgress < 20, "\(spreadFigures.steadyInProgress)")
    }

    /// Extra feedback haptics come at about the asked rate per minute of session on devices with
    /// haptics on, and plant nothing (`SampleGroundTruthTests` reads the field preset with them).
    @Test func extraHapticsComeAtTheAskedRate() throws {
        var configuration = SampleConfiguration(
            size: .sessions(300), seed: 12, noise: .none, moveSamplingMs: 500, sessionLength: .short)
        let plain = try SampleFixtures.generate(configuration)
        configuration.extraHapticsPerMinute = 12
        let extra = try SampleFixtures.generate(configuration)
        func haptics(_ files: [SampleLogFile]) -> (count: Int, minutesWithHaptics: Double) {
            var count = 0
            var span: [String: (first: Int64, last: Int64, enabled: Bool)] = [:]
            for file in files {
                for line in SampleFixtures.lines(of: file.contents) {
                    guard case .event(let ts, let session, let type, let fields) = SpecLineClassifier.classify(line) else { continue }
                    if type == "haptic" { count += 1 }
                    var entry = span[session] ?? (ts, ts, true)
                    if type == "session.start", fields["haptics_enabled"] as? Bool == false { entry.enabled = false }
                    entry.last = max(entry.last, ts)
                    span[session] = entry
                }
            }
            let minutes = span.values.filter(\.enabled).reduce(0.0) { $0 + Double($1.last - $1.first) / 60_000 }
            return (count, minutes)
        }
        let before = haptics(plain.files)
        let after = haptics(extra.files)
        let added = Double(after.count - before.count)
        let expected = 12 * after.minutesWithHaptics
        #expect(added > 0.6 * expected && added < 1.2 * expected, "\(added) added, about \(expected) asked")
        #expect(plain.manifest.sessions == extra.manifest.sessions)
    }

    /// `problemRateScale` multiplies every rate (capped at 1): 0 plants nothing, 2 plants twice as
    /// often, within four standard deviations.
    @Test func problemRateScaleMultipliesEveryRate() throws {
        var configuration = SampleConfiguration(size: .sessions(150), seed: 21, days: 3, noise: .none, moveSamplingMs: 1_000)
        configuration.problemRateScale = 0
        let none = try SampleFixtures.generate(configuration).manifest
        #expect(none.versions.allSatisfy { $0.injections.allSatisfy { $0 == 0 } && $0.ruleViolations.allSatisfy { $0 == 0 } })

        configuration.problemRateScale = 2
        let doubled = try SampleFixtures.generate(configuration).manifest
        var checked = 0
        for tally in doubled.versions {
            let behaviour = try #require(AppVersionBehaviour.releases.first { $0.version == tally.version })
            for problem in InjectedProblem.allCases {
                let n = tally.opportunities(problem)
                let rate = min(1, 2 * behaviour.rate(problem))
                guard n >= 30, rate > 0 else { continue }
                let observed = Double(tally.injections(problem)) / Double(n)
                let sigma = (rate * (1 - rate) / Double(n)).squareRoot()
                #expect(abs(observed - rate) <= 4 * sigma + 0.005, "\(tally.version) \(problem.name): \(observed) vs \(rate)")
                checked += 1
            }
        }
        #expect(checked >= 12)
        #expect(AppVersionBehaviour.v520.scaled(by: 2).rate(.modalDepth) == 1)
    }

    /// Options left at their defaults give the bytes they gave before they existed.
    @Test func defaultsOfTheMixOptionsChangeNothing() throws {
        let plain = SampleFixtures.noisy
        var explicit = plain
        explicit.concurrentSessions = nil
        explicit.extraHapticsPerMinute = 0
        explicit.problemRateScale = 1
        #expect(try SampleFixtures.generate(plain).files == SampleFixtures.generate(explicit).files)
    }
}
