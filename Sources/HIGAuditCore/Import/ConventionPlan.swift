/// Where, in lines of one export layout (`ExportLineLayouts`), an event of ours sent by the
/// `hig.<type>` convention (SPEC §7) keeps its name, its time, its envelope and its own fields: which of
/// the layout's variable values (slots) or constants each one is. Found once, from a line of the layout
/// read the general way (tape, `postHogEvent` / `datadogEvent`, `forEachOtherField`), and kept beside
/// the layout (`ConventionPlans`); a later line of the layout is then read from the values its match
/// noted (`ExportLineLayouts.matchedValues`) straight into the decoder's table, with no tape filled
/// and no member looked up (`EventImporter.translatePlanned`).
///
/// Why a planned line gives exactly what the general way gives. A line matching the layout is the
/// plan's line with some string and number values replaced, every other byte equal; its tape is the
/// plan's line's with those values' ranges, flags and numbers in place of theirs and every other
/// entry shifted by the values before it (`ExportLineLayouts`). So everything the general way finds
/// from keys, structure and the kinds of values is the same on both lines: where the envelope's
/// members and the event's own fields are, which keys are fields of ours and in which order, the
/// kinds `postHogEnvelopeKinds` / `datadogEnvelopeKinds` check, that the event's container is an
/// object. What depends on the values is read again on every line: the values that choose the mapping
/// (`guards`: Datadog's `type` and `action.type`), the event's name, its time and its session, and
/// OTLP's values whose checks look at more than kinds (a second name, `eventName` beside the attribute
/// `event.name`, must be the first; a `doubleValue` must be finite; an `intValue` is converted). Where
/// any of them would take the general way anywhere but to the common case (a name that is no type of
/// ours, a value with escapes, a time that is not one, an empty session, a launch, whose id is kept
/// per session, or the first event of a session with no launch, which gets a synthetic start), the
/// line is left to the general way, which then reads it from its tape as before.
struct ConventionPlan {
    /// A value of the event in a matched line: a slot's (`slot` ≥ 0: a string or a number, its range,
    /// flag and number as the match noted them), or a constant of the layout (its kind as the decoder
    /// takes it, and its range moved by the slots before it).
    struct Value {
        var slot: Int32
        var kind: FieldValue.Kind
        var start: Int32
        var end: Int32
        var slotsBeforeStart: UInt16
        var slotsBeforeEnd: UInt16
    }

    /// One of the event's own fields: the field of ours its key names, its value, and its key's
    /// opening quote (for the report of a key given twice), which moves with the slots before it.
    struct OwnField {
        var field: EventField
        var value: Value
        var keyStart: Int32
        var keySlotsBefore: UInt16
        /// An OTLP `intValue` (a slot): converted to its integer on every line, as `assembleOtherField`
        /// converts it.
        var isIntValue: Bool
    }

    /// A variable value that must be a given string for the line to carry a convention event (at most
    /// 16 bytes, kept as two words).
    struct Guard {
        var slot: Int
        var count: Int
        var words: (UInt64, UInt64)
    }

    /// How the event's time is written, and which value it is (a slot in a plan; an entry of the tape
    /// to `planLayout`).
    enum Time {
        /// An RFC 3339 string (PostHog's `timestamp`).
        case rfc3339(Int)
        /// A JSON integer of milliseconds since 1970 (Datadog RUM's `date`).
        case milliseconds(Int)
        /// Nanoseconds since 1970 as OTLP/JSON writes 64-bit integers, a string of digits or a JSON
        /// integer (`timeUnixNano`, or `observedTimeUnixNano` where there is no `timeUnixNano`), and
        /// which of the two the plan's line held.
        case nanoseconds(Int, isString: Bool)
    }

    var guards: (Guard?, Guard?)
    /// The slot of the string naming the event (`hig.<type>`), and of a second one that must name it
    /// alike (OTLP's attribute `event.name` beside `eventName`).
    var nameSlot: Int
    var secondNameSlot: Int?
    var time: Time
    var session: Int
    var device: Value?
    var appVersion: Value?
    var osVersion: Value?
    var screen: Value?
    var id: Value?
    /// The event's own fields in the order of the line, and the same with an `id` among them (the
    /// fields of `loading.start` and `loading.end`, which keep theirs: `EventImporter.writePending`).
    var ownFields: UnsafeMutableBufferPointer<OwnField>
    var ownFieldsKeepingId: UnsafeMutableBufferPointer<OwnField>
    /// What `import` writes after the event's type, without and with an `id` among the other fields
    /// (as `ownFields`): the rest of the envelope, then every member the general way writes, ours or
    /// not. Empty, and `writesLines` false, when one of those members is not placed in the layout:
    /// `import` then reads such lines the general way, while `--from` still reads them by the plan.
    var tail: WrittenTail
    var tailKeepingId: WrittenTail
    var writesLines: Bool
    /// Number slots that must hold finite values (OTLP's `doubleValue`s: `checkFinite`).
    var finiteSlots: UnsafeMutableBufferPointer<Int32>
    /// Whether an own field is converted (`OwnField.isIntValue`), which may write digits after the
    /// line: the line is then taken in place (`PlannedEvent.inPlace`) only when none of its
    /// conversions writes any (`EventImporter.convertsInPlace`).
    var convertsValues: Bool
    /// Whether there is a second name or a finite slot to check (the other formats have neither).
    var checksValues: Bool
    /// Whether the device, app version and OS version are not the layout's but the resource's around
    /// it: a plan of an OTLP record's layout (`EventImporter.translateRecords`), whose resource's
    /// attributes are found once a resource (`RecordResource`).
    var takesResource = false

    func deallocate() {
        ownFields.deallocate()
        ownFieldsKeepingId.deallocate()
        tail.deallocate()
        tailKeepingId.deallocate()
        finiteSlots.deallocate()
    }
}

extension ConventionPlan.Value {
    /// The value in a matched line, as `ImportedFieldAssembly.set` gives the tape's entry of it.
    @inline(__always)
    func field(in values: ExportLineLayouts.MatchedValues) -> FieldValue {
        if slot >= 0 {
            let found = values.value(ofSlot: Int(slot))
            return FieldValue(kind: kind, flag: found.flag, start: found.start, end: found.end)
        }
        return FieldValue(
            kind: kind, flag: false, start: start &+ values.shift(afterSlots: Int(slotsBeforeStart)),
            end: end &+ values.shift(afterSlots: Int(slotsBeforeEnd)))
    }

    /// The value's bytes in a matched line (a string's inside its quotes).
    @inline(__always)
    func bytes(in values: ExportLineLayouts.MatchedValues, base: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let value = field(in: values)
        return UnsafeBufferPointer(start: base + Int(value.start), count: Int(value.end &- value.start))
    }

    /// The number a match read for a number slot (NaN otherwise): what `JSONTape.knownNumber` gives.
    @inline(__always)
    func number(in values: ExportLineLayouts.MatchedValues) -> Double {
        kind == .number ? values.value(ofSlot: Int(slot)).value : .nan
    }
}

/// The plans of the layouts kept, beside them: a layout whose line carried no convention event has
/// none, and is planned by the next line of it that does; a layout replaced takes its plan with it.
typealias ConventionPlans = LayoutMemo<ConventionPlan>

extension LayoutMemo where Value == ConventionPlan {
    convenience init() {
        self.init(forget: { $0.deallocate() })
    }
}
