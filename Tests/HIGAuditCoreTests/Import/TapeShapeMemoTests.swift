import Foundation
import Testing
@testable import HIGAuditCore

/// OTLP records found by their shape (`TapeShapeMemo`) become what they become when searched afresh:
/// in lines batching many records of several resources (where whole-line layouts miss), at other
/// places in the tape, and when one byte of a key, an attribute name or a value differs from a record
/// seen before.
@Suite struct TapeShapeMemoTests {
    /// Every request of the OTLP fixtures and malformed catalogue as one line, and again in reverse
    /// order (the same records further in the tape or nearer its start).
    static func batchedLines() throws -> [[UInt8]] {
        let prefix = #"{"resourceLogs":["#
        let requests = try ExportLineLayoutsTests.fixtureLines(.otlp)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix("]}") }
            .map { String($0.dropFirst(prefix.count).dropLast(2)) }
        #expect(requests.count >= 4)
        let forward = prefix + requests.joined(separator: ",") + "]}"
        let backward = prefix + requests.reversed().joined(separator: ",") + "]}"
        return [Array(forward.utf8), Array(backward.utf8)]
    }

    static func outcomes(_ lines: [[UInt8]], shapes: Bool, layouts: Bool) -> (outcomes: [String], importer: EventImporter) {
        ImportOutcomes.read(.otlp, lines, writes: false) {
            $0.readsValueShapes = shapes
            $0.readsLayouts = layouts
        }
    }

    @Test(arguments: [false, true])
    func batchedRecordsBecomeWhatTheyBecomeSearchedAfresh(layouts: Bool) throws {
        let batched = try Self.batchedLines()
        // Each batched line, then one-byte variants of the first, each followed by it again.
        var lines = batched + batched
        for (index, variant) in ExportLineLayoutsTests.variants(batched[0], sparse: true).enumerated() where index % 5 == 0 {
            lines += [variant, batched[index % 2]]
        }
        let afresh = Self.outcomes(lines, shapes: false, layouts: layouts)
        let byShape = Self.outcomes(lines, shapes: true, layouts: layouts)
        #expect(afresh.outcomes.count == byShape.outcomes.count)
        for (one, other) in zip(afresh.outcomes, byShape.outcomes) where one != other {
            Issue.record("afresh: \(one)\nby shape: \(other)")
            break
        }
        #expect(afresh.outcomes.contains { $0.contains(" event ") } && afresh.outcomes.contains { $0.contains(" malformed ") })
        if !layouts {
            // Records of shapes seen before were found by them.
            #expect(byShape.importer.recordShapes.hits > byShape.importer.recordShapes.kept)
        }
    }

    @Test func shapesTellKeysAttributeNamesAndNestingApart() {
        func shape(_ json: String) -> [UInt8] {
            var tape = JSONTape()
            defer { tape.deallocate() }
            var buffer = ShapeBuffer()
            defer { buffer.deallocate() }
            Array(json.utf8).withUnsafeBytes { bytes in
                try? tape.read(bytes)
                tape.appendShape(of: 0, to: &buffer)
            }
            return Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.count))
        }
        let record = #"{"a":[{"key":"session.id","value":{"stringValue":"s1"}}],"t":"1"}"#
        // Values other than attribute names do not change the shape.
        #expect(shape(record) == shape(#"{"a":[{"key":"session.id","value":{"stringValue":"other"}}],"t":"22"}"#))
        // Names, keys, kinds and nesting do, escaped or not.
        for other in [
            #"{"a":[{"key":"session.ie","value":{"stringValue":"s1"}}],"t":"1"}"#,
            #"{"a":[{"k\u0065y":"session.ie","value":{"stringValue":"s1"}}],"t":"1"}"#,
            #"{"a":[{"key":"session.id","value":{"stringValue":"s1"}}],"u":"1"}"#,
            #"{"a":[{"key":"session.id","value":{"intValue":"s1"}}],"t":"1"}"#,
            #"{"a":[{"key":"session.id","value":{"stringValue":1}}],"t":"1"}"#,
            #"{"a":[{"key":"session.id","value":{"stringValue":"s1"}},{}],"t":"1"}"#,
            #"{"a":[{"key":"session.id","value":{"stringValue":"s1"}}],"t":["1"]}"#,
            #"{"a":[{"key":"session.id","value":{"stringValue":"s1"}},"t",1]}"#,
        ] {
            #expect(shape(record) != shape(other), "\(other)")
        }
        // An escaped `key` names an attribute as `member` reads it: its name is in the shape.
        #expect(shape(#"{"k\u0065y":"a"}"#) != shape(#"{"k\u0065y":"b"}"#))
    }
}
