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
    static func outcomes(_ format: ImportFormat, _ lines: [String], readsPlans: Bool) -> (outcomes: [String], planned: Int) {
        let (outcomes, importer) = ImportOutcomes.read(format, lines.map { Array($0.utf8) }, writes: false) {
            $0.readsPlans = readsPlans
        }
        return (outcomes, importer.linesPlanned)
    }

    static func expectPlansReadAlike(_ format: ImportFormat, _ lines: [String], _ what: String) {
        let general = outcomes(format, lines, readsPlans: false)
        let planned = outcomes(format, lines, readsPlans: true)
        #expect(general.planned == 0)
        #expect(planned.planned >= lines.count / 5, "\(what): only \(planned.planned) of \(lines.count) lines planned")
        #expect(planned.outcomes.count == general.outcomes.count, "\(what)")
        for (one, other) in zip(planned.outcomes, general.outcomes) where one != other {
            Issue.record("\(what):\nplanned: \(one)\ngeneral: \(other)")
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
        #expect(planned.planned == 4)
        #expect(planned.outcomes.last?.contains("s-1#2") == true, "\(planned.outcomes)")
        #expect(planned.outcomes == Self.outcomes(.posthog, lines, readsPlans: false).outcomes)
    }
}
