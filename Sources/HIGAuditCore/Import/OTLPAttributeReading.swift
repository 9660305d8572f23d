/// OTLP records read in one pass over their members and attributes, by name, whatever their order.
///
/// Why: an exporter of OpenTelemetry Swift writes a record's attributes in the order of a Swift
/// dictionary, which differs from one dictionary to the next (its seed is per instance), so such
/// records seldom repeat a layout and are read the general way. Looking each attribute
/// and member up by key walked a record's attributes once a name, and each attribute's members
/// once a typed value; one walk finds them all, each the first of its name, as those look-ups did.
extension EventImporter {
    /// The attributes `KnownAttributes` keeps, as the names of OTLP attributes (SPEC §7).
    enum KnownAttributeName {
        case eventName, sessionId, screenName, viewName, widgetName, appState, recordUid
        case deviceId, serviceVersion, osVersion

        /// The known attribute named by the string at `name`, compared unescaped.
        static func of(_ tape: borrowing JSONTape, _ name: Int) -> Self? {
            let entry = tape[name]
            if entry.flag { return ofEscaped(tape, name) }
            guard let base = tape.base else { return nil }
            let bytes = ByteSlice(start: base + Int(entry.start), count: Int(entry.end &- entry.start))
            switch bytes.count {
            case 9: return bytes == "view.name" ? .viewName : bytes == "device.id" ? .deviceId : nil
            case 10:
                return bytes == "session.id" ? .sessionId : bytes == "event.name" ? .eventName
                    : bytes == "os.version" ? .osVersion : nil
            case 11: return bytes == "screen.name" ? .screenName : nil
            case 13: return bytes == "ios.app.state" ? .appState : nil
            case 14: return bytes == "log.record.uid" ? .recordUid : nil
            case 15: return bytes == "app.widget.name" ? .widgetName : bytes == "service.version" ? .serviceVersion : nil
            default: return nil
            }
        }

        @inline(never)
        private static func ofEscaped(_ tape: borrowing JSONTape, _ name: Int) -> Self? {
            let names: [(StaticString, Self)] = [
                ("session.id", .sessionId), ("screen.name", .screenName), ("log.record.uid", .recordUid),
                ("event.name", .eventName), ("view.name", .viewName), ("app.widget.name", .widgetName),
                ("ios.app.state", .appState), ("device.id", .deviceId), ("service.version", .serviceVersion),
                ("os.version", .osVersion),
            ]
            for (literal, known) in names where tape.keyEquals(name, literal) { return known }
            return nil
        }
    }

    /// One attribute's parts: its `key` and `value` members (the first of each name), and of the
    /// value, an object, its typed members (the first of each name).
    ///
    /// Each kept in 32 bits (`CompactTapeIndex`): a request reader keeps every attribute's parts of a line.
    struct AttributeParts {
        @CompactTapeIndex var key: Int?
        @CompactTapeIndex var value: Int?
        @CompactTapeIndex var stringValue: Int?
        @CompactTapeIndex var intValue: Int?
        @CompactTapeIndex var doubleValue: Int?
        @CompactTapeIndex var boolValue: Int?
    }

    /// The parts of the attribute at `attribute` (none when it is no object), in one walk over its
    /// members and one over its value's.
    @inline(__always)
    func attributeParts(_ attribute: Int) -> AttributeParts {
        var parts = AttributeParts()
        tape.forEachMember(attribute) { key, value in
            if parts.key == nil, tape.keyEquals(key, "key") {
                parts.key = value
            } else if parts.value == nil, tape.keyEquals(key, "value") {
                parts.value = value
            }
        }
        if let value = parts.value {
            tape.forEachMember(value) { key, typed in
                switch tape[key].end &- tape[key].start {
                case 11 where !tape[key].flag:
                    if parts.stringValue == nil, tape.keyEquals(key, "stringValue") { parts.stringValue = typed }
                    else if parts.doubleValue == nil, tape.keyEquals(key, "doubleValue") { parts.doubleValue = typed }
                case 8 where !tape[key].flag:
                    if parts.intValue == nil, tape.keyEquals(key, "intValue") { parts.intValue = typed }
                case 9 where !tape[key].flag:
                    if parts.boolValue == nil, tape.keyEquals(key, "boolValue") { parts.boolValue = typed }
                default:
                    guard tape[key].flag else { return }
                    if parts.stringValue == nil, tape.keyEquals(key, "stringValue") { parts.stringValue = typed }
                    else if parts.doubleValue == nil, tape.keyEquals(key, "doubleValue") { parts.doubleValue = typed }
                    else if parts.intValue == nil, tape.keyEquals(key, "intValue") { parts.intValue = typed }
                    else if parts.boolValue == nil, tape.keyEquals(key, "boolValue") { parts.boolValue = typed }
                }
            }
        }
        return parts
    }

    /// Notes the attribute's value among `found` when its name is a known one not noted yet: of each
    /// name, the value of the first attribute of that name that has one.
    @inline(__always)
    func noteKnown(_ parts: AttributeParts, in found: inout KnownAttributes) {
        guard let name = parts.key, tape[name].kind == .string else { return }
        noteKnown(parts, named: attributeNameClass(name), in: &found)
    }

    /// `noteKnown` of an attribute whose key is a string of the class `name`.
    @inline(__always)
    func noteKnown(_ parts: AttributeParts, named name: AttributeNameClass, in found: inout KnownAttributes) {
        guard let value = parts.value, let known = name.known else { return }
        switch known {
        case .eventName: if found.eventName == nil { found.eventName = value }
        case .sessionId: if found.sessionId == nil { found.sessionId = value }
        case .screenName: if found.screenName == nil { found.screenName = value }
        case .viewName: if found.viewName == nil { found.viewName = value }
        case .widgetName: if found.widgetName == nil { found.widgetName = value }
        case .appState: if found.appState == nil { found.appState = value }
        case .recordUid: if found.recordUid == nil { found.recordUid = value }
        case .deviceId: if found.deviceId == nil { found.deviceId = value }
        case .serviceVersion: if found.serviceVersion == nil { found.serviceVersion = value }
        case .osVersion: if found.osVersion == nil { found.osVersion = value }
        }
    }

    /// The attribute as one of the event's own fields (`forEachAttribute`), or nil when it is none: a
    /// string key, an object value, not read by the envelope, of a typed value written as a field.
    @inline(__always)
    func otherFieldValue(_ parts: AttributeParts, keepId: Bool) -> (key: Int, value: OtherFieldValue)? {
        guard let key = parts.key, tape[key].kind == .string else { return nil }
        return otherFieldValue(parts, named: attributeNameClass(key), keepId: keepId)
    }

    /// `otherFieldValue` of an attribute whose key is a string of the class `name`.
    @inline(__always)
    func otherFieldValue(_ parts: AttributeParts, named name: AttributeNameClass, keepId: Bool) -> (key: Int, value: OtherFieldValue)? {
        guard let key = parts.key, let value = parts.value, tape[value].kind == .object, !name.leftOut, keepId || !name.isId
        else { return nil }
        if let string = parts.stringValue { return (key, .asItStands(string)) }
        if let integer = parts.intValue { return (key, .intValue(integer)) }
        // A string here is a non-finite double ("NaN", "Infinity"), refused before writing.
        if let double = parts.doubleValue { return tape[double].kind == .number ? (key, .asItStands(double)) : nil }
        if let bool = parts.boolValue { return (key, .asItStands(bool)) }
        return nil
    }

    /// A record's members the importer reads, each the first of its name.
    struct RecordMembers {
        var attributes: Int?
        var eventName: Int?
        var timeUnixNano: Int?
        var observedTimeUnixNano: Int?
    }

    /// `RecordMembers` of the record at `record`, in one walk over its members.
    func recordMembers(_ record: Int) -> RecordMembers {
        var members = RecordMembers()
        tape.forEachMember(record) { key, value in
            if tape[key].flag {
                if members.attributes == nil, tape.keyEquals(key, "attributes") { members.attributes = value }
                else if members.eventName == nil, tape.keyEquals(key, "eventName") { members.eventName = value }
                else if members.timeUnixNano == nil, tape.keyEquals(key, "timeUnixNano") { members.timeUnixNano = value }
                else if members.observedTimeUnixNano == nil, tape.keyEquals(key, "observedTimeUnixNano") {
                    members.observedTimeUnixNano = value
                }
                return
            }
            switch tape[key].end &- tape[key].start {
            case 10: if members.attributes == nil, tape.keyEquals(key, "attributes") { members.attributes = value }
            case 9: if members.eventName == nil, tape.keyEquals(key, "eventName") { members.eventName = value }
            case 12: if members.timeUnixNano == nil, tape.keyEquals(key, "timeUnixNano") { members.timeUnixNano = value }
            case 20:
                if members.observedTimeUnixNano == nil, tape.keyEquals(key, "observedTimeUnixNano") {
                    members.observedTimeUnixNano = value
                }
            default: break
            }
        }
        return members
    }
}
