import Foundation
import Testing
@testable import HIGAuditSample

@Suite struct SampleDeterminismTests {
    @Test func sameSeedGivesSameBytes() throws {
        let first = try SampleFixtures.generate(SampleFixtures.small)
        let second = try SampleFixtures.generate(SampleFixtures.small)
        #expect(first.files == second.files)
        #expect(first.manifest == second.manifest)
        #expect(!first.files.isEmpty)
    }

    @Test func anotherSeedGivesOtherBytes() throws {
        var other = SampleFixtures.small
        other.seed = 12
        let first = try SampleFixtures.generate(SampleFixtures.small)
        let second = try SampleFixtures.generate(other)
        #expect(first.files.map(\.contents) != second.files.map(\.contents))
    }

    /// Noise draws from its own stream: the same seed simulates the same sessions with or without it.
    @Test func noiseDoesNotChangeTheSimulatedSessions() throws {
        var noisy = SampleFixtures.small
        noisy.noise = .realistic
        var clean = SampleFixtures.small
        clean.noise = .none
        let a = try SampleFixtures.generate(noisy).manifest
        let b = try SampleFixtures.generate(clean).manifest
        #expect(a.versions == b.versions)
        #expect(a.events == b.events && a.sessions == b.sessions)
        #expect(a.lines > b.lines)
    }

    @Test func sessionIDsAreUniqueAndRandomLooking() {
        var seen = Set<String>()
        for device in 0..<50 {
            for number in 0..<50 { seen.insert(DeviceLogStream.sessionID(seed: 1, device: device, number: number)) }
        }
        #expect(seen.count == 2_500)
        #expect(seen.allSatisfy { $0.count == 16 })
    }
}

@Suite struct SampleLayoutTests {
    @Test func oneFilePerDevicePerHourNamedByUTCDateAndHour() throws {
        let (files, _) = try SampleFixtures.generate(SampleFixtures.clean)
        let pattern = try Regex(#"^(\d{4}-\d{2}-\d{2})/(ipad-\d{4})/(\d{2})\.ndjson\.zst$"#)
        #expect(Set(files.map(\.path)).count == files.count)
        for file in files {
            let match = try #require(file.path.wholeMatch(of: pattern))
            let day = String(match.output[1].substring ?? "")
            let device = String(match.output[2].substring ?? "")
            let hour = Int(match.output[3].substring ?? "") ?? -1
            for line in SampleFixtures.lines(of: file.contents) {
                guard case .event(let ts, _, _, let fields) = SpecLineClassifier.classify(line) else {
                    Issue.record("not an event: \(line)")
                    continue
                }
                #expect(fields["device"] as? String == device)
                let place = TimestampWriter.utcDayAndHour(ts)
                #expect(place.day == day && place.hour == hour, "\(file.path): \(line)")
            }
        }
    }

    @Test func sessionsContinueFromOneFileIntoTheNext() throws {
        let (files, _) = try SampleFixtures.generate(SampleFixtures.clean)
        var filesPerSession: [String: Set<String>] = [:]
        for file in files {
            for line in SampleFixtures.lines(of: file.contents) {
                if case .event(_, let session, _, _) = SpecLineClassifier.classify(line) {
                    filesPerSession[session, default: []].insert(file.path)
                }
            }
        }
        #expect(filesPerSession.values.contains { $0.count > 1 })
    }

    @Test func hourDeviceLayoutPutsTheHourFirst() throws {
        var configuration = SampleFixtures.small
        configuration.layout = .hourDevice
        let (files, _) = try SampleFixtures.generate(configuration)
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{2}/ipad-\d{4}\.ndjson\.zst$"#)
        #expect(files.allSatisfy { $0.path.wholeMatch(of: pattern) != nil })
    }
}

@Suite struct SampleCleanLineTests {
    /// With `--no-noise` every line is a valid event of SPEC §2, sessions start with `session.start`
    /// and their timestamps strictly increase in reading order.
    @Test func everyLineIsAValidEventInOrder() throws {
        let (files, manifest) = try SampleFixtures.generate(SampleFixtures.clean)
        var newest: [String: Int64] = [:]
        var events = 0
        var lines = 0
        for file in SampleFixtures.inReadingOrder(files) {
            #expect(file.contents.last == UInt8(ascii: "\n"))
            for line in SampleFixtures.lines(of: file.contents) {
                lines += 1
                guard case .event(let ts, let session, let type, _) = SpecLineClassifier.classify(line) else {
                    Issue.record("not a valid event: \(line)")
                    continue
                }
                events += 1
                if let previous = newest[session] {
                    #expect(ts > previous, "\(line)")
                } else {
                    #expect(type == "session.start", "\(line)")
                }
                newest[session] = ts
                #expect(line.hasPrefix(#"{"ts":""#) && line.contains("Z\",\"session\""))
            }
        }
        #expect(events == manifest.events)
        #expect(lines == manifest.lines)
        #expect(newest.count == manifest.sessions)
        #expect(manifest.sessions == 80)
        #expect(manifest.noise == NoiseCounts())
    }

    @Test func cleanFramesEndAtLineEndsWithChecksumAndSize() throws {
        let (files, _) = try SampleFixtures.generate(SampleFixtures.clean)
        for file in files {
            var covered = 0
            for chunk in file.chunks {
                guard case .frame(let range, let checksum, let contentSize) = chunk else {
                    Issue.record("skippable frame in clean data")
                    continue
                }
                #expect(range.lowerBound == covered && checksum && contentSize)
                #expect(file.contents[range.upperBound - 1] == UInt8(ascii: "\n"))
                covered = range.upperBound
            }
            #expect(covered == file.contents.count)
        }
    }
}

@Suite struct SampleTelemetryProfileTests {
    /// Coalescing moves only drops `moved` touches: the same sessions with the same planted problems,
    /// and no two logged moves of one gesture closer than the sampling interval.
    @Test func moveSamplingKeepsTheSessionsAndTheirProblems() throws {
        var everyMove = SampleFixtures.small
        everyMove.noise = .none
        var sampled = everyMove
        sampled.moveSamplingMs = 250
        let full = try SampleFixtures.generate(everyMove)
        let light = try SampleFixtures.generate(sampled)
        #expect(light.manifest.versions.map(\.opportunities) == full.manifest.versions.map(\.opportunities))
        #expect(light.manifest.versions.map(\.injections) == full.manifest.versions.map(\.injections))
        #expect(light.manifest.versions.map(\.ruleViolations) == full.manifest.versions.map(\.ruleViolations))
        #expect(light.manifest.sessions == full.manifest.sessions)
        #expect(light.manifest.events * 2 < full.manifest.events)

        func counts(_ files: [SampleLogFile]) -> (moved: Int, other: [String: Int], closestMoves: Int64) {
            var moved = 0
            var other: [String: Int] = [:]
            var lastTouch: [String: Int64] = [:]
            var closest = Int64.max
            for (session, events) in AcceptedEvents.bySession(files) {
                for event in events {
                    let phase = event.fields["phase"] as? String
                    if event.type == "touch", phase == "moved" {
                        moved += 1
                        if let last = lastTouch[session] { closest = min(closest, event.ts - last) }
                    } else {
                        other[event.type + (phase.map { "/" + $0 } ?? ""), default: 0] += 1
                    }
                    if event.type == "touch", phase == "began" || phase == "moved" { lastTouch[session] = event.ts }
                }
            }
            return (moved, other, closest)
        }
        let fullCounts = counts(full.files)
        let lightCounts = counts(light.files)
        #expect(lightCounts.other == fullCounts.other)
        #expect(lightCounts.moved > 0 && lightCounts.moved * 3 < fullCounts.moved)
        #expect(lightCounts.closestMoves >= 250)
        #expect(fullCounts.closestMoves < 250)
    }

    /// Short sessions: the same devices and settings, shorter sessions, fewer events per session.
    @Test func shortSessionsAreShorter() throws {
        var mixed = SampleFixtures.small
        mixed.noise = .none
        mixed.moveSamplingMs = 1_000
        var short = mixed
        short.sessionLength = .short
        func meanLengthMs(_ files: [SampleLogFile]) -> Int64 {
            let sessions = AcceptedEvents.bySession(files).values
            let total = sessions.reduce(Int64(0)) { $0 + (($1.last?.ts ?? 0) - ($1.first?.ts ?? 0)) }
            return total / Int64(max(1, sessions.count))
        }
        let mixedSet = try SampleFixtures.generate(mixed)
        let shortSet = try SampleFixtures.generate(short)
        #expect(shortSet.manifest.sessions == mixedSet.manifest.sessions)
        #expect(shortSet.manifest.devices == mixedSet.manifest.devices)
        let mixedMean = meanLengthMs(mixedSet.files)
        let shortMean = meanLengthMs(shortSet.files)
        #expect(shortMean * 2 < mixedMean, "short \(shortMean) ms, mixed \(mixedMean) ms")
        #expect(shortSet.manifest.events * 2 < mixedSet.manifest.events)
    }
}
