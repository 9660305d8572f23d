/// OpenTelemetry logs in OTLP/JSON (SPEC §7): one `ExportLogsServiceRequest` a line,
/// `resourceLogs[].scopeLogs[].logRecords[]`, each record an event judged alone. The envelope is in the
/// record's attributes and its resource's; other fields are the record's attributes, typed
/// (`{"stringValue": …}`, `{"intValue": "…"}`, …). Automatic events: Embrace's `emb-screen-view` and
/// `emb-ui-tap`, and the semantic conventions' `device.app.lifecycle` (`ios.app.state`).
extension EventImporter {
    func otlpRecords(_ handle: (Int32, ImportedRecord) -> Bool) {
        guard let resourceLogs = tape.member(0, "resourceLogs") else {
            _ = handle(0, .malformed(MalformedLine(reason: "missing resourceLogs (not an OTLP/JSON logs request)")))
            return
        }
        guard tape[resourceLogs].kind == .array else {
            _ = handle(0, .malformed(ImportProblem("resourceLogs is not an array", at: tape, resourceLogs).line))
            return
        }
        var position: Int32 = 0
        tape.forEachElement(resourceLogs) { _, resourceLog in
            let resource = tape.member(resourceLog, "resource", "attributes")
            guard let scopeLogs = tape.member(resourceLog, "scopeLogs") else { return }
            tape.forEachElement(scopeLogs) { _, scopeLog in
                guard let records = tape.member(scopeLog, "logRecords") else { return }
                tape.forEachElement(records) { _, record in
                    position += 1
                    emit(record: position, otlpRecord(record, resource: resource), handle)
                }
            }
        }
    }

    private func otlpRecord(_ record: Int, resource: Int?) -> Judged {
        guard tape[record].kind == .object else { return .problem(ImportProblem("the log record is not an object", at: tape, record)) }
        let attributes = tape.member(record, "attributes")
        do throws(ImportProblem) {
            let eventName = try tape.optionalString(record, "eventName", name: "eventName")
            let attributeName = try attributeString(attributes, "event.name")
            if let eventName, let attributeName, tape.string(eventName) != tape.string(attributeName) {
                throw ImportProblem("eventName and the attribute event.name differ", at: tape, eventName)
            }
            guard let nameIndex = eventName ?? attributeName else {
                throw ImportProblem("missing eventName (or the attribute event.name)")
            }
            let name = tape.string(nameIndex)
            let mapping: ImportedMapping
            if let kind = ConventionName.kind(name) {
                mapping = .convention(kind)
            } else {
                switch name {
                case "emb-screen-view":
                    let screenName = try attributeString(attributes, "screen.name")
                    let viewName = try attributeString(attributes, "view.name")
                    guard let screen = screenName ?? viewName else {
                        throw ImportProblem("missing the attribute screen.name of a screen view")
                    }
                    mapping = .screenView(tape.string(screen))
                case "emb-ui-tap":
                    let viewName = try attributeString(attributes, "view.name")
                    let widgetName = try attributeString(attributes, "app.widget.name")
                    mapping = .tap(target: (viewName ?? widgetName).map { tape.string($0) }, x: nil, y: nil)
                case "device.app.lifecycle":
                    let state = try attributeString(attributes, "ios.app.state").map { tape.string($0) } ?? ""
                    switch state {
                    case "foreground": mapping = .launch
                    case "background", "terminate": mapping = .background
                    default: return .unknown("device.app.lifecycle:\(state)")
                    }
                default:
                    return .unknown(name)
                }
            }
            return .mapped(mapping, try otlpEnvelope(record, attributes: attributes, resource: resource), .attributes)
        } catch {
            return .problem(error)
        }
    }

    private func otlpEnvelope(_ record: Int, attributes: Int?, resource: Int?) throws(ImportProblem) -> ImportedEnvelope {
        var envelope = ImportedEnvelope()
        var nanos: Int64 = 0
        for key: StaticString in ["timeUnixNano", "observedTimeUnixNano"] where nanos == 0 {
            guard let index = tape.member(record, key) else { continue }
            guard let value = tape.integer(index), value >= 0 else {
                throw ImportProblem("\(key) is not an integer of nanoseconds", at: tape, index)
            }
            nanos = value
        }
        guard nanos > 0 else { throw ImportProblem("no timeUnixNano or observedTimeUnixNano") }
        envelope.ts = nanos / 1_000_000
        guard let session = try attributeString(attributes, "session.id") else { throw ImportProblem("missing the attribute session.id") }
        envelope.session = session
        envelope.device = try attributeString(resource, "device.id")
        envelope.appVersion = try attributeString(resource, "service.version")
        envelope.osVersion = try attributeString(resource, "os.version")
        envelope.screen = try attributeString(attributes, "screen.name")
        envelope.id = try attributeString(attributes, "log.record.uid")
        envelope.fields = attributes
        try checkFinite(attributes)
        return envelope
    }

    /// SPEC §7: numbers that are not finite are malformed. OTLP/JSON spells such doubles as strings
    /// (`"NaN"`, `"Infinity"`, `"-Infinity"`), and a literal too large for a double is infinite too.
    private func checkFinite(_ list: Int?) throws(ImportProblem) {
        guard let list, tape[list].kind == .array else { return }
        var problem: ImportProblem?
        tape.forEachElement(list) { _, attribute in
            guard problem == nil, let value = tape.member(attribute, "value"),
                  let double = tape.member(value, "doubleValue") else { return }
            let key = tape.member(attribute, "key").map { tape.string($0) } ?? "?"
            if tape[double].kind != .number || !tape.double(double).isFinite {
                problem = ImportProblem("the attribute \(key) is not a finite number", at: tape, double)
            }
        }
        if let problem { throw problem }
    }

    /// The typed value (`{"stringValue": …}`…) of the attribute `key` in the list at `list`.
    private func attributeValue(_ list: Int?, _ key: StaticString) -> Int? {
        guard let list, tape[list].kind == .array else { return nil }
        var found: Int?
        tape.forEachElement(list) { _, attribute in
            guard found == nil, let name = tape.member(attribute, "key"), tape[name].kind == .string, tape.keyEquals(name, key) else { return }
            found = tape.member(attribute, "value")
        }
        return found
    }

    /// The `stringValue` of the attribute `key`: nil when absent, a problem when of another type.
    private func attributeString(_ list: Int?, _ key: StaticString) throws(ImportProblem) -> Int? {
        guard let value = attributeValue(list, key), tape[value].kind == .object else { return nil }
        guard let string = tape.member(value, "stringValue"), tape[string].kind == .string else {
            throw ImportProblem("the attribute \(key) is not a string (stringValue)", at: tape, value)
        }
        return string
    }

    /// Attribute keys the envelope reads, never written as other fields.
    private static let envelopeAttributes: [StaticString] = ["session.id", "screen.name", "event.name", "log.record.uid"]
    private static let envelopeKeys: [StaticString] = ["ts", "session", "type", "device", "app_version", "os_version", "screen"]

    /// Writes each attribute as a field of its own JSON type: `intValue` (a string or a number) as an
    /// integer, `doubleValue` as a number, `boolValue`, `stringValue`; other kinds (arrays, maps,
    /// bytes) have no field of ours and are left out.
    func writeAttributes(_ list: Int, keepId: Bool) {
        tape.forEachElement(list) { _, attribute in
            guard let key = tape.member(attribute, "key"), tape[key].kind == .string,
                  let value = tape.member(attribute, "value"), tape[value].kind == .object else { return }
            if Self.envelopeAttributes.contains(where: { tape.keyEquals(key, $0) }) { return }
            if Self.envelopeKeys.contains(where: { tape.keyEquals(key, $0) }) { return }
            if !keepId, tape.keyEquals(key, "id") { return }
            if let string = tape.member(value, "stringValue") {
                writerMember(key, string)
            } else if let integer = tape.member(value, "intValue") {
                if let number = tape.integer(integer) ?? negativeInteger(integer) {
                    writerInteger(key, number)
                } else {
                    writerMember(key, integer)
                }
            } else if let double = tape.member(value, "doubleValue") {
                // A string here is a non-finite double ("NaN", "Infinity"), refused before writing.
                if tape[double].kind == .number { writerMember(key, double) }
            } else if let bool = tape.member(value, "boolValue") {
                writerMember(key, bool)
            }
        }
    }

    private func negativeInteger(_ index: Int) -> Int64? {
        guard tape[index].kind == .string, tape.hasPrefix(index, "-") else { return nil }
        let text = tape.string(index)
        return Int64(text)
    }
}
