import Foundation
import Testing
@testable import HIGAuditCore

/// A line read by its layout's plan (`ConventionPlan`) gives exactly what the general way gives (the
/// tape, the envelope, the fields looked up): the same events, unknown types and reasons, at the same
/// columns, in the same order, with the same synthetic starts and `<id>#<n>` sessions. Exports are
/// made of a few layouts whose values vary line by line, among them the values that must send a line
/// the general way (launches, names that are no type of ours, escapes, times that are not times,
/// empty sessions, sessions with no launch yet, Datadog actions that are not `custom`).
@Suite struct ConventionPlanTests {
    /// Every record's outcome, with a malformed reason's column, and how many lines were planned.
    static func outcomes(
        _ format: ImportFormat, _ lines: [String], readsPlans: Bool, writes: Bool = false
    ) -> (outcomes: [String], planned: Int) {
        let (outcomes, importer) = ImportOutcomes.read(format, lines.map { Array($0.utf8) }, writes: writes) {
            $0.readsPlans = readsPlans
        }
        return (outcomes, importer.linesPlanned)
    }

    /// `plannedShare`: the part of the lines at least that must have been read by plans, so that the
    /// comparison is not of the general way with itself.
    static func expectPlansReadAlike(_ format: ImportFormat, _ lines: [String], _ what: String, plannedShare: Int = 5) {
        let general = outcomes(format, lines, readsPlans: false)
        let planned = outcomes(format, lines, readsPlans: true)
        #expect(general.planned == 0)
        #expect(planned.planned >= lines.count / plannedShare, "\(what): only \(planned.planned) of \(lines.count) lines planned")
        #expect(planned.outcomes.count == general.outcomes.count, "\(what)")
        for (one, other) in zip(planned.outcomes, general.outcomes) where one != other {
            Issue.record("\(what):\nplanned: \(one)\ngeneral: \(other)")
            break
        }
        // `import` writes the same lines from a plan as from the tape, reading as many by plans.
        let writtenGeneral = outcomes(format, lines, readsPlans: false, writes: true)
        let writtenPlanned = outcomes(format, lines, readsPlans: true, writes: true)
        #expect(writtenPlanned.planned >= lines.count / plannedShare, "\(what): only \(writtenPlanned.planned) lines planned for import")
        #expect(writtenPlanned.outcomes.count == writtenGeneral.outcomes.count, "\(what), written")
        for (one, other) in zip(writtenPlanned.outcomes, writtenGeneral.outcomes) where one != other {
            Issue.record("\(what), written:\nplanned: \(one)\ngeneral: \(other)")
            break
        }
        // And both as the line `import` writes decodes (`ImportedFieldsDifferentialTests`' oracle).
        ImportedFieldsDifferentialTests.expectSame(format, lines, what)
    }

    /// Picks among `choices`, the first far more often than the others: most lines are the common case.
    static func mostly(_ choices: [String], _ generator: inout SplitMix64) -> String {
        Int.random(in: 0..<10, using: &generator) < 7 ? choices[0] : choices.randomElement(using: &generator)!
    }

    static let texts = ["impact.light", "a\\\"b", "caf\\u00e9", "", "Library", "a very long text, longer than any text kept inline by the decoder"]
    static let numbers = ["12", "-3", "0.5", "1e999", "-0.0", "600", "9007199254740993", "1.25e2"]

    static func text(_ generator: inout SplitMix64) -> String { texts.randomElement(using: &generator)! }
    static func number(_ generator: inout SplitMix64) -> String { numbers.randomElement(using: &generator)! }

    static func session(_ generator: inout SplitMix64) -> String {
        mostly(["s-\(Int.random(in: 1...6, using: &generator))", "", "s-\\u0031", "new-\(Int.random(in: 1...1000, using: &generator))"], &generator)
    }

    static func postHogLine(_ generator: inout SplitMix64) -> String {
        let name = mostly([
            ["hig.haptic", "hig.touch", "hig.outcome", "hig.loading.start", "hig.loading.end"].randomElement(using: &generator)!,
            "hig.session.start", "hig.nope", "$screen", "hig.h\\u0061ptic", "hig.", "Application Opened",
        ], &generator)
        let minute = Int.random(in: 0...59, using: &generator)
        let time = mostly([
            String(format: "2026-11-20T12:%02d:%02d.%03dZ", minute, Int.random(in: 0...59, using: &generator), Int.random(in: 0...999, using: &generator)),
            "2026-11-20T25:00:00Z", "\\u0032026-11-20T12:00:00Z", "2026-11-20T12:00:00+01:00", "yesterday",
        ], &generator)
        let envelope = #""$session_id":"\#(session(&generator))","$device_id":"dev-\#(Int.random(in: 1...3, using: &generator))","$app_version":"1.\#(Int.random(in: 0...2, using: &generator))","$screen_name":"\#(text(&generator))""#
        let own: String
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: own = #","kind":"\#(text(&generator))","duration_ms":\#(number(&generator))"#
        case 1: own = #","phase":"\#(mostly(["ended", "began", "moved"], &generator))","target":"\#(text(&generator))","x":\#(number(&generator)),"y":\#(number(&generator))"#
        case 2: own = #","id":"\#(text(&generator))","indicator":"spinner","ok":true,"none":null"#
        case 3: own = #","kind":"\#(text(&generator))","kind":"\#(text(&generator))","k\u0069nd":"buzz""#
        default: own = #","result":"\#(mostly(["success", "failure"], &generator))","task":"\#(text(&generator))","touches":"all","nested":{"a":[1,2]}"#
        }
        return #"{"event":"\#(name)","timestamp":"\#(time)","uuid":"u-\#(Int.random(in: 1...50, using: &generator))","properties":{\#(envelope)\#(own)}}"#
    }

    static func datadogLine(_ generator: inout SplitMix64) -> String {
        let type = mostly(["action", "view", "actio", "vital"], &generator)
        let actionType = mostly(["custom", "tap", "back", "application_start", "cust\\u006fm"], &generator)
        let name = mostly([
            ["hig.haptic", "hig.outcome", "hig.loading.start", "hig.content.mutation"].randomElement(using: &generator)!,
            "hig.session.start", "hig.nope", "UIButton", "hig.h\\u0061ptic",
        ], &generator)
        let date = mostly([
            "17951688\(Int.random(in: 10000...99999, using: &generator))", "9999999999999999", "-9223372036854775807",
            "1.5e12", "99999999999999999999", "0",
        ], &generator)
        let context: String
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: context = #""result":"\#(mostly(["success", "failure"], &generator))","task":"\#(text(&generator))""#
        case 1: context = #""kind":"\#(text(&generator))","duration_ms":\#(number(&generator)),"ts":1"#
        case 2: context = #""action":"delete","undoable":false,"id":"\#(text(&generator))""#
        default: context = #""result":"success","result":"\#(text(&generator))""#
        }
        return #"{"type":"\#(type)","date":\#(date),"session":{"id":"\#(session(&generator))"},"view":{"name":"\#(text(&generator))"},"usr":{"anonymous_id":"a-\#(Int.random(in: 1...3, using: &generator))"},"version":"2","action":{"id":"act-\#(Int.random(in: 1...40, using: &generator))","type":"\#(actionType)","target":{"name":"\#(name)"}},"context":{\#(context)}}"#
    }

    /// An OTLP attribute.
    static func attribute(_ key: String, _ value: String) -> String {
        #"{"key":"\#(key)","value":{\#(value)}}"#
    }

    /// How an exporter lays out its records' members (`otlpRecord`'s `layout`): the name, the time and
    /// the attributes; with an SDK's other members after the time; the attributes first; the
    /// attributes between the time and other members.
    static let otlpRecordLayouts = 4

    static func otlpRecord(_ generator: inout SplitMix64, layout: Int = 0) -> String {
        let name = mostly([
            ["hig.haptic", "hig.touch", "hig.outcome", "hig.loading.start", "hig.loading.end"].randomElement(using: &generator)!,
            "hig.session.start", "hig.nope", "emb-screen-view", "hig.h\\u0061ptic", "hig.",
        ], &generator)
        // The name as `eventName`, as the attribute `event.name`, or both (alike, or not).
        let naming = Int.random(in: 0..<7, using: &generator) == 0
            ? ["differing", "null"].randomElement(using: &generator)! : ["attribute", "member", "both"].randomElement(using: &generator)!
        let millis = "17951688\(Int.random(in: 10000...99999, using: &generator))"
        let time = mostly([
            #""timeUnixNano":"\#(millis)000000""#, #""timeUnixNano":\#(millis)000000"#, #""timeUnixNano":"0","observedTimeUnixNano":"\#(millis)000001""#,
            #""observedTimeUnixNano":"\#(millis)000002""#, #""timeUnixNano":"-5""#, #""timeUnixNano":"17951688x0000000000""#,
            #""timeUnixNano":"99999999999999999999""#, #""timeUnixNano":"\\u0031795168800000000000""#, #""timeUnixNano":1.5e18"#,
            #""timeUnixNano":0,"observedTimeUnixNano":\#(millis)000003"#, #""timeUnixNano":-5"#,
        ], &generator)
        var attributes: [String] = []
        if naming != "member" { attributes.append(attribute("event.name", #""stringValue":"\#(naming == "differing" ? "hig.outcome" : name)""#)) }
        attributes.append(attribute("session.id", #""stringValue":"\#(session(&generator))""#))
        attributes.append(attribute("screen.name", #""stringValue":"\#(text(&generator))""#))
        attributes.append(attribute("log.record.uid", #""stringValue":"u-\#(Int.random(in: 1...50, using: &generator))""#))
        let integer = mostly([
            #""intValue":"\#(Int.random(in: 0...900, using: &generator))""#, #""intValue":"-3""#, #""intValue":7"#, #""intValue":"abc""#,
            #""intValue":"9223372036854775808""#, #""intValue":"\\u0031""#, #""intValue":"9007199254740993""#, #""intValue":"-\\u0031""#,
            #""intValue":-3"#, #""intValue":1.5"#, #""intValue":9007199254740993"#,
        ], &generator)
        let double = mostly([#""doubleValue":\#(number(&generator))"#, #""doubleValue":"NaN""#, #""doubleValue":1e999"#], &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
            attributes.append(attribute("kind", #""stringValue":"\#(text(&generator))""#))
            attributes.append(attribute("duration_ms", integer))
        case 1:
            attributes.append(attribute("phase", #""stringValue":"\#(mostly(["ended", "began", "moved"], &generator))""#))
            attributes.append(attribute("target", #""stringValue":"\#(text(&generator))""#))
            attributes.append(attribute("x", double))
            attributes.append(attribute("y", #""doubleValue":\#(number(&generator))"#))
        case 2:
            attributes.append(attribute("id", integer))
            attributes.append(attribute("indicator", #""stringValue":"spinner""#))
            attributes.append(attribute("ok", #""boolValue":true"#))
            attributes.append(attribute("reading", double))
        case 3:
            attributes.append(attribute("kind", #""stringValue":"\#(text(&generator))""#))
            attributes.append(attribute("kind", #""stringValue":"\#(text(&generator))""#))
            attributes.append(attribute("k\\u0069nd", #""stringValue":"buzz""#))
        default:
            attributes.append(attribute("result", #""stringValue":"\#(mostly(["success", "failure"], &generator))""#))
            attributes.append(attribute("task", #""stringValue":"\#(text(&generator))""#))
            attributes.append(attribute("touches", #""stringValue":"all""#))
            attributes.append(attribute("list", #""arrayValue":{"values":[{"intValue":"1"}]}"#))
        }
        let member = naming == "attribute" ? nil : naming == "null" ? #""eventName":null"# : #""eventName":"\#(name)""#
        let attributesMember = #""attributes":[\#(attributes.joined(separator: ","))]"#
        let members: [String?] = switch layout % otlpRecordLayouts {
        case 1: [member, time, #""severityNumber":9,"severityText":"INFO""#, attributesMember]
        case 2: [attributesMember, time, member]
        case 3: [time, attributesMember, #""body":{"stringValue":"tap"},"traceId":"","spanId":"","flags":0"#, member]
        default: [member, time, attributesMember]
        }
        return "{" + members.compactMap { $0 }.joined(separator: ",") + "}"
    }

    static func otlpLine(_ generator: inout SplitMix64) -> String {
        let resource = [
            attribute("device.id", #""stringValue":"dev-\#(Int.random(in: 1...3, using: &generator))""#),
            attribute("service.version", #""stringValue":"1.\#(Int.random(in: 0...2, using: &generator))""#),
            attribute("os.version", mostly([#""stringValue":"26.1""#, #""intValue":"26""#], &generator)),
        ].joined(separator: ",")
        // Mostly a request of one record (planned), sometimes of two (never planned).
        let count = Int.random(in: 0..<10, using: &generator) < 8 ? 1 : 2
        // Mostly the common layout of a record's members; all the records of a line are laid out alike.
        let layout = Int.random(in: 0..<10, using: &generator) < 8 ? 0 : Int.random(in: 1..<otlpRecordLayouts, using: &generator)
        let recordsText = (0..<count).map { _ in otlpRecord(&generator, layout: layout) }.joined(separator: ",")
        return #"{"resourceLogs":[{"resource":{"attributes":[\#(resource)]},"scopeLogs":[{"scope":{"name":"sdk"},"logRecords":[\#(recordsText)]}]}]}"#
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func otlpLinesReadByPlansAsTheGeneralWayReadsThem(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<1500).map { _ in Self.otlpLine(&generator) }
        // Its lines vary in more ways (how the name and time are written, kinds of values, records and
        // how their members are laid out), so fewer of them are of a layout seen before.
        Self.expectPlansReadAlike(.otlp, lines, "otlp seed \(seed)", plannedShare: 25)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func postHogLinesReadByPlansAsTheGeneralWayReadsThem(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<600).map { _ in Self.postHogLine(&generator) }
        Self.expectPlansReadAlike(.posthog, lines, "posthog seed \(seed)")
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func datadogLinesReadByPlansAsTheGeneralWayReadsThem(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<600).map { _ in Self.datadogLine(&generator) }
        Self.expectPlansReadAlike(.datadogRUM, lines, "datadog seed \(seed)")
    }

    /// `import`'s lines are handed on in runs (`EventImporter.onAcceptedLines`): whole lines, counted
    /// right, each run but the last at least `acceptedRunBytes`, and together the lines handed on one
    /// by one, synthetic starts and all, in their order.
    @Test func acceptedLinesHandedOnInRunsAreTheLinesHandedOnOneByOne() {
        var generator = SplitMix64(seed: 7)
        let lines = (0..<10_000).map { _ in Array(Self.datadogLine(&generator).utf8) }
        func written(_ outcomes: [String]) -> [String] { outcomes.filter { $0.hasPrefix("written ") } }
        let oneByOne = ImportOutcomes.read(.datadogRUM, lines, writes: true) { _ in }
        var runBytes: [Int] = []
        let inRuns = ImportOutcomes.read(.datadogRUM, lines, writes: true, handsOnEachLine: false, runs: { runBytes.append($0) }) { _ in }
        #expect(runBytes.count >= 2, "\(runBytes.count) runs: too few lines to fill runs")
        #expect(runBytes.dropLast().allSatisfy { $0 >= EventImporter.acceptedRunBytes })
        #expect(written(oneByOne.outcomes).contains { $0.contains(#""synthetic":true"#) })
        #expect(written(inRuns.outcomes) == written(oneByOne.outcomes))
    }

    /// An OTLP record naming its event twice, by `eventName` and the attribute `event.name`, is planned
    /// with both; a later line of its layout whose two names differ is refused as the general way
    /// refuses it, and one whose `doubleValue` is out of range likewise.
    @Test func otlpLinesOfAPlannedLayoutThatNameTwoEventsOrOverflowAreRefused() {
        func line(_ name: String, _ attributeName: String, _ uid: Int, x: String = "1.5") -> String {
            let attributes = [
                Self.attribute("event.name", #""stringValue":"\#(attributeName)""#), Self.attribute("session.id", #""stringValue":"s-1""#),
                Self.attribute("log.record.uid", #""stringValue":"u-\#(uid)""#), Self.attribute("kind", #""stringValue":"impact.light""#),
                Self.attribute("x", #""doubleValue":\#(x)"#),
            ]
            return #"{"resourceLogs":[{"resource":{"attributes":[]},"scopeLogs":[{"logRecords":[{"eventName":"\#(name)","timeUnixNano":"17951688000\#(uid)000000","attributes":[\#(attributes.joined(separator: ","))]}]}]}]}"#
        }
        let lines = [
            line("hig.session.start", "hig.session.start", 10), line("hig.haptic", "hig.haptic", 11), line("hig.haptic", "hig.haptic", 12),
            line("hig.haptic", "hig.haptic", 13), line("hig.haptic", "hig.halted", 14), line("hig.haptic", "hig.haptic", 15, x: "1e999"),
            line("hig.haptic", "hig.haptic", 16),
        ]
        let planned = Self.outcomes(.otlp, lines, readsPlans: true)
        let general = Self.outcomes(.otlp, lines, readsPlans: false)
        // The layout is learned from the second line (the first is its first sighting) and planned:
        // the third, fourth and last lines are read by the plan, the two refused tried by it.
        #expect(planned.planned == 3)
        #expect(planned.outcomes == general.outcomes)
        #expect(general.outcomes[4].contains("malformed"), "\(general.outcomes[4])")
        #expect(general.outcomes[5].contains("malformed"), "\(general.outcomes[5])")
    }

    /// A session's second launch names its later events `<id>#2`, also on planned lines.
    @Test func plannedLinesOfALaterLaunchAreNamedByIt() {
        func line(_ name: String, _ uuid: String, second: Int) -> String {
            #"{"event":"\#(name)","timestamp":"2026-11-20T12:00:\#(second < 10 ? "0" : "")\#(second).000Z","uuid":"\#(uuid)","properties":{"$session_id":"s-1","kind":"impact.light"}}"#
        }
        let lines = [
            line("hig.session.start", "a", second: 0), line("hig.haptic", "b", second: 1), line("hig.haptic", "c", second: 2),
            line("hig.session.start", "d", second: 3), line("hig.haptic", "e", second: 4), line("hig.haptic", "f", second: 5),
        ]
        let planned = Self.outcomes(.posthog, lines, readsPlans: true)
        // The layout's first line is only seen and its second teaches it: the planned are after those.
        #expect(planned.planned == 3)
        #expect(planned.outcomes.last?.contains("s-1#2") == true, "\(planned.outcomes)")
        #expect(planned.outcomes == Self.outcomes(.posthog, lines, readsPlans: false).outcomes)
        // And `import` writes them so, from their plan.
        let written = Self.outcomes(.posthog, lines, readsPlans: true, writes: true)
        #expect(written.planned == 3)
        #expect(written.outcomes.last == #"written {"ts":1795176005000,"session":"s-1#2","type":"haptic","id":"f","kind":"impact.light"}"#, "\(written.outcomes)")
        #expect(written.outcomes == Self.outcomes(.posthog, lines, readsPlans: false, writes: true).outcomes)
    }
}
