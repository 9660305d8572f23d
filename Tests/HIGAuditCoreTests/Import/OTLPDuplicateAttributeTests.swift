import Testing
@testable import HIGAuditCore

/// An OTLP attribute named twice (docs/importing.md): of the envelope's, the first with a value
/// counts; any other becomes a field of the event named twice, which is malformed as a line of ours
/// with a key twice is (the decoder refuses it). The same whichever way the line is read.
@Suite struct OTLPDuplicateAttributeTests {
    static func attribute(_ key: String, _ value: String) -> String {
        #"{"key":"\#(key)","value":{"stringValue":"\#(value)"}}"#
    }

    static func request(resource: [String], record: [String]) -> String {
        #"{"resourceLogs":[{"resource":{"attributes":[\#(resource.joined(separator: ","))]},"scopeLogs":[{"scope":{"name":"t"},"#
            + #""logRecords":[{"timeUnixNano":"1795183201000000000","attributes":[\#(record.joined(separator: ","))]}]}]}]}"#
    }

    static func outcomes(_ line: String) -> [[String]] {
        [true, false].map { layouts in
            ImportOutcomes.read(.otlp, [Array(line.utf8)], writes: true) { importer in
                if !layouts { importer.readsLayouts = false }
            }.outcomes
        }
    }

    @Test func theFirstOfAnEnvelopeAttributeNamedTwiceCounts() {
        let line = Self.request(
            resource: [Self.attribute("device.id", "d1"), Self.attribute("device.id", "d2"),
                       Self.attribute("service.version", "1.0"), Self.attribute("service.version", "2.0")],
            record: [Self.attribute("event.name", "hig.haptic"), Self.attribute("event.name", "hig.modal.present"),
                     Self.attribute("session.id", "S1"), Self.attribute("session.id", "S2"),
                     Self.attribute("screen.name", "a"), Self.attribute("screen.name", "b"),
                     Self.attribute("log.record.uid", "u1"), Self.attribute("log.record.uid", "u2"),
                     Self.attribute("kind", "impact.light")])
        for outcomes in Self.outcomes(line) {
            #expect(outcomes.last == #"written {"ts":1795183201000,"session":"S1","type":"haptic","device":"d1","app_version":"1.0","screen":"a","id":"u1","kind":"impact.light"}"#,
                    "\(outcomes)")
        }
    }

    @Test func anyOtherAttributeNamedTwiceMakesTheRecordMalformed() {
        let line = Self.request(
            resource: [Self.attribute("device.id", "d1")],
            record: [Self.attribute("event.name", "hig.haptic"), Self.attribute("session.id", "S1"),
                     Self.attribute("kind", "impact.light"), Self.attribute("kind", "impact.heavy")])
        for outcomes in Self.outcomes(line) {
            #expect(outcomes.count == 1 && outcomes[0].hasPrefix("1#1 refused malformed") && outcomes[0].contains(#"duplicate key "kind""#),
                    "\(outcomes)")
        }
    }
}
