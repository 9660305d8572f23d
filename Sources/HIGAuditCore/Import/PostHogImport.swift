/// PostHog's event export (SPEC §7): `{"uuid", "event", "timestamp", "properties": {…}}` a line, the
/// envelope in `properties.$…`, other fields in `properties`. Automatic events of posthog-ios:
/// `$screen` (screen views), `$autocapture` of `$event_type` `touch` (UIKit taps, the element first in
/// `$elements`), `Application Opened` and `Application Backgrounded`.
extension EventImporter {
    /// Where a PostHog line's members are: found from its keys alone, so kept per layout.
    struct PostHogPlaces {
        var name: Int?
        var properties: Int?
        var timestamp: Int?
        var uuid: Int?
        /// The envelope's properties (none when `properties` is not an object).
        var envelope = EnvelopeProperties()
        /// The envelope but its `ts` when every check of `postHogEnvelope` but the timestamp's parse
        /// passes (they look at the kinds of values only, which a layout's lines share), else nil.
        var checkedEnvelope: ImportedEnvelope?
    }

    private func postHogPlaces() -> PostHogPlaces {
        var places = PostHogPlaces()
        places.name = tape.member(0, "event")
        places.properties = tape.member(0, "properties")
        places.timestamp = tape.member(0, "timestamp")
        places.uuid = tape.member(0, "uuid")
        if let properties = places.properties { places.envelope = envelopeProperties(properties) }
        if (try? tape.requiredString(places.timestamp, name: "timestamp")) != nil {
            places.checkedEnvelope = try? postHogEnvelopeKinds(places)
        }
        return places
    }

    func postHogEvent() -> Judged {
        let places = postHogMemo.place(lineLayout) { postHogPlaces() }
        guard let nameIndex = places.pointee.name else {
            return .problem(ImportProblem("missing event (the event's name)"))
        }
        guard tape[nameIndex].kind == .string else { return .problem(ImportProblem("event is not a string", at: tape, nameIndex)) }
        // Most events are `hig.<type>`, known from their bytes: their name is never made a `String`.
        let convention = ConventionName.kind(tape, nameIndex)
        let name = convention == nil ? tape.string(nameIndex) : ""
        let properties = places.pointee.properties
        do throws(ImportProblem) {
            if let properties, tape[properties].kind != .object, convention != nil || Self.automaticNames.contains(name) {
                throw ImportProblem("properties is not an object", at: tape, properties)
            }
            let mapping: ImportedMapping
            if let kind = convention {
                mapping = .convention(kind)
            } else {
                switch name {
                case "$screen":
                    mapping = .screenView(tape.string(try tape.requiredString(properties, "$screen_name", name: "properties.$screen_name")))
                case "$autocapture":
                    let eventType = try tape.optionalString(properties, "$event_type", name: "properties.$event_type").map { tape.string($0) }
                    guard eventType == "touch" else { return .unknown("$autocapture:\(eventType ?? "")") }
                    mapping = try postHogTap(properties)
                case "Application Opened":
                    mapping = .launch
                case "Application Backgrounded":
                    mapping = .background
                default:
                    return .unknown(name)
                }
            }
            return .mapped(mapping, try postHogEnvelope(places), .object(skipDollar: true))
        } catch {
            return .problem(error)
        }
    }

    /// Plans the layout of the line just read, which carried a convention event (`ConventionPlan`).
    func planPostHogLayout(_ envelope: ImportedEnvelope, _ fields: ImportedFields) {
        guard readsPlans, let layout = lineLayout, plans.kept(for: layout) == nil else { return }
        let places = postHogMemo.place(lineLayout) { postHogPlaces() }
        guard let name = places.pointee.name, let timestamp = places.pointee.timestamp else { return }
        planLayout(name: name, time: .rfc3339(timestamp), guards: [], envelope, fields)
    }

    static let automaticNames: Set<String> = ["$screen", "$autocapture", "Application Opened", "Application Backgrounded"]

    /// The envelope, checked in this order: the timestamp is a string, it is an RFC 3339 time, then
    /// the kinds of the other members (`postHogEnvelopeKinds`). Lines of a layout whose line passed
    /// the checks of kinds (`PostHogPlaces.checkedEnvelope`) pass them too, and only their time is read.
    private func postHogEnvelope(_ places: UnsafePointer<PostHogPlaces>) throws(ImportProblem) -> ImportedEnvelope {
        if var envelope = places.pointee.checkedEnvelope, let timestamp = places.pointee.timestamp {
            envelope.ts = try postHogTimestamp(timestamp)
            return envelope
        }
        let timestamp = try tape.requiredString(places.pointee.timestamp, name: "timestamp")
        let ts = try postHogTimestamp(timestamp)
        var envelope = try postHogEnvelopeKinds(places.pointee)
        envelope.ts = ts
        return envelope
    }

    private func postHogTimestamp(_ timestamp: Int) throws(ImportProblem) -> Int64 {
        guard let ts = recentMinute.parse(tape.bytes(timestamp)), !tape[timestamp].flag else {
            throw ImportProblem("timestamp is not an RFC 3339 time", at: tape, timestamp)
        }
        return ts
    }

    /// The envelope's members but its time, each checked to be of its kind: a function of the kinds
    /// of the line's values and of where its members are, nothing else.
    private func postHogEnvelopeKinds(_ places: PostHogPlaces) throws(ImportProblem) -> ImportedEnvelope {
        var envelope = ImportedEnvelope()
        let properties = places.properties
        if let properties, tape[properties].kind != .object {
            throw ImportProblem("properties is not an object", at: tape, properties)
        }
        let found = places.envelope
        envelope.session = try tape.requiredString(found.session, name: "properties.$session_id")
        envelope.device = try tape.optionalString(found.device, name: "properties.$device_id")
        envelope.appVersion = try tape.optionalString(found.appVersion, name: "properties.$app_version")
        envelope.osVersion = try tape.optionalString(found.osVersion, name: "properties.$os_version")
        envelope.screen = try tape.optionalString(found.screen, name: "properties.$screen_name")
        envelope.id = try tape.optionalString(places.uuid, name: "uuid")
        envelope.fields = properties
        return envelope
    }

    /// The values of the envelope's properties (the first of each key, as `JSONTape.member` finds).
    struct EnvelopeProperties {
        var session: Int?
        var device: Int?
        var appVersion: Int?
        var osVersion: Int?
        var screen: Int?
    }

    /// The envelope's properties found in one pass over the members, not one pass a key.
    private func envelopeProperties(_ properties: Int) -> EnvelopeProperties {
        var found = EnvelopeProperties()
        tape.forEachMember(properties) { key, value in
            guard tape.hasPrefix(key, "$") || tape[key].flag else { return }
            if found.session == nil, tape.keyEquals(key, "$session_id") { found.session = value }
            else if found.device == nil, tape.keyEquals(key, "$device_id") { found.device = value }
            else if found.appVersion == nil, tape.keyEquals(key, "$app_version") { found.appVersion = value }
            else if found.osVersion == nil, tape.keyEquals(key, "$os_version") { found.osVersion = value }
            else if found.screen == nil, tape.keyEquals(key, "$screen_name") { found.screen = value }
        }
        return found
    }

    /// posthog-ios lists the view hierarchy from the element touched outwards: the first of
    /// `$elements` names the target (`tag_name`, its class, and `text`).
    private func postHogTap(_ properties: Int?) throws(ImportProblem) -> ImportedMapping {
        var target: String?
        if let properties, let elements = tape.member(properties, "$elements"), tape[elements].kind == .array,
           tape[elements].after > Int32(elements + 1) {
            let first = elements + 1
            let tag = try tape.optionalString(first, "tag_name", name: "properties.$elements[0].tag_name").map { tape.string($0) }
            let text = try tape.optionalString(first, "text", name: "properties.$elements[0].text").map { tape.string($0) }
            if let tag {
                target = text.map { $0.isEmpty ? tag : "\(tag)(\($0))" } ?? tag
            } else {
                target = text
            }
        }
        var x: Double?
        var y: Double?
        // Each is optional on its own, as `x` and `y` are (SPEC §2).
        if let properties, let xi = tape.member(properties, "$touch_x") {
            x = try tape.finiteNumber(xi, name: "properties.$touch_x")
        }
        if let properties, let yi = tape.member(properties, "$touch_y") {
            y = try tape.finiteNumber(yi, name: "properties.$touch_y")
        }
        return .tap(target: target, x: x, y: y)
    }
}

/// `hig.<type>` (SPEC §7): the event name of a type of ours.
enum ConventionName {
    private static let kinds: [String: EventKind] = Dictionary(
        uniqueKeysWithValues: EventKind.allCases.map { ("hig." + $0.wireName, $0) })

    static func kind(_ name: String) -> EventKind? {
        guard name.hasPrefix("hig.") else { return nil }
        return kinds[name]
    }

    /// `kind` of the string at `index`, read from its bytes when it has no escapes.
    static func kind(_ tape: borrowing JSONTape, _ index: Int) -> EventKind? {
        guard !tape[index].flag else { return kind(tape.string(index)) }
        let raw = tape.bytes(index)
        guard raw.count > 4, let start = raw.baseAddress, ByteSlice(start: start, count: 4) == "hig." else { return nil }
        return EventKind(wireBytes: ByteSlice(start: start + 4, count: raw.count - 4))
    }
}
