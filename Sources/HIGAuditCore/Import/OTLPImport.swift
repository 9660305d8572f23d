/// OpenTelemetry logs in OTLP/JSON (SPEC §7): one `ExportLogsServiceRequest` a line,
/// `resourceLogs[].scopeLogs[].logRecords[]`, each record an event judged alone. The envelope is in the
/// record's attributes and its resource's; other fields are the record's attributes, typed
/// (`{"stringValue": …}`, `{"intValue": "…"}`, …). Automatic events: Embrace's `emb-screen-view` and
/// `emb-ui-tap`, and the semantic conventions' `device.app.lifecycle` (`ios.app.state`).
extension EventImporter {
    /// Where one log record's members are, and its resource's attributes: found from keys and
    /// attribute names alone (constant in a layout: `EventImporter.layoutConstantKeys`).
    ///
    /// Its places are kept in 32 bits each (`CompactTapeIndex`), as `KnownAttributes`' are: a record's
    /// places are copied as they are kept and handed out.
    struct OTLPRecordPlaces {
        var record: Int
        var resource: KnownAttributes
        @CompactTapeIndex var attributes: Int?
        var found = KnownAttributes()
        @CompactTapeIndex var eventName: Int?
        @CompactTapeIndex var timeUnixNano: Int?
        @CompactTapeIndex var observedTimeUnixNano: Int?
        /// Each attribute's `doubleValue` with the attribute's `key`, in order (`checkFinite`).
        var doubles: [(key: Int?, value: Int)] = []
        /// The envelope but its `ts` when the checks of `otlpEnvelopeKinds` pass (they look at the
        /// kinds of values, keys and attribute names only, which a layout's lines share), else nil.
        var checkedEnvelope: ImportedEnvelope?
    }

    /// A record's own fields among its attributes, relative to the record's entry, so that a later line
    /// of the same layout, whose places a memo keeps (`otlpMemo`), takes them as they are.
    struct OTLPRecordFields {
        /// Every attribute written as a field of the event's own (`writeOtherFields`), with the id
        /// kept, in order; those named as our fields (`eventField`) are also handed to the decoder
        /// (`assemblePending`), the id only with the id kept.
        var written: [WrittenAttribute] = []

        struct WrittenAttribute {
            var key: Int
            var value: OtherFieldValue
            /// Our field of the attribute's name, nil for none.
            var field: EventField?
            /// Whether the attribute is named `id`.
            var isId: Bool
        }

        /// Calls `body` with each of the record's own fields the decoder is handed, in order.
        @inline(__always)
        func forEachField(keepId: Bool, _ body: (OtherFieldPlace) -> Void) {
            for attribute in written {
                guard let field = attribute.field, keepId || !attribute.isId else { continue }
                body(OtherFieldPlace(field: field, key: attribute.key, value: attribute.value))
            }
        }
    }

    /// A line's records in order, where `resourceLogs` is.
    struct OTLPPlaces {
        var resourceLogs: Int?
        /// Where the request's frame is not OTLP/JSON's (a `scopeLogs` that is no array, an element
        /// of `resourceLogs` that is no object, …), and why: the line's records cannot all be found,
        /// so the line is malformed rather than read for the records that can.
        var misframed: (reason: String, entry: Int)?
        var records: [OTLPRecordPlaces] = []
        /// Beside `records`, each one's own fields.
        var recordFields: [OTLPRecordFields] = []
    }

    private func otlpPlaces() -> OTLPPlaces {
        var places = OTLPPlaces()
        places.resourceLogs = tape.member(0, "resourceLogs")
        guard let resourceLogs = places.resourceLogs, tape[resourceLogs].kind == .array else { return places }
        // Each list of records with its resource's attributes (the same for all its records: found
        // once), and how many records there are, so that the lists of places grow once.
        var lists: [(resource: KnownAttributes, records: Int)] = []
        var recordCount = 0
        func frames(_ index: Int, of kind: JSONTape.Kind, _ reason: @autoclosure () -> String) -> Bool {
            guard places.misframed == nil else { return false }
            guard tape[index].kind == kind else {
                places.misframed = (reason(), index)
                return false
            }
            return true
        }
        // A list that is null is empty, as OTLP/JSON reads a repeated field that is null.
        func list(_ object: Int, _ key: StaticString) -> Int? {
            guard let index = tape.member(object, key), tape[index].kind != .null else { return nil }
            return frames(index, of: .array, "\(key) is not an array") ? index : nil
        }
        tape.forEachElement(resourceLogs) { position, resourceLog in
            guard frames(resourceLog, of: .object, "element \(position) of resourceLogs is not an object") else { return }
            let resource = knownAttributes(tape.member(resourceLog, "resource", "attributes"))
            guard let scopeLogs = list(resourceLog, "scopeLogs") else { return }
            tape.forEachElement(scopeLogs) { position, scopeLog in
                guard frames(scopeLog, of: .object, "element \(position) of scopeLogs is not an object"),
                      let records = list(scopeLog, "logRecords")
                else { return }
                lists.append((resource, records))
                tape.forEachElement(records) { _, _ in recordCount += 1 }
            }
        }
        guard places.misframed == nil else { return places }
        places.records.reserveCapacity(recordCount)
        places.recordFields.reserveCapacity(recordCount)
        for list in lists {
            tape.forEachElement(list.records) { _, record in
                let (recordPlaces, fields) = recordPlaces(record, resource: list.resource)
                places.records.append(recordPlaces)
                places.recordFields.append(fields)
            }
        }
        return places
    }

    /// The places of the line a request reader read (`OTLPRequestReader`): what `otlpPlaces` finds
    /// on its tape. Written over `places`, whose lists (and each record's) are kept from line to line.
    func otlpPlaces(of parts: borrowing OTLPRequestParts, into places: inout OTLPPlaces) {
        places.resourceLogs = parts.resourceLogs
        places.misframed = parts.misframed
        let count = parts.records.count
        if places.records.count > count {
            places.records.removeSubrange(count...)
            places.recordFields.removeSubrange(count...)
        }
        // A copy of the list (its memory is the parts'), which the closures below may capture.
        let attributes = parts.attributes
        // A resource's records follow one another: its attributes are noted at its first.
        var resourceNumber = -1
        var resource = KnownAttributes()
        for index in parts.records.indices {
            let record = parts.records[index]
            if record.resource != resourceNumber {
                resourceNumber = record.resource
                resource = KnownAttributes()
                for index in parts.resources[resourceNumber].indices { noteKnown(attributes[index], in: &resource) }
            }
            if index == places.records.count {
                places.records.append(OTLPRecordPlaces(record: record.record, resource: resource))
                places.recordFields.append(OTLPRecordFields())
            }
            guard let members = record.members else {
                places.records[index] = OTLPRecordPlaces(record: record.record, resource: resource)
                places.recordFields[index] = OTLPRecordFields()
                continue
            }
            recordPlaces(record.record, resource: resource, members: members, into: &places.records[index], &places.recordFields[index]) { take in
                for index in record.attributes.indices { take(attributes[index]) }
            }
        }
    }

    /// The record's places (its resource's given, its envelope's kinds checked) and own fields, found
    /// in one pass over its members and one over its attributes (`recordMembers`, `attributeParts`), whatever their order.
    func recordPlaces(_ record: Int, resource: KnownAttributes) -> (OTLPRecordPlaces, OTLPRecordFields) {
        var places = OTLPRecordPlaces(record: record, resource: resource)
        var fields = OTLPRecordFields()
        guard tape[record].kind == .object else { return (places, fields) }
        let members = recordMembers(record)
        recordPlaces(record, resource: resource, members: members, into: &places, &fields) { take in
            guard let list = members.attributes, tape[list].kind == .array else { return }
            tape.forEachElement(list) { _, attribute in take(attributeParts(attribute)) }
        }
        return (places, fields)
    }

    /// Writes over `places` and `fields` (keeping their lists' memory) the places and own fields of the
    /// record at `record` (an object) of `members`, whose attributes (when `attributes` is an array)
    /// `attributes` hands over in order.
    @inline(__always)
    private func recordPlaces(
        _ record: Int, resource: KnownAttributes, members: RecordMembers,
        into places: inout OTLPRecordPlaces, _ fields: inout OTLPRecordFields,
        attributes: ((AttributeParts) -> Void) -> Void
    ) {
        places.record = record
        places.resource = resource
        places.attributes = members.attributes
        places.found = KnownAttributes()
        places.eventName = members.eventName
        places.timeUnixNano = members.timeUnixNano
        places.observedTimeUnixNano = members.observedTimeUnixNano
        // Most records hold no double: their list is left alone (emptying one is a generic call).
        if !places.doubles.isEmpty { places.doubles.removeAll(keepingCapacity: true) }
        places.checkedEnvelope = nil
        fields.written.removeAll(keepingCapacity: true)
        // The known attributes, the doubles and the fields in one pass, each place relative to the
        // record as it is found.
        attributes { parts in
            // The name's class, when the key is a string (else the attribute is neither).
            let name = parts.key.flatMap { tape[$0].kind == .string ? attributeNameClass($0) : nil }
            if let name { noteKnown(parts, named: name, in: &places.found) }
            if let double = parts.doubleValue { places.doubles.append((parts.key, double)) }
            guard let name, let (key, value) = otherFieldValue(parts, named: name, keepId: true) else { return }
            if fields.written.isEmpty { fields.written.reserveCapacity(8) }
            fields.written.append(.init(key: key &- record, value: value.moved(by: -record), field: name.field, isId: name.isId))
        }
        places.checkedEnvelope = try? otlpEnvelopeKinds(places.attributes, places.found, resource: resource)
    }

    /// Reads the line by `OTLPRequestReader` into the tape and its places into `requestPlaces`; false
    /// when it declines the line (the tape's entries are then not the line's: `JSONTape.read` reads it).
    func readOTLPRequest(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress else { return false }
        var reader = OTLPRequestReader(
            tape: tape, parts: requestParts, line: base.assumingMemoryBound(to: UInt8.self), count: line.count)
        // The reader's lists are then its own, and grow in place.
        requestParts = OTLPRequestParts()
        let read = reader.read()
        // The reader's tape may have grown its buffers: it is the importer's from now on.
        tape = reader.tape
        requestParts = reader.parts
        guard read else { return false }
        otlpPlaces(of: requestParts, into: &requestPlaces)
        return true
    }

    /// The records of the line on the tape; when `read`, a request reader found their places
    /// (`requestPlaces`).
    func otlpRecords(_ handle: (Int32, ImportedRecord) -> Bool, read: Bool = false) {
        // Places read without a layout are not kept: no later line could take them.
        let places = if read, lineLayout == nil { requestPlaces } else { otlpMemo.value(lineLayout) { read ? requestPlaces : otlpPlaces() } }
        guard let resourceLogs = places.resourceLogs else {
            _ = handle(0, .malformed(MalformedLine(reason: "missing resourceLogs (not an OTLP/JSON logs request)")))
            return
        }
        guard tape[resourceLogs].kind == .array else {
            _ = handle(0, .malformed(ImportProblem("resourceLogs is not an array", at: tape, resourceLogs).line))
            return
        }
        if let (reason, entry) = places.misframed {
            _ = handle(0, .malformed(ImportProblem(reason, at: tape, entry).line))
            return
        }
        lastRequestWasMany = places.records.count > 1
        var position: Int32 = 0
        let measuresRecords = Self.mayPassLineLimit(sourceBytes: sourceBytes)
        defer { otlpRecordFields = nil }
        // Each record's places are read where the list holds them, not copied out of it.
        places.records.withUnsafeBufferPointer { records in
            places.recordFields.withUnsafeBufferPointer { recordFields in
                for index in records.indices {
                    position += 1
                    let record = records.baseAddress! + index
                    otlpRecordFields = record.pointee.attributes.map { ($0, record.pointee.record, recordFields.baseAddress! + index) }
                    if measuresRecords { sourceBytes = recordSourceBytes(record.pointee.record, record.pointee.resource) }
                    let judged = otlpRecord(record)
                    // Only a line of a layout is planned (`planOTLPLayout`): the others skip the match's copy.
                    if records.count == 1, lineLayout != nil, case .mapped(.convention, let envelope, let fields) = judged {
                        planOTLPLayout(record.pointee, envelope, fields)
                    }
                    emit(record: position, judged, handle)
                }
            }
        }
    }

    /// Plans the layout of the line just read, a request of one record that carried a convention event
    /// (`ConventionPlan`): its name, time and doubles are checked on every line. A layout of more
    /// records is not planned: such lines hardly repeat.
    private func planOTLPLayout(_ places: borrowing OTLPRecordPlaces, _ envelope: ImportedEnvelope, _ fields: ImportedFields) {
        guard let layout = lineLayout else { return }
        planOTLPRecord(
            PlanTarget(layouts: layouts, layout: layout, plans: plans, firstEntry: 0, takesResource: false), places, envelope,
            fields)
    }

    /// Plans `target`'s layout from the record just read at `places`, which carried a convention event.
    /// A plan that takes its resource's attributes (a record of a request of many) plans no device,
    /// app version or OS version of its own.
    func planOTLPRecord(
        _ target: PlanTarget, _ places: borrowing OTLPRecordPlaces, _ envelope: ImportedEnvelope, _ fields: ImportedFields
    ) {
        guard readsPlans, target.plans.kept(for: target.layout) == nil else { return }
        // The name is `eventName` or the attribute `event.name`; where both are, they must be alike.
        let attributeName = (try? attributeString(places.found.eventName, "event.name")) ?? nil
        guard let name = places.eventName ?? attributeName else { return }
        let secondName = places.eventName == nil ? nil : attributeName
        let time: ConventionPlan.Time
        if let index = places.timeUnixNano {
            // A record whose `timeUnixNano` is 0 is dated by `observedTimeUnixNano`: not planned.
            guard let nanos = tape.integer(index), nanos > 0 else { return }
            time = .nanoseconds(index, isString: tape[index].kind == .string)
        } else if let index = places.observedTimeUnixNano {
            time = .nanoseconds(index, isString: tape[index].kind == .string)
        } else {
            return
        }
        var envelope = envelope
        if target.takesResource {
            envelope.device = nil
            envelope.appVersion = nil
            envelope.osVersion = nil
        }
        planLayout(
            target, name: name, secondName: secondName, time: time, guards: [], finite: places.doubles.map(\.value), envelope,
            fields)
    }

    /// Judges the record whose places `places` points at (a pointer: a place in a list, or a borrowed
    /// value, read where it is rather than copied for the call).
    func otlpRecord(_ places: UnsafePointer<OTLPRecordPlaces>) -> Judged {
        let record = places.pointee.record
        guard tape[record].kind == .object else { return .problem(ImportProblem("the log record is not an object", at: tape, record)) }
        let attributes = places.pointee.attributes
        let found = places.pointee.found
        do throws(ImportProblem) {
            let eventName = try tape.optionalString(places.pointee.eventName, name: "eventName")
            let attributeName = try attributeString(found.eventName, "event.name")
            if let eventName, let attributeName, tape.string(eventName) != tape.string(attributeName) {
                throw ImportProblem("eventName and the attribute event.name differ", at: tape, eventName)
            }
            guard let nameIndex = eventName ?? attributeName else {
                throw ImportProblem("missing eventName (or the attribute event.name)")
            }
            let mapping: ImportedMapping
            if let kind = ConventionName.kind(tape, nameIndex) {
                mapping = .convention(kind)
            } else {
                let name = tape.string(nameIndex)
                switch name {
                case "emb-screen-view":
                    let screenName = try attributeString(found.screenName, "screen.name")
                    let viewName = try attributeString(found.viewName, "view.name")
                    guard let screen = screenName ?? viewName else {
                        throw ImportProblem("missing the attribute screen.name of a screen view")
                    }
                    mapping = .screenView(tape.string(screen))
                case "emb-ui-tap":
                    let viewName = try attributeString(found.viewName, "view.name")
                    let widgetName = try attributeString(found.widgetName, "app.widget.name")
                    mapping = .tap(target: (viewName ?? widgetName).map { tape.string($0) }, x: nil, y: nil)
                case "device.app.lifecycle":
                    let state = try attributeString(found.appState, "ios.app.state").map { tape.string($0) } ?? ""
                    switch state {
                    case "foreground": mapping = .launch
                    case "background", "terminate": mapping = .background
                    default: return .unknown("device.app.lifecycle:\(state)")
                    }
                default:
                    return .unknown(name)
                }
            }
            return .mapped(mapping, try otlpEnvelope(places, attributes: attributes, found, resource: places.pointee.resource), .attributes)
        } catch {
            return .problem(error)
        }
    }

    /// The envelope, checked in this order: the time (the line's own values), the kinds of the
    /// envelope's attributes (`otlpEnvelopeKinds`, which lines of a layout whose line passed them pass
    /// too: `OTLPRecordPlaces.checkedEnvelope`), then the doubles (values again).
    private func otlpEnvelope(
        _ places: UnsafePointer<OTLPRecordPlaces>, attributes: Int?, _ found: KnownAttributes, resource: KnownAttributes
    ) throws(ImportProblem) -> ImportedEnvelope {
        var nanos: Int64 = 0
        func nanoseconds(_ index: Int, _ key: StaticString) throws(ImportProblem) -> Int64 {
            guard let value = tape.integer(index), value >= 0 else {
                throw ImportProblem("\(key) is not an integer of nanoseconds", at: tape, index)
            }
            return value
        }
        if let index = places.pointee.timeUnixNano { nanos = try nanoseconds(index, "timeUnixNano") }
        if nanos == 0, let index = places.pointee.observedTimeUnixNano { nanos = try nanoseconds(index, "observedTimeUnixNano") }
        guard nanos > 0 else { throw ImportProblem("no timeUnixNano or observedTimeUnixNano") }
        var envelope: ImportedEnvelope
        if let checked = places.pointee.checkedEnvelope {
            envelope = checked
        } else {
            envelope = try otlpEnvelopeKinds(attributes, found, resource: resource)
        }
        envelope.ts = nanos / 1_000_000
        try checkFinite(places.pointee.doubles)
        return envelope
    }

    /// The envelope's attributes but the time, each checked to be of its kind: a function of the
    /// kinds of the line's values, its keys and its attribute names, nothing else.
    private func otlpEnvelopeKinds(
        _ attributes: Int?, _ found: KnownAttributes, resource: KnownAttributes
    ) throws(ImportProblem) -> ImportedEnvelope {
        var envelope = ImportedEnvelope()
        guard let session = try attributeString(found.sessionId, "session.id") else { throw ImportProblem("missing the attribute session.id") }
        envelope.session = session
        envelope.device = try attributeString(resource.deviceId, "device.id")
        envelope.appVersion = try attributeString(resource.serviceVersion, "service.version")
        envelope.osVersion = try attributeString(resource.osVersion, "os.version")
        envelope.screen = try attributeString(found.screenName, "screen.name")
        envelope.id = try attributeString(found.recordUid, "log.record.uid")
        envelope.fields = attributes
        return envelope
    }

    /// SPEC §7: numbers that are not finite are malformed. OTLP/JSON spells such doubles as strings
    /// (`"NaN"`, `"Infinity"`, `"-Infinity"`), and a literal too large for a double is infinite too.
    ///
    /// Of several, the first in the export's line is told: a line read with its attributes in the
    /// order of their names (`OTLPAttributeOrder`) may hold them in another order.
    private func checkFinite(_ doubles: [(key: Int?, value: Int)]) throws(ImportProblem) {
        var first: (key: Int?, value: Int, column: Int)?
        for (key, double) in doubles where tape[double].kind != .number || !tape.double(double).isFinite {
            let start = Int(tape[double].start)
            let column = attributeOrder.reordered ? attributeOrder.sourceColumn(start) : start
            if first.map({ column < $0.column }) ?? true { first = (key, double, column) }
            if !attributeOrder.reordered { break }
        }
        guard let first else { return }
        let name = first.key.map { tape.string($0) } ?? "?"
        throw ImportProblem("the attribute \(name) is not a finite number", at: tape, first.value)
    }

    /// The typed values (`{"stringValue": …}`…) of the attributes the importer reads: of each key, the
    /// `value` of the first attribute of that key that has one.
    ///
    /// Each kept in a 32-bit entry (`CompactTapeIndex`), not an optional word: a record's places hold
    /// two of these and are copied as they are kept and handed out.
    struct KnownAttributes {
        @CompactTapeIndex var eventName: Int?
        @CompactTapeIndex var sessionId: Int?
        @CompactTapeIndex var screenName: Int?
        @CompactTapeIndex var viewName: Int?
        @CompactTapeIndex var widgetName: Int?
        @CompactTapeIndex var appState: Int?
        @CompactTapeIndex var recordUid: Int?
        @CompactTapeIndex var deviceId: Int?
        @CompactTapeIndex var serviceVersion: Int?
        @CompactTapeIndex var osVersion: Int?
    }

    /// `KnownAttributes` of the list at `list`, in one pass over it, not one pass a key.
    func knownAttributes(_ list: Int?) -> KnownAttributes {
        var found = KnownAttributes()
        guard let list, tape[list].kind == .array else { return found }
        tape.forEachElement(list) { _, attribute in noteKnown(attributeParts(attribute), in: &found) }
        return found
    }

    /// The `stringValue` of the attribute `key` whose typed value is at `value`: nil when absent, a
    /// problem when of another type.
    @inline(__always)
    func attributeString(_ value: Int?, _ key: StaticString) throws(ImportProblem) -> Int? {
        guard let value else { return nil }
        let object = tape[value]
        guard object.kind == .object else { return nil }
        // Nearly always the value's only member, and so the first of its name.
        if Int(object.after) > value &+ 2, tape.keyEquals(value &+ 1, "stringValue"), tape[value &+ 2].kind == .string {
            return value &+ 2
        }
        return try attributeStringLookedUp(value, key)
    }

    private func attributeStringLookedUp(_ value: Int, _ key: StaticString) throws(ImportProblem) -> Int? {
        guard let string = tape.member(value, "stringValue"), tape[string].kind == .string else {
            throw ImportProblem("the attribute \(key) is not a string (stringValue)", at: tape, value)
        }
        return string
    }

    /// Attribute keys the envelope reads, never written as other fields.
    private static let envelopeAttributes: [StaticString] = ["session.id", "screen.name", "event.name", "log.record.uid"]
    private static let envelopeKeys: [StaticString] = ["ts", "session", "type", "device", "app_version", "os_version", "screen"]
    /// `envelopeAttributes` and `envelopeKeys` by their length in bytes: an attribute's key, compared
    /// with each of the lists, cost more than the rest of its reading.
    private static let leftOutByLength: [[StaticString]] = {
        var byLength = [[StaticString]](repeating: [], count: 16)
        for name in envelopeAttributes + envelopeKeys { byLength[name.utf8CodeUnitCount].append(name) }
        return byLength
    }()

    /// Whether the attribute named by the key at `key` is read by the envelope, and so is not written
    /// as a field of its own (the `id`, which is unless kept, is told apart by `AttributeNameClass.isId`).
    func isLeftOutAttribute(_ key: Int) -> Bool {
        if tape[key].flag {
            // An escaped key: compared as `String`s compare.
            return Self.envelopeAttributes.contains(where: { tape.keyEquals(key, $0) })
                || Self.envelopeKeys.contains(where: { tape.keyEquals(key, $0) })
        }
        let raw = tape.bytes(key)
        guard raw.count < Self.leftOutByLength.count, let start = raw.baseAddress else { return false }
        let bytes = ByteSlice(start: start, count: raw.count)
        return Self.leftOutByLength[raw.count].contains { bytes == $0 }
    }

    /// Each attribute as a field of its own JSON type: `intValue` (a string or a number) as an
    /// integer, `doubleValue` as a number, `boolValue`, `stringValue`; other kinds (arrays, maps,
    /// bytes) have no field of ours and are left out.
    func forEachAttribute(_ list: Int, keepId: Bool, _ body: (Int, OtherFieldValue) -> Void) {
        tape.forEachElement(list) { _, attribute in
            if let (key, value) = otherFieldValue(attributeParts(attribute), keepId: keepId) { body(key, value) }
        }
    }

    /// The integer an `intValue` at `index` holds (a string of digits or a JSON integer), or nil.
    func integerAttribute(_ index: Int) -> Int64? {
        guard let base = tape.base else { return nil }
        return Self.integerAttribute(tape[index], known: tape.knownNumber(index), in: base)
    }

    /// `integerAttribute` of `entry` in the line at `base`, `known` being its number as a match read it:
    /// also for a value a layout's match found (`ConventionPlan`), which no tape holds.
    static func integerAttribute(_ entry: JSONTape.Entry, known: Double, in base: UnsafePointer<UInt8>) -> Int64? {
        if let integer = JSONTape.integer(entry, known: known, in: base) { return integer }
        // A negative integer written as a string (`"-3"`): its raw bytes begin with the sign.
        guard entry.kind == .string, entry.end > entry.start, base[Int(entry.start)] == 0x2D else { return nil }
        return Int64(JSONTape.string(entry, in: base))
    }
}

/// A tape entry's index in 32 bits, -1 for none: entries are counted in 32 bits (`JSONTape.Entry.after`).
@propertyWrapper
struct CompactTapeIndex {
    private var stored: Int32

    init(wrappedValue: Int? = nil) {
        stored = wrappedValue.map { Int32(truncatingIfNeeded: $0) } ?? -1
    }

    var wrappedValue: Int? {
        get { stored < 0 ? nil : Int(stored) }
        set { stored = newValue.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
    }
}
