import Foundation
import Testing
@testable import HIGAuditSample

/// `--layout stream`: every device's lines of a period merged into one file in time order. The lines
/// are those of the other layouts, each session's (and so each device's) in the same order; only the
/// files, and the frames cut from them, differ.
@Suite struct SampleStreamLayoutTests {
    static func configuration(_ layout: SampleConfiguration.Layout, offline: Double = 0) -> SampleConfiguration {
        var configuration = SampleUploadLayoutTests.configuration(layout, offline: offline)
        configuration.devices = 10
        return configuration
    }

    /// The `session` of a line written by the uniform encoder or the noise (blank lines have none).
    static func session(of line: String) -> String? {
        guard let start = line.range(of: #""session":""#)?.upperBound,
              let end = line[start...].firstIndex(of: "\"") else { return nil }
        return String(line[start..<end])
    }

    static func linesInReadingOrder(_ files: [SampleLogFile]) -> [String] {
        SampleFixtures.inReadingOrder(files).flatMap { SampleFixtures.lines(of: $0.contents) }
    }

    @Test func streamLayoutHoldsTheSameLinesEachSessionInOrderWithDevicesInterleaved() throws {
        let (timeFiles, timeManifest) = try SampleFixtures.generate(Self.configuration(.time))
        let (files, manifest) = try SampleFixtures.generate(Self.configuration(.stream))
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}\.ndjson\.zst$"#)
        #expect(files.allSatisfy { $0.path.wholeMatch(of: pattern) != nil && $0.device.isEmpty })
        #expect(Set(files.map(\.path)).count == files.count)

        let expected = Self.linesInReadingOrder(timeFiles)
        let actual = Self.linesInReadingOrder(files)
        #expect(actual.sorted() == expected.sorted(), "the same lines")
        let expectedBySession = Dictionary(grouping: expected) { Self.session(of: $0) ?? "" }
        let actualBySession = Dictionary(grouping: actual) { Self.session(of: $0) ?? "" }
        #expect(expectedBySession.count > 30)
        for (session, lines) in expectedBySession where !session.isEmpty {
            #expect(actualBySession[session] == lines, "\(session): its lines in the same order")
        }

        // Devices alternate within files: far more device changes between neighbouring lines than
        // the per-device files, where a device changes only from one file to the next.
        let devices = actual.compactMap { line -> String? in
            guard let start = line.range(of: #""device":""#)?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "\"" })
        }
        let changes = zip(devices, devices.dropFirst()).filter { $0 != $1 }.count
        #expect(changes > 4 * timeFiles.count, "\(changes) device changes in \(devices.count) lines")

        // The manifest is the time layout's but for the files and the frames cut from them.
        var comparable = manifest
        #expect(manifest.files == files.count && manifest.files < timeManifest.files)
        #expect(manifest.frames == files.reduce(0) { $0 + $1.chunks.filter { if case .frame = $0 { true } else { false } }.count })
        comparable.files = timeManifest.files
        comparable.frames = timeManifest.frames
        for keyPath in [\NoiseCounts.skippableFrames, \.framesEndingMidLine, \.framesWithoutChecksum, \.framesWithoutContentSize] {
            comparable.noise[keyPath: keyPath] = timeManifest.noise[keyPath: keyPath]
        }
        #expect(comparable == timeManifest)
        #expect(manifest.noise.framesEndingMidLine > 0, "merged files are cut mid-line with noise too")
    }

    /// Offline devices' lines are merged into their own files below `late-uploads/`, read last.
    @Test func offlineDevicesAreMergedBelowLateUploads() throws {
        let (timeFiles, _) = try SampleFixtures.generate(Self.configuration(.time, offline: 0.3))
        let (files, _) = try SampleFixtures.generate(Self.configuration(.stream, offline: 0.3))
        let prefix = SampleConfiguration.lateUploadsFolder + "/"
        let lateLines = { (files: [SampleLogFile]) in
            files.filter { $0.path.hasPrefix(prefix) }.flatMap { SampleFixtures.lines(of: $0.contents) }.sorted()
        }
        #expect(!lateLines(files).isEmpty)
        #expect(lateLines(files) == lateLines(timeFiles))
        let order = SampleFixtures.inReadingOrder(files)
        let firstLate = try #require(order.firstIndex { $0.path.hasPrefix(prefix) })
        #expect(order[firstLate...].allSatisfy { $0.path.hasPrefix(prefix) })
    }

    @Test func sameSeedGivesSameBytes() throws {
        var configuration = Self.configuration(.stream)
        configuration.concurrentSessions = 4
        let first = try SampleFixtures.generate(configuration)
        let second = try SampleFixtures.generate(configuration)
        #expect(first.files == second.files && first.manifest == second.manifest)
    }
}
