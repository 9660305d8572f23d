import Testing
@testable import HIGAuditCore

/// The schema (`EventSchema`) is the one declaration of the event types; the decoder's mapping to
/// `EventPayload` is written by hand. These tests hold the two together for every type, from lines
/// built out of the schema alone: what the schema calls required, optional or defaulted is what the
/// decoder does, and the payload holds exactly the schema's fields.
@Suite struct EventSchemaTests {
    @Test func theSchemaBreaksNothingTheDecoderAssumes() {
        #expect(EventSchema.problems(types: EventSchema.types, common: EventSchema.commonFields) == [])
        #expect(EventField.count == EventField.allCases.count)
        #expect(EventSchema.types.count == EventKind.allCases.count)
    }

    @Test func theCheckNamesWhatIsBroken() {
        let touch = EventKind.touch.schema
        let twice = EventTypeSchema("touch", [FieldSchema(.phase, .string, .required), FieldSchema(.phase, .string, .optional)])
        let redeclared = EventTypeSchema("other", [FieldSchema(.session, .string, .required)])
        let problems = EventSchema.problems(types: [touch, twice, redeclared], common: EventSchema.commonFields)
        #expect(problems.contains("types 0 and 1 share the wire name \"touch\""))
        #expect(problems.contains("\"touch\" names a field twice"))
        #expect(problems.contains("\"other\" redeclares the common field \"session\""))
        // Keys only other types read are unread in this schema of three.
        #expect(problems.contains("the key \"widget\" is declared but no entry reads it"))
    }

    /// A value of the field's type, as JSON.
    static func validValue(_ type: FieldValueType) -> String {
        switch type {
        case .timestamp: #""2026-11-20T21:04:05.123Z""#
        case .string, .nonEmptyString: #""v-1""#
        case .bool: "false"
        case .number, .nonNegativeNumber: "2.5"
        case .oneOf(let values), .oneOfOrCustom(let values): "\"\(values.last!)\""
        }
    }

    /// A value of the wrong JSON type for the field.
    static func wrongValue(_ type: FieldValueType) -> String {
        switch type {
        case .bool: #""yes""#
        default: "[1]"
        }
    }

    /// A line of the type with every field the schema gives it, `field` replaced by `value` (or left
    /// out when `value` is nil).
    static func line(_ kind: EventKind, replacing field: EventField? = nil, with value: String? = nil) -> String {
        var members = [#""ts":"2026-11-20T21:04:05.123Z""#, #""session":"s1""#, "\"type\":\"\(kind.wireName)\""]
        for entry in kind.schema.fields {
            if entry.field == field {
                if let value { members.append("\"\(entry.field.key)\":\(value)") }
            } else {
                members.append("\"\(entry.field.key)\":\(validValue(entry.value))")
            }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test(arguments: EventKind.allCases)
    func theDecoderReadsEachTypeAsItsEntrySays(kind: EventKind) {
        guard let event = decodedEvent(Self.line(kind)) else { return }
        #expect(event.kind == kind)
        // The payload holds the schema's fields, no more, no fewer (its labels are the keys).
        #expect(Set(event.payload.valuesByKey.keys) == Set(kind.schema.fields.map { $0.field.key.description }))
        for entry in kind.schema.fields {
            let key = entry.field.key.description
            switch entry.presence {
            case .required:
                #expect(decodeLine(Self.line(kind, replacing: entry.field, with: nil))
                    == .malformed(MalformedLine(reason: "missing required field \"\(key)\"")))
            case .optional:
                let absent = decodedEvent(Self.line(kind, replacing: entry.field, with: nil))
                #expect(absent?.payload.valuesByKey[key] == nil, "\(key)")
                #expect(decodedEvent(Self.line(kind, replacing: entry.field, with: "null")) == absent)
            case .defaulted(let defaultValue):
                let absent = decodedEvent(Self.line(kind, replacing: entry.field, with: nil))
                #expect(absent?.payload.valuesByKey[key]?.plainText == defaultValue, "\(key)")
                #expect(decodedEvent(Self.line(kind, replacing: entry.field, with: "null")) == absent)
            }
            guard case .malformed(let problem) = decodeLine(Self.line(kind, replacing: entry.field, with: Self.wrongValue(entry.value)))
            else {
                Issue.record("\(kind.wireName): a wrong type for \(key) was accepted")
                continue
            }
            #expect(problem.reason.contains("\"\(key)\""), "\(problem.reason)")
        }
    }

    @Test func showPrintsTheSchemasFieldsInItsOrder() throws {
        let event = try #require(decodedEvent(
            #"{"ts":1,"session":"s","type":"touch","y":2,"x":1.5,"input":"finger","target":"tab:A","phase":"began"}"#))
        #expect(event.typeFieldsText == "phase=began target=tab:A x=1.5 y=2")
        let pencil = try #require(decodedEvent(#"{"ts":1,"session":"s","type":"touch","phase":"ended","input":"pencil"}"#))
        #expect(pencil.typeFieldsText == "phase=ended input=pencil")
        let start = try #require(decodedEvent(#"{"ts":1,"session":"s","type":"session.start"}"#))
        #expect(start.typeFieldsText
            == "haptics_enabled=true pencil_preferred_action=switch_eraser pencil_custom_action_enabled=false touches=all synthetic=false")
        let tap = try #require(decodedEvent(#"{"ts":1,"session":"s","type":"pencil.double_tap","action":"custom:lasso"}"#))
        #expect(tap.typeFieldsText == "action=custom:lasso")
        let end = try #require(decodedEvent(#"{"ts":1,"session":"s","type":"loading.end","id":"thumbs"}"#))
        #expect(end.typeFieldsText == "id=thumbs")
    }

    @Test func labelsBecomeKeys() {
        #expect(EventPayload.wireKey("durationMs") == "duration_ms")
        #expect(EventPayload.wireKey("pencilCustomActionEnabled") == "pencil_custom_action_enabled")
        #expect(EventPayload.wireKey("to") == "to")
    }
}
