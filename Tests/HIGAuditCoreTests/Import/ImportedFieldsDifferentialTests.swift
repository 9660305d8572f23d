import Foundation
import Testing
@testable import HIGAuditCore

/// `--from` hands each imported event's fields to the decoder's mapping (`EventDecoder.mapFields`);
/// `import` writes the line of ours the event is. The two must never drift: on every fixture line of
/// every format, the malformed catalogues and the edge cases below, the direct way gives exactly the
/// events (synthetic starts included), unknown types and reasons that decoding the written line gives.
/// A reason's column may differ (the written line is not the export line): the direct way's, when it
/// has one, is a byte of the export line.
@Suite struct ImportedFieldsDifferentialTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HIGAuditCLITests/Fixtures/import")
    static let settings = ImportSettings(tabRoots: [ScreenGlob("Library"), ScreenGlob("Search"), ScreenGlob("Settings*")])

    /// What one record became, in the order the run sees it.
    enum Outcome: Equatable, CustomStringConvertible {
        case event(Event)
        case unknownType(String)
        case malformed(String)

        var description: String {
            switch self {
            case .event(let event): "event \(event)"
            case .unknownType(let name): "unknown \(name)"
            case .malformed(let reason): "malformed \(reason)"
            }
        }
    }

    /// Reads `lines` as `AnalysisLineSink` does, the direct way or through the written line; with
    /// `reference`, on a decoder that takes the reference path only (whatever the build's default).
    /// The written line is written from the tape, so that way reads no line by a plan
    /// (`ConventionPlan`); the direct way does, unless `importer` (for its counters) says otherwise.
    static func outcomes(
        _ format: ImportFormat, _ lines: [String], direct: Bool, reference: Bool = false, importer: EventImporter? = nil
    ) -> [(place: String, Outcome)] {
        let importer = importer ?? EventImporter(format: format, settings: settings)
        if !direct { importer.readsPlans = false }
        var decoder = reference ? EventDecoder(learnsLineShapes: false) : EventDecoder()
        var outcomes: [(String, Outcome)] = []
        for (index, text) in lines.enumerated() where !text.allSatisfy(\.isWhitespace) {
            var line = text
            line.withUTF8 { utf8 in
                let bytes = UnsafeRawBufferPointer(utf8)
                importer.translate(bytes) { record, imported in
                    let place = "\(index + 1)#\(record)"
                    let source = SourceLocation(file: 0, line: Int64(index + 1), record: record)
                    switch imported {
                    case .unknownType(let name):
                        outcomes.append((place, .unknownType(name)))
                        return false
                    case .malformed(let problem):
                        outcomes.append((place, .malformed(problem.description)))
                        return false
                    case .event(let fields):
                        var event: Event?
                        let verdict = direct
                            ? fields.decode(with: &decoder, source: source) { event = $0 }
                            : fields.decodeWrittenLine(with: &decoder, source: source) { event = $0 }
                        switch verdict {
                        case .event: break
                        case .unknownType(let name): outcomes.append((place, .unknownType(name)))
                        case .malformed(let problem):
                            if direct, let column = problem.column {
                                #expect(column < bytes.count, "\(format) \(place): column \(column) past the line")
                            }
                            outcomes.append((place, .malformed(problem.reason)))
                        case .blank: outcomes.append((place, .malformed("blank")))
                        }
                        guard let event else { return false }
                        if fields.hasSyntheticStart {
                            var start: Event?
                            let verdict = direct
                                ? fields.decodeSyntheticStart(with: &decoder, source: source) { start = $0 }
                                : fields.decodeWrittenSyntheticStart(with: &decoder, source: source) { start = $0 }
                            outcomes.append((place, start.map { .event($0) } ?? .malformed("synthetic start: \(verdict)")))
                        }
                        outcomes.append((place, .event(event)))
                        return true
                    }
                }
            }
        }
        return outcomes
    }

    /// Expects the two ways equal; returns how many events and malformed records the lines gave, so
    /// that a test can check its lines reach both.
    @discardableResult
    static func expectSame(_ format: ImportFormat, _ lines: [String], _ what: String) -> (events: Int, malformed: Int) {
        let direct = outcomes(format, lines, direct: true)
        let written = outcomes(format, lines, direct: false)
        #expect(direct.count == written.count, "\(what): \(direct.count) records against \(written.count)")
        for (one, other) in zip(direct, written) {
            #expect(one.place == other.place && one.1 == other.1, "\(what) \(one.place): \(one.1)\nwritten: \(other.1)")
        }
        let events = direct.filter { if case .event = $0.1 { true } else { false } }.count
        let malformed = direct.filter { if case .malformed = $0.1 { true } else { false } }.count
        return (events, malformed)
    }

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test(arguments: ImportFormat.allCases)
    func fixturesAndMalformedCataloguesDecodeAlike(format: ImportFormat) throws {
        for name in ["\(format.rawValue).jsonl", "\(format.rawValue)-malformed.jsonl"] {
            let lines = try Self.lines(name)
            let outcomes = Self.outcomes(format, lines, direct: true)
            #expect(outcomes.contains { if case .event = $0.1 { true } else { false } } || name.contains("malformed"))
            Self.expectSame(format, lines, name)
        }
    }

    /// A decoder on the reference path keeps no memory of earlier values, and the direct path must not
    /// reach for it (it once read the accelerated path's recent strings there, out of bounds).
    @Test(arguments: ImportFormat.allCases)
    func theReferencePathMapsImportedFieldsAlike(format: ImportFormat) throws {
        for name in ["\(format.rawValue).jsonl", "\(format.rawValue)-malformed.jsonl"] {
            let lines = try Self.lines(name)
            let reference = Self.outcomes(format, lines, direct: true, reference: true)
            let accelerated = Self.outcomes(format, lines, direct: true)
            #expect(reference.count == accelerated.count, "\(name)")
            for (one, other) in zip(reference, accelerated) {
                #expect(one.place == other.place && one.1 == other.1, "\(name) \(one.place): \(one.1)\nwritten: \(other.1)")
            }
        }
    }

    /// Values the importer makes or converts, keys given twice or escaped, texts holding U+0000,
    /// numbers at the edges: where writing a line and reading it back could differ from the fields.
    @Test func postHogEdgesDecodeAlike() {
        func event(_ name: String, _ uuid: String, _ properties: String, ts: String = "2026-11-20T12:00:00.000Z") -> String {
            #"{"uuid":"\#(uuid)","event":"\#(name)","timestamp":"\#(ts)","properties":{"$session_id":"s\u00e9ss-1","$device_id":"dev","$app_version":"1.0","$os_version":"18.1"\#(properties)}}"#
        }
        let edges = Self.expectSame(.posthog, [
            event("hig.haptic", "p-01", #","kind":"impact","duration_ms":-0.0"#),
            event("Application Opened", "p-02", ""),
            event("hig.haptic", "p-03", #","kind":"impact","kind":"buzz""#),
            event("hig.haptic", "p-04", #","\u0074s":5,"kind":"impact""#),
            event("hig.haptic", "p-05", #","k\u0069nd":"impact","duration_ms":1e999"#),
            event("hig.haptic", "p-06", #","kind":"impact","duration_ms":-3"#),
            event("$screen", "p-07", #","$screen_name":"Ho\u0000me""#),
            event("$screen", "p-08", #","$screen_name":"Lib\"rary\\ \u00e9 \n""#),
            event("$screen", "p-09", #","$screen_name":"Library""#),
            event("$screen", "p-10", #","$screen_name":"Search""#),
            event("$screen", "p-11", #","$screen_name":"Search""#),
            event("$screen", "p-12", #","$screen_name":"Settings \u2014 Account""#),
            event("$autocapture", "p-13", #","$event_type":"touch","$touch_x":-0.0,"$touch_y":12.345678901234567,"$elements":[{"tag_name":"UITabBarButton","text":"Library"}]"#),
            event("$autocapture", "p-14", #","$event_type":"touch","$touch_x":1e300,"$touch_y":3,"$elements":[{"tag_name":"UIButton","text":"Sa\u0000ve"}]"#),
            event("Application Opened", "p-15", ""),
            event("Application Opened", "p-15", ""),
            event("hig.nav.push", "p-16", #","to":5"#),
            event("hig.touch", "p-17", #","phase":"ended","x":"12","y":3"#),
            event("hig.loading.start", "p-18", #","id":"load-1","indicator":"spinner""#),
            event("hig.loading.end", "p-19", #","id":"load-1","app":"Shelf","screen":"ignored""#),
            event("hig.outcome", "p-20", #","result":"success","task":"a very long task name, longer than any inline text""#),
            event("hig.haptic", "p-21", #","kind":"impact""#, ts: "0000-01-01T00:00:00.000+01:00"),
            event("hig.nope", "p-22", ""),
            event("hig.session.start", "p-23", #","touches":"none","synthetic":true"#),
            event("hig.permission.request", "p-24", #","permission":"camera","result":null"#),
            event("hig.widget.display", "p-25", #","widget":"w","content":"placeholder","load_ms":12.5,"x":{"nested":[1,2]}"#),
        ], "posthog edges")
        #expect(edges.events >= 14 && edges.malformed >= 8, "\(edges)")
        // A session with no launch gets a synthetic start before its first event.
        Self.expectSame(.posthog, [
            #"{"uuid":"q-1","event":"hig.rating.prompt","timestamp":"2026-11-20T12:00:00Z","properties":{"$session_id":"no-launch","$screen_name":"Home"}}"#,
        ], "posthog synthetic start")
    }

    @Test func datadogEdgesDecodeAlike() {
        func action(_ date: String, _ name: String, _ context: String) -> String {
            #"{"type":"action","date":\#(date),"session":{"id":"dd-s1"},"view":{"name":"Library"},"usr":{"anonymous_id":"a"},"os":{"version":"18"},"version":"2","action":{"id":"act-\#(name)","type":"custom","target":{"name":"\#(name)"}},"context":{\#(context)}}"#
        }
        let edges = Self.expectSame(.datadogRUM, [
            action("1795168800000", "hig.outcome", #""result":"success","task":"t""#),
            action("9999999999999999", "hig.outcome", #""result":"success""#),
            action("-9223372036854775807", "hig.outcome", #""result":"success""#),
            action("1795168800001", "hig.outcome", #""result":"success","result":"failure""#),
            action("1795168800002", "hig.haptic", #""kind":"impact","duration_ms":1.5e3,"ts":1"#),
            action("1795168800003", "hig.content.mutation", #""action":"delete","undoable":false,"id":"m1""#),
            #"{"type":"vital","date":1795168800000,"session":{"id":"dd-s1"},"vital":{"type":"app_launch","app_launch_metric":"ttid","duration":1.5e9}}"#,
            #"{"type":"view","date":1795168800010,"session":{"id":"dd-s1"},"view":{"name":"Search"}}"#,
            #"{"type":"action","date":1795168800011,"session":{"id":"dd-s1"},"view":{"name":"Search"},"action":{"type":"tap","target":{"name":"UITabBarButton(Library)"}}}"#,
            #"{"type":"action","date":1795168800012,"session":{"id":"dd-s1"},"view":{"name":"Search"},"action":{"type":"back"}}"#,
        ], "datadog edges")
        #expect(edges.events >= 6 && edges.malformed >= 3, "\(edges)")
    }

    @Test func otlpEdgesDecodeAlike() {
        func record(_ name: String, _ attributes: String, time: String = "\"1795168800000123456\"") -> String {
            #"{"timeUnixNano":\#(time),"eventName":"\#(name)","attributes":[{"key":"session.id","value":{"stringValue":"otel-1"}}\#(attributes)]}"#
        }
        let records = [
            record("hig.widget.display", #",{"key":"widget","value":{"stringValue":"w"}},{"key":"content","value":{"stringValue":"live"}},{"key":"load_ms","value":{"intValue":"9007199254740993"}}"#),
            record("hig.widget.display", #",{"key":"widget","value":{"stringValue":"w"}},{"key":"content","value":{"stringValue":"live"}},{"key":"load_ms","value":{"intValue":"-5"}}"#),
            record("hig.widget.display", #",{"key":"widget","value":{"stringValue":"w"}},{"key":"content","value":{"stringValue":"live"}},{"key":"load_ms","value":{"intValue":12}}"#),
            record("hig.haptic", #",{"key":"kind","value":{"stringValue":"impact"}},{"key":"duration_ms","value":{"doubleValue":-0.0}}"#),
            record("hig.haptic", #",{"key":"kind","value":{"stringValue":"impact"}},{"key":"kind","value":{"stringValue":"buzz"}}"#),
            record("hig.haptic", #",{"key":"kind","value":{"intValue":"7"}}"#),
            record("hig.content.mutation", #",{"key":"action","value":{"stringValue":"delete"}},{"key":"undoable","value":{"boolValue":false}},{"key":"object","value":{"arrayValue":{"values":[]}}}"#),
            record("hig.loading.start", #",{"key":"id","value":{"stringValue":"l-1"}},{"key":"indicator","value":{"stringValue":"progress"}},{"key":"t\u0073","value":{"intValue":"3"}}"#),
            record("hig.touch", #",{"key":"phase","value":{"stringValue":"began"}},{"key":"x","value":{"intValue":"-9223372036854775807"}},{"key":"y","value":{"doubleValue":1}}"#),
            record("emb-screen-view", #",{"key":"screen.name","value":{"stringValue":"Library"}}"#),
            record("emb-screen-view", #",{"key":"screen.name","value":{"stringValue":"Settings"}}"#),
            record("emb-ui-tap", #",{"key":"view.name","value":{"stringValue":"MyBackButton"}}"#),
            record("device.app.lifecycle", #",{"key":"ios.app.state","value":{"stringValue":"foreground"}},{"key":"log.record.uid","value":{"stringValue":"u-2"}}"#),
            record("hig.rating.prompt", "", time: "\"0\""),
            // Nineteen digits past Int64.max: no integer (they once overflowed and stopped the program).
            record("hig.rating.prompt", "", time: "\"9999999999999999999\""),
            record("hig.rating.prompt", "", time: "\"9223372036854775808\""),
            record("hig.rating.prompt", "", time: "\"9223372036854775807\""),
            record("hig.widget.display", #",{"key":"widget","value":{"stringValue":"w"}},{"key":"content","value":{"stringValue":"live"}},{"key":"load_ms","value":{"intValue":"9999999999999999999"}}"#),
        ]
        let line = #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"d"}},{"key":"service.version","value":{"stringValue":"1.\u0030"}}]},"scopeLogs":[{"logRecords":["#
            + records.joined(separator: ",") + "]}]}]}"
        let edges = Self.expectSame(.otlp, [line], "otlp edges")
        #expect(edges.events >= 8 && edges.malformed >= 4, "\(edges)")
    }
}
