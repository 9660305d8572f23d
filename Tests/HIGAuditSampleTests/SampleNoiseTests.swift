import Foundation
import Testing
@testable import HIGAuditSample

@Suite struct SampleNoiseTests {
    /// Reads the noisy files in directory order, sorts every line into the SPEC §2 buckets (blank,
    /// malformed, unknown type, duplicate, late, accepted) and checks each count against the manifest.
    @Test func noiseCountsMatchTheManifest() throws {
        let (files, manifest) = try SampleFixtures.generate(SampleFixtures.noisy)
        var blank = 0, malformed = 0, duplicates = 0, late = 0, accepted = 0, reordered = 0
        var unknown: [String: Int] = [:]
        var seenIDs: [String: Set<String>] = [:]
        var newest: [String: Int64] = [:]
        var crlfFiles = 0
        var styles: [String: Int] = [:]
        for file in SampleFixtures.inReadingOrder(files) {
            if file.contents.firstIndex(of: UInt8(ascii: "\r")) != nil { crlfFiles += 1 }
            for line in SampleFixtures.lines(of: file.contents) {
                switch SpecLineClassifier.classify(line) {
                case .blank: blank += 1
                case .malformed: malformed += 1
                case .unknownType(let type):
                    unknown[type, default: 0] += 1
                    styles[Self.style(of: line), default: 0] += 1
                case .event(let ts, let session, _, let fields):
                    styles[Self.style(of: line), default: 0] += 1
                    if let id = fields["id"] as? String, (fields["type"] as? String)?.hasPrefix("loading.") == false {
                        if seenIDs[session, default: []].contains(id) {
                            duplicates += 1
                            continue
                        }
                        seenIDs[session, default: []].insert(id)
                    }
                    if let top = newest[session], ts < top - 10_000 {
                        late += 1
                        continue
                    }
                    accepted += 1
                    if let top = newest[session], ts < top { reordered += 1 }
                    newest[session] = max(newest[session] ?? ts, ts)
                }
            }
        }
        let noise = manifest.noise
        #expect(blank == noise.blankLines && blank > 0)
        #expect(malformed == noise.malformedLines && malformed > 0)
        #expect(unknown == noise.unknownTypes && !unknown.isEmpty)
        #expect(duplicates == noise.duplicateEvents && duplicates > 0)
        #expect(late == noise.lateEvents && late > 0)
        #expect(reordered == noise.reorderedEvents && reordered > 0)
        #expect(accepted == manifest.events)
        #expect(crlfFiles == noise.crlfFiles && crlfFiles > 0)
        #expect(styles == noise.timestampStyles)
        #expect(Set(styles.keys).isSuperset(of: ["epoch-ms", "rfc3339-3", "rfc3339-6", "rfc3339-9", "rfc3339-offset"]))
    }

    @Test func framesEndMidLineAndVaryTheirFlags() throws {
        let (files, manifest) = try SampleFixtures.generate(SampleFixtures.noisy)
        var midLine = 0, skippable = 0, noChecksum = 0, noSize = 0
        for file in files {
            var covered = 0
            for chunk in file.chunks {
                switch chunk {
                case .skippable: skippable += 1
                case .frame(let range, let checksum, let contentSize):
                    #expect(range.lowerBound == covered)
                    covered = range.upperBound
                    if range.upperBound < file.contents.count, file.contents[range.upperBound - 1] != UInt8(ascii: "\n") { midLine += 1 }
                    if !checksum { noChecksum += 1 }
                    if !contentSize { noSize += 1 }
                }
            }
            #expect(covered == file.contents.count)
        }
        #expect(midLine == manifest.noise.framesEndingMidLine && midLine > 0)
        #expect(skippable == manifest.noise.skippableFrames && skippable > 0)
        #expect(noChecksum == manifest.noise.framesWithoutChecksum && noChecksum > 0)
        #expect(noSize == manifest.noise.framesWithoutContentSize && noSize > 0)
    }

    @Test(arguments: MalformedLineKind.allCases)
    func everyMalformedKindIsMalformed(kind: MalformedLineKind) {
        let line = String(decoding: kind.line(session: "s1", ms: 1_795_197_600_000), as: UTF8.self)
        guard case .malformed = SpecLineClassifier.classify(line) else {
            Issue.record("\(kind) is not malformed: \(line)")
            return
        }
        #expect(!line.contains("\n"))
    }

    static func style(of line: String) -> String {
        guard line.hasPrefix(#"{"ts":""#) else { return "epoch-ms" }
        let value = line.dropFirst(7).prefix { $0 != "\"" }
        if !value.hasSuffix("Z") { return "rfc3339-offset" }
        guard let dot = value.firstIndex(of: ".") else { return "rfc3339-0" }
        return "rfc3339-\(value[value.index(after: dot)...].count - 1)"
    }
}
