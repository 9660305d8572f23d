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
