import Testing
@testable import HIGAuditCore

/// Lines that must be malformed, each with the words its reason must contain (SPEC §2).
@Suite struct MalformedLineTests {
    static let base = #""ts":1,"session":"s""#

    static func reason(_ result: DecodedLine) -> String? {
        if case .malformed(let problem) = result { return problem.reason }
        return nil
    }

    @Test(arguments: [
        // Common required fields.
        (#"{"session":"s","type":"session.end"}"#, #"missing required field "ts""#),
        (#"{"ts":1,"type":"session.end"}"#, #"missing required field "session""#),
        (#"{"ts":1,"session":"s"}"#, #"missing required field "type""#),
        (#"{}"#, #"missing required field "ts""#),
        (#"{"ts":null,"session":"s","type":"session.end"}"#, #"field "ts" must be a string or integer, not null"#),
        (#"{"ts":1,"session":null,"type":"session.end"}"#, #"field "session" must be a string, not null"#),
        (#"{"ts":1,"session":"s","type":null}"#, #"field "type" must be a string, not null"#),
        // Common field types.
        (#"{"ts":true,"session":"s","type":"session.end"}"#, #"field "ts" must be a string or integer, not a boolean"#),
        (#"{"ts":[1],"session":"s","type":"session.end"}"#, #"field "ts" must be a string or integer, not an array"#),
        (#"{"ts":1.5,"session":"s","type":"session.end"}"#, #"field "ts" must be an integer of milliseconds"#),
        (#"{"ts":1.5e0,"session":"s","type":"session.end"}"#, #"field "ts" must be an integer of milliseconds, not a fraction"#),
        (#"{"ts":1795208645123e-4,"session":"s","type":"session.end"}"#, #"field "ts" must be an integer of milliseconds, not a fraction"#),
        (#"{"ts":1e19,"session":"s","type":"session.end"}"#, #"field "ts" is out of range"#),
        (#"{"ts":1e999999999999,"session":"s","type":"session.end"}"#, #"field "ts" is out of range"#),
        (#"{"ts":99999999999999999999,"session":"s","type":"session.end"}"#, #"field "ts" is out of range"#),
        (#"{"ts":1,"session":7,"type":"session.end"}"#, #"field "session" must be a string, not a number"#),
        // A number past a Double's range measures nothing; a negative time is a broken writer.
        (#"{"ts":1,"session":"s","type":"haptic","kind":"custom","duration_ms":1e999}"#, #"field "duration_ms" is a number too large to hold"#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"custom","duration_ms":-1e308}"#, #"field "duration_ms" must not be negative"#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"custom","duration_ms":-0.5}"#, #"field "duration_ms" must not be negative"#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"fresh","load_ms":-1}"#, #"field "load_ms" must not be negative"#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"fresh","load_ms":-1E400}"#, #"field "load_ms" is a number too large to hold"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","x":1e999}"#, #"field "x" is a number too large to hold"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","y":-1e999}"#, #"field "y" is a number too large to hold"#),
        (#"{"ts":1,"session":"","type":"session.end"}"#, #"field "session" must be a non-empty string"#),
        (#"{"ts":1,"session":"s","type":{"name":"touch"}}"#, #"field "type" must be a string, not an object"#),
        (#"{"ts":1,"session":"s","type":"session.end","device":42}"#, #"field "device" must be a string, not a number"#),
        (#"{"ts":1,"session":"s","type":"session.end","app":false}"#, #"field "app" must be a string, not a boolean"#),
        (#"{"ts":1,"session":"s","type":"session.end","app_version":5.2}"#, #"field "app_version" must be a string"#),
        (#"{"ts":1,"session":"s","type":"session.end","os_version":[]}"#, #"field "os_version" must be a string"#),
        (#"{"ts":1,"session":"s","type":"session.end","screen":{}}"#, #"field "screen" must be a string"#),
        (#"{"ts":1,"session":"s","type":"session.end","id":1}"#, #"field "id" must be a string"#),
        // Common fields are checked before the type is looked up.
        (#"{"ts":1,"session":"s","type":"future.thing","device":1}"#, #"field "device" must be a string"#),
        (#"{"ts":"yesterday","session":"s","type":"future.thing"}"#, #"not an RFC 3339 timestamp"#),
        // Bad timestamps.
        (#"{"ts":"2026-02-30T10:00:00Z","session":"s","type":"session.end"}"#, "day out of range"),
        (#"{"ts":"2025-02-29T10:00:00Z","session":"s","type":"session.end"}"#, "day out of range"),
        (#"{"ts":"2026-04-31T10:00:00Z","session":"s","type":"session.end"}"#, "day out of range"),
        (#"{"ts":"2026-01-00T10:00:00Z","session":"s","type":"session.end"}"#, "day out of range"),
        (#"{"ts":"2026-13-01T10:00:00Z","session":"s","type":"session.end"}"#, "month out of range"),
        (#"{"ts":"2026-00-01T10:00:00Z","session":"s","type":"session.end"}"#, "month out of range"),
        (#"{"ts":"2026-11-20T25:00:00Z","session":"s","type":"session.end"}"#, "hour out of range"),
        (#"{"ts":"2026-11-20T21:60:00Z","session":"s","type":"session.end"}"#, "minute out of range"),
        (#"{"ts":"2026-11-20T21:04:61Z","session":"s","type":"session.end"}"#, "second out of range"),
        (#"{"ts":"2026-11-20T21:04:05.1234567890Z","session":"s","type":"session.end"}"#, "more than 9 fraction digits"),
        (#"{"ts":"2026-11-20T21:04:05.Z","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"2026-11-20T21:04:05.123","session":"s","type":"session.end"}"#, "missing time zone offset"),
        (#"{"ts":"2026-11-20T21:04:05","session":"s","type":"session.end"}"#, "missing time zone offset"),
        (#"{"ts":"2026-11-20T21:04:05+24:00","session":"s","type":"session.end"}"#, "time zone offset out of range"),
        (#"{"ts":"2026-11-20T21:04:05+01:60","session":"s","type":"session.end"}"#, "time zone offset out of range"),
        (#"{"ts":"2026-11-20T21:04:05+0100","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"2026-11-20_21:04:05Z","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"2026-11-20  21:04:05Z","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"2026-11-20","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"20261120T210405Z","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"2026-11-20T21:04:05Zjunk","session":"s","type":"session.end"}"#, "expected YYYY-MM-DD"),
        (#"{"ts":"garbage","session":"s","type":"session.end"}"#, #"not an RFC 3339 timestamp "garbage""#),
        (#"{"ts":"","session":"s","type":"session.end"}"#, "not an RFC 3339 timestamp"),
        // Type-specific required fields.
        (#"{"ts":1,"session":"s","type":"touch"}"#, #"missing required field "phase""#),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap"}"#, #"missing required field "action""#),
        (#"{"ts":1,"session":"s","type":"haptic"}"#, #"missing required field "kind""#),
        (#"{"ts":1,"session":"s","type":"permission.request"}"#, #"missing required field "permission""#),
        (#"{"ts":1,"session":"s","type":"permission.request","permission":"cookies"}"#, #"unknown permission "cookies""#),
        (#"{"ts":1,"session":"s","type":"permission.request","permission":"camera","result":"maybe"}"#,
         #"unknown permission result "maybe""#),
        (#"{"ts":1,"session":"s","type":"permission.request","permission":"camera","result":true}"#,
         #"field "result" must be a string, not a boolean"#),
        (#"{"ts":1,"session":"s","type":"widget.display","content":"fresh"}"#, #"missing required field "widget""#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w"}"#, #"missing required field "content""#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"stale"}"#, #"unknown widget content "stale""#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"fresh","load_ms":"slow"}"#,
         #"field "load_ms" must be a number, not a string"#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":3,"content":"fresh"}"#,
         #"field "widget" must be a string, not a number"#),
        (#"{"ts":1,"session":"s","type":"widget.display","widget":"w","content":"fresh","load_ms":1,"load_ms":2}"#,
         #"duplicate key "load_ms""#),
        (#"{"ts":1,"session":"s","type":"outcome"}"#, #"missing required field "result""#),
        (#"{"ts":1,"session":"s","type":"nav.tab_switch","to":"b"}"#, #"missing required field "from""#),
        (#"{"ts":1,"session":"s","type":"nav.tab_switch","from":"a"}"#, #"missing required field "to""#),
        (#"{"ts":1,"session":"s","type":"nav.push"}"#, #"missing required field "to""#),
        (#"{"ts":1,"session":"s","type":"nav.pop","to":null}"#, #"field "to" must be a string, not null"#),
        (#"{"ts":1,"session":"s","type":"modal.present","style":"alert"}"#, #"missing required field "modal""#),
        (#"{"ts":1,"session":"s","type":"modal.present","modal":"m"}"#, #"missing required field "style""#),
        (#"{"ts":1,"session":"s","type":"modal.dismiss"}"#, #"missing required field "modal""#),
        (#"{"ts":1,"session":"s","type":"content.mutation"}"#, #"missing required field "action""#),
        (#"{"ts":1,"session":"s","type":"loading.start","indicator":"none"}"#, #"missing required field "id""#),
        (#"{"ts":1,"session":"s","type":"loading.start","id":"L"}"#, #"missing required field "indicator""#),
        (#"{"ts":1,"session":"s","type":"loading.end"}"#, #"missing required field "id""#),
        (#"{"ts":1,"session":"s","type":"capture.start"}"#, #"missing required field "source""#),
        (#"{"ts":1,"session":"s","type":"capture.stop"}"#, #"missing required field "source""#),
        // Type-specific field types.
        (#"{"ts":1,"session":"s","type":"session.start","haptics_enabled":"yes"}"#, #"field "haptics_enabled" must be a boolean, not a string"#),
        (#"{"ts":1,"session":"s","type":"session.start","pencil_custom_action_enabled":1}"#, #"field "pencil_custom_action_enabled" must be a boolean"#),
        (#"{"ts":1,"session":"s","type":"session.start","pencil_preferred_action":true}"#, #"field "pencil_preferred_action" must be a string"#),
        (#"{"ts":1,"session":"s","type":"session.start","touches":false}"#, #"field "touches" must be a string, not a boolean"#),
        (#"{"ts":1,"session":"s","type":"session.start","synthetic":"true"}"#, #"field "synthetic" must be a boolean, not a string"#),
        (#"{"ts":1,"session":"s","type":"session.start","synthetic":1}"#, #"field "synthetic" must be a boolean, not a number"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":1}"#, #"field "phase" must be a string, not a number"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","target":5}"#, #"field "target" must be a string"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","input":["pencil"]}"#, #"field "input" must be a string"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","x":"10"}"#, #"field "x" must be a number, not a string"#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","y":true}"#, #"field "y" must be a number, not a boolean"#),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap","action":null}"#, #"field "action" must be a string, not null"#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"selection","duration_ms":"long"}"#, #"field "duration_ms" must be a number"#),
        (#"{"ts":1,"session":"s","type":"outcome","result":"success","task":1}"#, #"field "task" must be a string"#),
        (#"{"ts":1,"session":"s","type":"nav.tab_switch","from":1,"to":"b"}"#, #"field "from" must be a string"#),
        (#"{"ts":1,"session":"s","type":"nav.push","to":{}}"#, #"field "to" must be a string, not an object"#),
        (#"{"ts":1,"session":"s","type":"modal.dismiss","modal":false}"#, #"field "modal" must be a string"#),
        (#"{"ts":1,"session":"s","type":"content.mutation","action":"insert","object":2}"#, #"field "object" must be a string"#),
        (#"{"ts":1,"session":"s","type":"content.mutation","action":"insert","undoable":"no"}"#, #"field "undoable" must be a boolean"#),
        (#"{"ts":1,"session":"s","type":"loading.end","id":3}"#, #"field "id" must be a string"#),
        (#"{"ts":1,"session":"s","type":"capture.stop","source":0}"#, #"field "source" must be a string"#),
        // Enumerated values.
        (#"{"ts":1,"session":"s","type":"session.start","pencil_preferred_action":"erase"}"#, #"unknown pencil preferred action "erase""#),
        (#"{"ts":1,"session":"s","type":"session.start","touches":"some"}"#, #"unknown touch coverage "some""#),
        (#"{"ts":1,"session":"s","type":"session.start","touches":"All"}"#, #"unknown touch coverage "All""#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"begun"}"#, #"unknown touch phase "begun""#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","input":"stylus"}"#, #"unknown touch input "stylus""#),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap","action":"erase"}"#, #"unknown pencil action "erase""#),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap","action":"custom:"}"#, #"unknown pencil action "custom:""#),
        (#"{"ts":1,"session":"s","type":"pencil.double_tap","action":"Switch_eraser"}"#, #"unknown pencil action"#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"buzz"}"#, #"unknown haptic kind "buzz""#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"impact"}"#, #"unknown haptic kind "impact""#),
        (#"{"ts":1,"session":"s","type":"outcome","result":"ok"}"#, #"unknown outcome result "ok""#),
        (#"{"ts":1,"session":"s","type":"modal.present","modal":"m","style":"sheet"}"#, #"unknown modal style "sheet""#),
        (#"{"ts":1,"session":"s","type":"content.mutation","action":"move"}"#, #"unknown mutation action "move""#),
        (#"{"ts":1,"session":"s","type":"loading.start","id":"L","indicator":"bar"}"#, #"unknown loading indicator "bar""#),
        (#"{"ts":1,"session":"s","type":"capture.start","source":"gyroscope"}"#, #"unknown capture source "gyroscope""#),
        (#"{"ts":1,"session":"s","type":"haptic","kind":"b\"z\n"}"#, #"unknown haptic kind "b\"z\u{a}""#),
        // Duplicate keys the event reads.
        (#"{"ts":1,"session":"s","type":"session.end","type":"touch"}"#, #"duplicate key "type""#),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","phase":"ended"}"#, #"duplicate key "phase""#),
        (#"{"ts":1,"session":"s","type":"session.end","screen":"a","screen":null}"#, #"duplicate key "screen""#),
        (#"{"ts":1,"session":"s","type":"session.end","t\u0073":2}"#, #"duplicate key "ts""#),
        // Not JSON, or not strictly.
        (#"{"ts":1,"session":"s","type":"session.end"} x"#, "invalid JSON: unexpected 'x' after the value"),
        (#"{"ts":1,"session":"s","type":"session.end"}{}"#, "invalid JSON: unexpected '{' after the value"),
        (#"{"ts":1,"session":"s","type":"session.end",}"#, "invalid JSON: unexpected '}'"),
        (#"{"ts":1,"session":"s","type":"session.end","a":[1,2,]}"#, "invalid JSON: unexpected ']'"),
        (#"{"ts":1,"session":"s","type":"session.end"} // done"#, "invalid JSON: unexpected '/' after the value"),
        (#"{"ts":1,/* c */"session":"s","type":"session.end"}"#, "invalid JSON: unexpected '/'"),
        (#"{"ts":1,"session":"s","type":"session.end","a":NaN}"#, "invalid JSON: unexpected 'N'"),
        (#"{"ts":1,"session":"s","type":"session.end","a":-Infinity}"#, "invalid JSON: digit expected in number"),
        (#"{"ts":1,"session":"s","type":"touch","phase":"began","x":Infinity}"#, "invalid JSON: unexpected 'I'"),
        (#"{'ts':1,"session":"s","type":"session.end"}"#, "invalid JSON: unexpected '''"),
        (#"{"ts":1,"session":'s',"type":"session.end"}"#, "invalid JSON: unexpected '''"),
        (#"{"ts":01,"session":"s","type":"session.end"}"#, "invalid JSON: leading zero in number"),
        (#"{"ts":+1,"session":"s","type":"session.end"}"#, "invalid JSON: unexpected '+'"),
        (#"{"ts":1.,"session":"s","type":"session.end"}"#, "invalid JSON: digit expected in number"),
        (#"{"ts":1,"session":"s","type":"session.end","a":.5}"#, "invalid JSON: unexpected '.'"),
        (#"{"ts":1,"session":"s","type":"session.end","a":tru}"#, "invalid JSON: unexpected '}'"),
        (#"{"ts":1,"session":"s","type":"session.end","a":"\x"}"#, #"invalid JSON: invalid escape '\x'"#),
        (#"{"ts":1,"session":"s","type":"session.end","a":"\u12"}"#, "invalid JSON: \\u must be followed by four hex digits"),
        (#"{"ts":1,"session":"s","type":"session.end","a":"\ud800"}"#, "invalid JSON: lone surrogate"),
        (#"{"ts":1,"session":"s","type":"session.end","a":"\udc00\ud800"}"#, "invalid JSON: lone surrogate"),
        (#"{"ts":1,"session":"s\ud83c","type":"session.end"}"#, "invalid JSON: lone surrogate"),
        ("{\"ts\":1,\"session\":\"s\ttab\",\"type\":\"session.end\"}", "invalid JSON: unescaped control character 0x09 in string"),
        ("{\"ts\":1,\"session\":\"s\u{7}\",\"type\":\"session.end\"}", "invalid JSON: unescaped control character 0x07 in string"),
        (#"{"ts":1,"session":"s","type":"session.end""#, "invalid JSON: unexpected end of line"),
        (#"{"ts":1,"session":"s","type":"session.end"#, "invalid JSON: unterminated string"),
        (#"{"ts":1,"session":"s","type" "session.end"}"#, "invalid JSON: unexpected '\"'"),
        (#"{"ts":1,"session":"s","type":"session.end"]"#, "invalid JSON: unexpected ']'"),
        (#"{ts:1,"session":"s","type":"session.end"}"#, "invalid JSON: unexpected 't'"),
        ("{\"ts\":1,\"session\":\"s\",\u{FEFF}\"type\":\"session.end\"}", "invalid JSON: unexpected byte order mark"),
        ("\u{FEFF}{\"ts\":1,\"session\":\"s\",\"type\":\"session.end\"}", "invalid JSON: unexpected byte order mark"),
        ("{\"ts\":1,\"session\":\"s\",\"type\":\"session.end\"}\u{0C}", "invalid JSON: unexpected byte 0x0C after the value"),
        ("{\"ts\":1,\"session\":\"s\",\"type\":\"session.end\"}\u{A0}", "invalid JSON: unexpected non-ASCII character after the value"),
        // Not an object at the top.
        (#"[{"ts":1,"session":"s","type":"session.end"}]"#, "top-level value is not an object"),
        (#""event""#, "top-level value is not an object"),
        (#"42"#, "top-level value is not an object"),
        (#"null"#, "top-level value is not an object"),
        (#"[1,]"#, "invalid JSON: unexpected ']'"),
        // Too deep.
        (#"{"ts":1,"session":"s","type":"session.end","a":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
         "nesting deeper than 512"),
        (String(repeating: "[", count: 100_000), "nesting deeper than 512"),
    ])
    func lineIsMalformed(line: String, expected: String) {
        let result = decodeLine(line)
        guard let reason = Self.reason(result) else {
            Issue.record("not malformed: \(result)")
            return
        }
        #expect(reason.contains(expected), "reason: \(reason)")
    }

    /// Numbers a measurement cannot hold are malformed also where a learned line shape reads the value,
    /// after many lines of the same shape with ordinary values.
    @Test(arguments: ["1e999", "-1e999", "-1", "-0.001", "1E+400"])
    func durationsOutOfRangeAreMalformedAfterLinesOfTheSameShape(value: String) {
        var decoder = EventDecoder()
        func line(_ duration: String) -> String {
            #"{"ts":1795197600123,"session":"s","type":"haptic","kind":"custom","duration_ms":"# + duration + "}"
        }
        for duration in 0..<64 { _ = decoder.decode(line(String(duration * 10))) }
        #expect(Self.reason(decoder.decode(line(value)))?.contains(#"field "duration_ms""#) == true, "\(value)")
        if case .event(let event) = decoder.decode(line("1500.5")), case .haptic(_, let duration) = event.payload {
            #expect(duration == 1500.5)
        } else {
            Issue.record("an ordinary duration after the bad one is read")
        }
    }

    @Test(arguments: [
        // Invalid UTF-8 in a known field, in an unknown field, inside nested unknown values, in a key.
        ([0xFF], "s", "invalid UTF-8"),
        ([0xC3], "s", "invalid UTF-8"),
        ([0xC0, 0xAF], "s", "invalid UTF-8"),
        ([0xED, 0xA0, 0x80], "s", "invalid UTF-8"),
        ([0xF4, 0x90, 0x80, 0x80], "s", "invalid UTF-8"),
        ([0x80], "unknown", "invalid UTF-8"),
        ([0xE2, 0x82], "unknown", "invalid UTF-8"),
        ([0xF8, 0x88, 0x80, 0x80, 0x80], "nested", "invalid UTF-8"),
        ([0xFE], "key", "invalid UTF-8"),
    ] as [([UInt8], String, String)])
    func invalidUTF8IsMalformedWherever(bad: [UInt8], place: String, expected: String) {
        let parts: ([UInt8], [UInt8]) = switch place {
        case "s": (Array(#"{"ts":1,"type":"session.end","session":"a"#.utf8), Array(#"b"}"#.utf8))
        case "unknown": (Array(#"{"ts":1,"session":"s","type":"session.end","note":""#.utf8), Array(#""}"#.utf8))
        case "nested": (Array(#"{"ts":1,"session":"s","type":"session.end","n":[{"a":[""#.utf8), Array(#""]}]}"#.utf8))
        default: (Array(#"{"ts":1,"session":"s","type":"session.end",""#.utf8), Array(#"":1}"#.utf8))
        }
        let line = parts.0 + bad + parts.1
        let result = decodeBytes(line)
        #expect(result == .malformed(MalformedLine(reason: expected, column: parts.0.count)))
    }

    @Test func invalidUTF8OutsideStringsIsReportedAsSuch() {
        let line = Array(#"{"ts":1,"session":"s","type":"session.end"}"#.utf8) + [0xFF]
        #expect(Self.reason(decodeBytes(line)) == "invalid UTF-8")
    }

    @Test func overLongLineIsMalformed() {
        let padding = String(repeating: "a", count: EventDecoder.maxLineLength)
        let line = #"{"ts":1,"session":"s","type":"session.end","pad":"\#(padding)"}"#
        #expect(Self.reason(decodeLine(line))?.hasPrefix("line longer than 1 MiB") == true)
        let fits = #"{"ts":1,"session":"s","type":"session.end","pad":""# + String(repeating: "a", count: EventDecoder.maxLineLength - 60) + #""}"#
        #expect(decodeLine(fits) == .event(Event(ts: 1, session: "s", payload: .sessionEnd)))
    }

    @Test func columnsPointAtTheProblem() {
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"haptic","kind":"buzz"}"#)
            == .malformed(MalformedLine(reason: #"unknown haptic kind "buzz""#, column: 45)))
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"session.end",}"#)
            == .malformed(MalformedLine(reason: "invalid JSON: unexpected '}'", column: 43)))
        #expect(decodeLine(#"{"ts":1,"type":"session.end"}"#)
            == .malformed(MalformedLine(reason: #"missing required field "session""#)))
    }

    @Test func longValuesAreCutShortInReasons() {
        let value = String(repeating: "z", count: 100)
        let reason = Self.reason(decodeLine(#"{"ts":1,"session":"s","type":"haptic","kind":"\#(value)"}"#))
        #expect(reason == "unknown haptic kind \"" + String(repeating: "z", count: 40) + "…\"")
    }
}
