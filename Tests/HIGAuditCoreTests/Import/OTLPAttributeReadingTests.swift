import Foundation
import Testing
@testable import HIGAuditCore

/// OTLP records read by name whatever the order of their attributes (SPEC §7): an exporter of
/// OpenTelemetry Swift writes a record's attributes in a Swift dictionary's order, which differs from
/// one record to the next. Of each name the first attribute that has a value counts, names are
/// compared unescaped, and a typed value is read as `stringValue`, `intValue`, `doubleValue`,
/// `boolValue`, in that order.
@Suite struct OTLPAttributeReadingTests {
    static let attribute = ConventionPlanTests.attribute

    static func line(_ attributes: [String], name: String = "hig.touch") -> [UInt8] {
        let resource = [attribute("service.version", #""stringValue":"5.2.1""#), attribute("device.id", #""stringValue":"ipad-7""#)]
        let record = #"{"timeUnixNano":"1795168810000000000","eventName":"\#(name)","attributes":[\#(attributes.joined(separator: ","))]}"#
        return Array(#"{"resourceLogs":[{"resource":{"attributes":[\#(resource.joined(separator: ","))]},"scopeLogs":[{"logRecords":[\#(record)]}]}]}"#.utf8)
    }

    /// The written line's members, as a JSON object compares them (order aside).
    static func members(_ written: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSDictionary)
    }

    static let touchAttributes = [
        attribute("session.id", #""stringValue":"s-1""#), attribute("screen.name", #""stringValue":"canvas.editor""#),
        attribute("log.record.uid", #""stringValue":"e-1""#), attribute("phase", #""stringValue":"ended""#),
        attribute("target", #""stringValue":"tab:Library""#), attribute("x", #""intValue":"600""#),
        attribute("y", #""doubleValue":400.5"#), attribute("pressure", #""boolValue":true"#),
    ]

    /// Forty orders of one record's eight attributes, each read the general way (no two alike) and by
    /// layouts: one event, whose written line holds the same members.
    @Test func attributesInAnyOrderBecomeOneEvent() throws {
        var generator = SplitMix64(seed: 7)
        let orders = (0..<40).map { _ in Self.touchAttributes.shuffled(using: &generator) }
        #expect(Set(orders).count == 40)
        let lines = orders.map { Self.line($0) }
        let (outcomes, _) = ImportOutcomes.read(.otlp, lines, writes: true) { _ in }
        #expect(outcomes.filter { $0.contains(" event ") }.count == 40, "\(outcomes.prefix(4))")
        // Each line's touch (the first line's after its session's synthetic start).
        let written = try outcomes.filter { $0.hasPrefix("written ") && $0.contains(#""type":"touch""#) }
            .map { try Self.members(String($0.dropFirst(8))) }
        #expect(written.count == 40 && Set(written).count == 1, "\(Set(written))")
        let first = try #require(written.first)
        #expect(first["session"] as? String == "s-1" && first["screen"] as? String == "canvas.editor")
        #expect(first["x"] as? Int == 600 && first["y"] as? Double == 400.5 && first["pressure"] as? Bool == true)
        #expect(first["device"] as? String == "ipad-7" && first["app_version"] as? String == "5.2.1")
        _ = ExportLineLayoutsTests.expectSame(.otlp, lines + lines, "forty orders of eight attributes")
    }

    @Test func theFirstAttributeOfANameWithAValueCountsAndNamesCompareUnescaped() throws {
        let attributes = [
            #"{"key":"session.id"}"#,
            Self.attribute("session.id", #""stringValue":"s-2""#),
            Self.attribute("session.id", #""stringValue":"s-3""#),
            Self.attribute(#"screen\u002ename"#, #""stringValue":"canvas.editor""#),
            Self.attribute("phase", #""intValue":"5","stringValue":"ended""#),
            Self.attribute("grip", #""doubleValue":1.5,"boolValue":true"#),
            #"{"key":"shape","value":"not an object"}"#,
            #"{"value":{"stringValue":"no key"}}"#,
            #"{"key":"kind","key":"second key","value":{"stringValue":"round"}}"#,
        ]
        let (outcomes, _) = ImportOutcomes.read(.otlp, [Self.line(attributes)], writes: true) { _ in }
        let written = try #require(outcomes.first { $0.hasPrefix("written ") && $0.contains(#""type":"touch""#) }, "\(outcomes)")
        let members = try Self.members(String(written.dropFirst(8)))
        #expect(members["session"] as? String == "s-2")
        #expect(members["screen"] as? String == "canvas.editor")
        #expect(members["phase"] as? String == "ended")
        #expect(members["grip"] as? Double == 1.5)
        #expect(members["shape"] == nil && members["second key"] == nil)
        #expect(members["kind"] as? String == "round")
    }

    /// OTLP/JSON spells a double that is not finite as a string: the record is malformed, wherever the
    /// attribute stands among the others.
    @Test func aDoubleThatIsNotFiniteMakesTheRecordMalformedWhereverItStands() {
        for position in 0...Self.touchAttributes.count {
            var attributes = Self.touchAttributes
            attributes.insert(Self.attribute("force", #""doubleValue":"NaN""#), at: position)
            let (outcomes, _) = ImportOutcomes.read(.otlp, [Self.line(attributes)], writes: false) { _ in }
            #expect(outcomes.count == 1 && outcomes[0].contains("the attribute force is not a finite number"), "\(outcomes)")
        }
    }
}
