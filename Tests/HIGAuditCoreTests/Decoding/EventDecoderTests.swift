import Testing
@testable import HIGAuditCore

/// Decodes one line with a fresh decoder.
func decodeLine(_ line: String) -> DecodedLine {
    var decoder = EventDecoder()
    return decoder.decode(line)
}

/// Decodes raw bytes (for invalid UTF-8, which a `String` cannot hold).
func decodeBytes(_ bytes: [UInt8]) -> DecodedLine {
    var decoder = EventDecoder()
    return bytes.withUnsafeBytes { decoder.decode($0) }
}

/// The event of a line that must decode, or nil (with a recorded issue) if it did not.
func decodedEvent(_ line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Event? {
    guard case .event(let event) = decodeLine(line) else {
        Issue.record("expected an event from \(line), got \(decodeLine(line))", sourceLocation: sourceLocation)
        return nil
    }
    return event
}

/// 2026-11-20T21:04:05.123Z in milliseconds since the epoch.
let novemberTwentieth: Int64 = 1_795_208_645_123

@Suite struct EventDecoderTests {
    @Test func typicalTouchLineDecodesEveryField() {
        let line = #"{"ts":"2026-11-20T21:04:05.123Z","session":"s-7f3a9c","type":"touch","phase":"began","target":"tab:Library","input":"pencil","x":102.5,"y":88,"screen":"canvas","device":"ipad-42","app_version":"5.2.0","id":"e-918273","app":"Sketch","os_version":"18.1"}"#
        let expected = Event(
            ts: novemberTwentieth, session: "s-7f3a9c",
            payload: .touch(Touch(phase: .began, target: "tab:Library", input: .pencil, x: 102.5, y: 88)),
            device: "ipad-42", app: "Sketch", appVersion: "5.2.0", osVersion: "18.1", screen: "canvas",
            id: "e-918273")
        #expect(decodeLine(line) == .event(expected))
    }

    @Test(arguments: [
        (#""type":"session.start","haptics_enabled":false,"pencil_preferred_action":"show_color_palette","pencil_custom_action_enabled":true"#,
         EventPayload.sessionStart(SessionSettings(hapticsEnabled: false, pencilPreferredAction: .showColorPalette, pencilCustomActionEnabled: true))),
        (#""type":"session.start""#, .sessionStart(SessionSettings(hapticsEnabled: true, pencilPreferredAction: .switchEraser, pencilCustomActionEnabled: false))),
        (#""type":"session.start","haptics_enabled":null,"pencil_preferred_action":null,"pencil_custom_action_enabled":null"#, .sessionStart(.defaults)),
        (#""type":"session.start","touches":"sampled""#, .sessionStart(SessionSettings(touches: .sampled))),
        (#""type":"session.start","touches":"none","synthetic":true"#, .sessionStart(SessionSettings(touches: .none, synthetic: true))),
        (#""type":"session.start","touches":"all","synthetic":false"#, .sessionStart(.defaults)),
        (#""type":"session.start","touches":null,"synthetic":null"#, .sessionStart(.defaults)),
        (#""type":"session.end""#, .sessionEnd),
        (#""type":"touch","phase":"ended""#, .touch(Touch(phase: .ended, target: nil, input: .finger, x: nil, y: nil))),
        (#""type":"touch","phase":"cancelled","target":null,"input":null,"x":null,"y":null"#, .touch(Touch(phase: .cancelled))),
        (#""type":"touch","phase":"moved","x":-0.5,"y":1e2"#, .touch(Touch(phase: .moved, x: -0.5, y: 100))),
        (#""type":"pencil.double_tap","action":"switch_previous""#, .pencilDoubleTap(action: .system(.switchPrevious))),
        (#""type":"pencil.double_tap","action":"ignore""#, .pencilDoubleTap(action: .system(.ignore))),
        (#""type":"pencil.double_tap","action":"custom:lasso""#, .pencilDoubleTap(action: .custom("lasso"))),
        (#""type":"haptic","kind":"notification.success""#, .haptic(kind: .notificationSuccess, durationMs: nil)),
        (#""type":"haptic","kind":"custom","duration_ms":1600"#, .haptic(kind: .custom, durationMs: 1600)),
        (#""type":"haptic","kind":"impact.soft","duration_ms":12.25"#, .haptic(kind: .impactSoft, durationMs: 12.25)),
        (#""type":"outcome","result":"failure","task":"export""#, .outcome(result: .failure, task: "export")),
        (#""type":"outcome","result":"warning""#, .outcome(result: .warning, task: nil)),
        (#""type":"nav.tab_switch","from":"tab:Home","to":"tab:Library""#, .tabSwitch(from: "tab:Home", to: "tab:Library")),
        (#""type":"nav.push","to":"detail""#, .navPush(to: "detail")),
        (#""type":"nav.pop","to":"list""#, .navPop(to: "list")),
        (#""type":"modal.present","modal":"share","style":"popover""#, .modalPresent(modal: "share", style: .popover)),
        (#""type":"modal.present","modal":"confirm","style":"action_sheet""#, .modalPresent(modal: "confirm", style: .actionSheet)),
        (#""type":"modal.dismiss","modal":"share""#, .modalDismiss(modal: "share")),
        (#""type":"content.mutation","action":"delete","object":"stroke","undoable":false"#, .contentMutation(action: .delete, object: "stroke", undoable: false)),
        (#""type":"content.mutation","action":"clear""#, .contentMutation(action: .clear, object: nil, undoable: true)),
        (#""type":"loading.start","id":"L1","indicator":"none""#, .loadingStart(id: "L1", indicator: .none)),
        (#""type":"loading.end","id":"L1""#, .loadingEnd(id: "L1")),
        (#""type":"capture.start","source":"camera""#, .captureStart(source: .camera)),
        (#""type":"capture.stop","source":"microphone""#, .captureStop(source: .microphone)),
        (#""type":"app.ready""#, .appReady),
        (#""type":"permission.request","permission":"location""#, .permissionRequest(permission: .location, result: nil)),
        (#""type":"permission.request","permission":"tracking","result":"already_decided""#,
         .permissionRequest(permission: .tracking, result: .alreadyDecided)),
        (#""type":"permission.request","permission":"health","result":null"#, .permissionRequest(permission: .health, result: nil)),
        (#""type":"rating.prompt""#, .ratingPrompt),
        (#""type":"widget.display","widget":"recent","content":"cached""#,
         .widgetDisplay(widget: "recent", content: .cached, loadMs: nil)),
        (#""type":"widget.display","widget":"recent","content":"placeholder","load_ms":1200.5"#,
         .widgetDisplay(widget: "recent", content: .placeholder, loadMs: 1200.5)),
    ])
    func everyEventTypeDecodesToItsPayload(fields: String, payload: EventPayload) {
        let event = decodedEvent(#"{"ts":1000,"session":"s1","# + fields + "}")
        #expect(event?.payload == payload)
        #expect(event?.ts == 1000)
        #expect(event?.session == "s1")
        #expect(event?.source == .unknown)
    }

    @Test func everyEnumeratedValueIsRecognised() {
        for value in PencilPreferredAction.allCases {
            let line = #"{"ts":1,"session":"s","type":"session.start","pencil_preferred_action":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.sessionStart(SessionSettings(pencilPreferredAction: value)))
        }
        for value in HapticKind.allCases {
            let line = #"{"ts":1,"session":"s","type":"haptic","kind":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.haptic(kind: value, durationMs: nil))
        }
        for value in ModalStyle.allCases {
            let line = #"{"ts":1,"session":"s","type":"modal.present","modal":"m","style":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.modalPresent(modal: "m", style: value))
        }
        for value in MutationAction.allCases {
            let line = #"{"ts":1,"session":"s","type":"content.mutation","action":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.contentMutation(action: value, object: nil, undoable: true))
        }
        for value in LoadingIndicator.allCases {
            let line = #"{"ts":1,"session":"s","type":"loading.start","id":"L","indicator":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.loadingStart(id: "L", indicator: value))
        }
        for value in TouchPhase.allCases {
            for input in TouchInput.allCases {
                let line = #"{"ts":1,"session":"s","type":"touch","phase":"\#(value.rawValue)","input":"\#(input.rawValue)"}"#
                #expect(decodedEvent(line)?.payload == EventPayload.touch(Touch(phase: value, input: input)))
            }
        }
        for value in OutcomeResult.allCases {
            let line = #"{"ts":1,"session":"s","type":"outcome","result":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.outcome(result: value, task: nil))
        }
        for value in CaptureSource.allCases {
            let line = #"{"ts":1,"session":"s","type":"capture.start","source":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.captureStart(source: value))
        }
        for value in Permission.allCases {
            for result in PermissionResult.allCases {
                let line = #"{"ts":1,"session":"s","type":"permission.request","permission":"\#(value.rawValue)","result":"\#(result.rawValue)"}"#
                #expect(decodedEvent(line)?.payload == EventPayload.permissionRequest(permission: value, result: result))
            }
        }
        for value in WidgetContent.allCases {
            let line = #"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"\#(value.rawValue)","load_ms":3}"#
            #expect(decodedEvent(line)?.payload == EventPayload.widgetDisplay(widget: "w", content: value, loadMs: 3))
        }
        for value in PencilPreferredAction.allCases {
            let line = #"{"ts":1,"session":"s","type":"pencil.double_tap","action":"\#(value.rawValue)"}"#
            #expect(decodedEvent(line)?.payload == EventPayload.pencilDoubleTap(action: .system(value)))
        }
    }

    @Test func everyTypeNameIsRecognised() {
        for kind in EventKind.allCases {
            let line = #"{"ts":1,"session":"s","type":"\#(kind.wireName)"}"#
            // Types with required fields are malformed here, but never an unknown type.
            if case .unknownType = decodeLine(line) { Issue.record("\(kind.wireName) taken for an unknown type") }
        }
    }

    @Test func loadingIdIsTheOperationIdNotTheEventId() {
        let event = decodedEvent(#"{"ts":1,"session":"s","type":"loading.end","id":"L1"}"#)
        #expect(event?.payload == EventPayload.loadingEnd(id: "L1"))
        #expect(event?.id == nil)
    }

    @Test func optionalCommonFieldsMayBeNullOrAbsent() {
        let event = decodedEvent(#"{"ts":1,"session":"s","type":"session.end","device":null,"app":null,"app_version":null,"os_version":null,"screen":null,"id":null}"#)
        #expect(event == Event(ts: 1, session: "s", payload: .sessionEnd))
    }

    @Test func unknownTypeIsReportedByName() {
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"nav.teleport","where":[1,2]}"#) == .unknownType("nav.teleport"))
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"nav.te\u006Ceport"}"#) == .unknownType("nav.teleport"))
        #expect(decodeLine(#"{"ts":1,"session":"s","type":""}"#) == .unknownType(""))
        // Type-specific fields are not looked at for an unknown type.
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"future","phase":7,"phase":8}"#) == .unknownType("future"))
    }

    /// Two texts that differ only after a U+0000 are one text to SQLite and spreadsheets, so no text an
    /// event keeps may hold one; the same line with any other escape decodes. A warm decoder, whose line
    /// shapes know the layout, gives the same verdict as a new one.
    @Test(arguments: [
        (#"{"ts":1,"session":"$","type":"session.end"}"#, "session"),
        (#"{"ts":1,"session":"s","type":"session.end","device":"$"}"#, "device"),
        (#"{"ts":1,"session":"s","type":"session.end","app":"$"}"#, "app"),
        (#"{"ts":1,"session":"s","type":"session.end","app_version":"$"}"#, "app_version"),
        (#"{"ts":1,"session":"s","type":"session.end","os_version":"$"}"#, "os_version"),
        (#"{"ts":1,"session":"s","type":"session.end","screen":"$"}"#, "screen"),
        (#"{"ts":1,"session":"s","type":"session.end","id":"$"}"#, "id"),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","target":"$"}"#, "target"),
        (#"{"ts":1,"session":"s","type":"modal.present","modal":"$","style":"page_sheet"}"#, "modal"),
        (#"{"ts":1,"session":"s","type":"loading.end","id":"$"}"#, "id"),
        (#"{"ts":1,"session":"s","type":"$"}"#, "type"),
        (#"{"ts":1,"session":"s","type":"future","id":"$"}"#, "id"),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap","action":"custom:$"}"#, "action"),
    ])
    func keptTextWithNullIsMalformed(template: String, field: String) throws {
        let withNull = template.replacingOccurrences(of: "$", with: #"ab\u0000c"#)
        // The value's opening quote, at the same place in the template.
        let placeholder = try #require(template.firstIndex(of: "$"))
        let quote = try #require(template[..<placeholder].lastIndex(of: "\""))
        let column = template.utf8.distance(from: template.startIndex, to: quote)
        let expected = DecodedLine.malformed(MalformedLine(
            reason: "field \"\(field)\" holds U+0000, at which stores and spreadsheets cut a text", column: column))
        #expect(decodeLine(withNull) == expected)
        var warm = EventDecoder()
        for line in [template.replacingOccurrences(of: "$", with: "abc"), template.replacingOccurrences(of: "$", with: #"ab\u0001c"#)] {
            for _ in 0..<3 {
                if case .malformed(let problem) = warm.decode(line) { Issue.record("\(line): \(problem)") }
            }
        }
        #expect(warm.decode(withNull) == expected)
    }

    @Test func unknownFieldsAreIgnoredWhateverTheirValue() {
        let line = #"{"x_obj":{"a":[1,2,{"b":null}],"c":"\u00e9"},"ts":5,"extra":-1.5e-3,"session":"s","flag":true,"type":"nav.push","to":"home","list":[],"empty":{}}"#
        #expect(decodedEvent(line)?.payload == EventPayload.navPush(to: "home"))
    }

    @Test func fieldsOfOtherTypesAreIgnored() {
        // `phase` belongs to touch; for a haptic it is an unknown field, whatever its type, even twice.
        let line = #"{"ts":1,"session":"s","type":"haptic","kind":"selection","phase":5,"phase":6,"x":"left"}"#
        #expect(decodedEvent(line)?.payload == EventPayload.haptic(kind: .selection, durationMs: nil))
    }

    @Test func escapesAreUnescaped() {
        let line = #"{"ts":1,"session":"s\"1\\\/","type":"outcome","result":"success","task":"caf\u00e9 \ud83c\udfa8\n\t\b\f\r \u0001 é"}"#
        let event = decodedEvent(line)
        #expect(event?.session == "s\"1\\/")
        #expect(event?.payload == EventPayload.outcome(result: .success, task: "café 🎨\n\t\u{8}\u{C}\r \u{1} é"))
    }

    @Test func escapedKeysAndEnumValuesAreMatchedByTheirValue() {
        let line = #"{"t\u0073":1,"session":"s","\u0074ype":"haptic","kind":"impact\u002Elight"}"#
        #expect(decodedEvent(line)?.payload == EventPayload.haptic(kind: .impactLight, durationMs: nil))
        let escapedTimestamp = #"{"ts":"2026-11-20T21:04:05.123\u005A","session":"s","type":"session.end"}"#
        #expect(decodedEvent(escapedTimestamp)?.ts == novemberTwentieth)
    }

    @Test func nonASCIIStringsArePreserved() {
        let event = decodedEvent(#"{"ts":1,"session":"séance-日本-🎨-long-enough-to-need-the-heap","type":"session.end","screen":"Ünïcødé"}"#)
        #expect(event?.session == "séance-日本-🎨-long-enough-to-need-the-heap")
        #expect(event?.screen == "Ünïcødé")
    }

    @Test(arguments: [
        ("2026-11-20T21:04:05.123Z", novemberTwentieth),
        ("2026-11-20t21:04:05.123z", novemberTwentieth),
        ("2026-11-20T22:04:05.123+01:00", novemberTwentieth),
        ("2026-11-20T16:34:05.123-04:30", novemberTwentieth),
        ("2026-11-20T21:04:05.123456789Z", novemberTwentieth),
        ("2026-11-20T21:04:05.1239Z", novemberTwentieth),
        ("2026-11-20T21:04:05Z", novemberTwentieth - 123),
        ("2026-11-20T21:04:05.1Z", novemberTwentieth - 23),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
    ])
    func timestampStringsBecomeMilliseconds(text: String, milliseconds: Int64) {
        let event = decodedEvent(#"{"ts":"\#(text)","session":"s","type":"session.end"}"#)
        #expect(event?.ts == milliseconds)
    }

    @Test(arguments: [
        ("0", Int64(0)), ("-0", 0), ("1795208645123", novemberTwentieth), ("-1", -1),
        ("253402300799999", 253_402_300_799_999), ("-62167219200000", -62_167_219_200_000),
    ])
    func integerTimestampsAreMilliseconds(text: String, milliseconds: Int64) {
        let event = decodedEvent(#"{"ts":\#(text),"session":"s","type":"session.end"}"#)
        #expect(event?.ts == milliseconds)
    }

    /// Integers past 9999-12-31T23:59:59.999Z or before 0000-01-01 were accepted (strings never were):
    /// tables printed `10000-01-01T…`, and near `Int64.max` the engine's sums saturated. Both the
    /// general scan and the learned line shapes refuse them, at the same column.
    @Test(arguments: [
        "253402300800000", "-62167219200001", "9223372036854775807", "-9223372036854775808", "9223372036854775000",
    ])
    func integerTimestampsOutsideTheYears0To9999AreMalformed(text: String) {
        let line = #"{"ts":\#(text),"session":"s","type":"session.end"}"#
        var general = EventDecoder(learnsLineShapes: false)
        var learning = EventDecoder(learnsLineShapes: true)
        let refused = general.decode(line)
        guard case .malformed(let failure) = refused else {
            Issue.record("accepted \(text): \(refused)")
            return
        }
        #expect(failure.reason.contains("years 0000–9999"))
        // A learning decoder that has matched the line's shape many times gives the same verdict.
        for index in 0..<64 { _ = learning.decode(#"{"ts":\#(1000 + index),"session":"s","type":"session.end"}"#) }
        #expect(learning.lineShapes.matchedLines > 0)
        #expect(learning.decode(line) == refused)
    }

    /// A string whose offset takes it out of the years 0000–9999 in UTC is refused like an integer.
    @Test(arguments: ["0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999-00:01"])
    func stringTimestampsOutsideTheYears0To9999InUTCAreMalformed(text: String) {
        guard case .malformed(let failure) = decodeLine(#"{"ts":"\#(text)","session":"s","type":"session.end"}"#) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(failure.reason.contains("years 0000–9999"))
        #expect(decodedEvent(#"{"ts":"0000-01-01T00:00:00Z","session":"s","type":"session.end"}"#)?.ts == -62_167_219_200_000)
    }

    @Test func whitespaceAroundTokensIsAllowed() {
        let line = " \t{ \"ts\" :\t1 , \"session\" : \"s\" ,\r\n\"type\" : \"session.end\" } \t\r"
        #expect(decodedEvent(line)?.ts == 1)
    }

    @Test(arguments: ["", " ", "\t", " \t \r\n ", "\r"])
    func blankLines(line: String) {
        #expect(decodeLine(line) == .blank)
    }

    @Test func numbersConvertToTheNearestDouble() {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("0.1", 0.1), ("102.5", 102.5), ("1e2", 100), ("1E-2", 0.01),
            ("123456789012345.6", 123456789012345.6), ("0.30000000000000004", 0.30000000000000004),
            ("1.7976931348623157e308", 1.7976931348623157e308), ("4.9406564584124654e-324", Double.leastNonzeroMagnitude), ("-12.345", -12.345),
            ("1e-999", 0), ("-1e-999", -0.0),
        ]
        for (text, value) in cases {
            let event = decodedEvent(#"{"ts":1,"session":"s","type":"touch","phase":"began","x":\#(text)}"#)
            guard case .touch(let touch)? = event?.payload else { continue }
            #expect(touch.x == value, "x = \(text)")
        }
    }
}
