/// The pending event's fields for the decoder (`ImportedEventFields`): the same values, in the same
/// order, as `writePending` writes into the line `import` makes, located instead of written, and
/// written straight into the decoder's table.
extension EventImporter {
    /// Writes the pending event's fields (`mapAssembled`); returns the type it maps to.
    func assemblePending() -> EventKind {
        let envelope = pending.envelope
        let launch = pending.launch
        switch pending.mapping {
        case .convention(let kind):
            let loading = kind == .loadingStart || kind == .loadingEnd
            assembleEnvelope(envelope, ts: envelope.ts, launch: launch, kind: kind, screen: nil, withId: !loading)
            if case .attributes = pending.fields, let held = otlpRecordFields, held.attributes == envelope.fields {
                // An OTLP record's own fields came with its places (kept by layout, or found in one pass).
                held.fields.pointee.forEachField(keepId: loading) { place in assembleOtherField(place, movedBy: held.record) }
                return kind
            }
            let places = otherFieldsMemo.places(lineLayout, envelope.fields, pending.fields, keepId: loading) {
                findOtherFieldPlaces(envelope.fields, pending.fields, keepId: loading)
            }
            for place in places { assembleOtherField(place, movedBy: 0) }
            return kind
        case .screenView(let screen):
            let plan = pending.screenView!
            assembleEnvelope(envelope, ts: envelope.ts, launch: launch, kind: plan.kind, screen: screen, withId: true)
            if let from = plan.from { assembly.setString(.from, from) }
            assembly.setString(.to, screen)
            return plan.kind
        case .tap(let target, let x, let y):
            assembleEnvelope(envelope, ts: envelope.ts, launch: launch, kind: .touch, screen: nil, withId: true)
            assembly.setString(.phase, "ended")
            if let target, !target.isEmpty { assembly.setString(.target, TouchTargetName.target(target)) }
            if let x { assembly.setNumber(.x, Self.asWritten(x), integer: true, at: nil) }
            if let y { assembly.setNumber(.y, Self.asWritten(y), integer: true, at: nil) }
            return .touch
        case .launch:
            assembleEnvelope(envelope, ts: envelope.ts, launch: launch, kind: .sessionStart, screen: nil, withId: true)
            assembly.setString(.touches, touches.rawValue)
            return .sessionStart
        case .background:
            assembleEnvelope(envelope, ts: envelope.ts, launch: launch, kind: .sessionEnd, screen: nil, withId: true)
            return .sessionEnd
        case .ready(let ts):
            assembleEnvelope(envelope, ts: ts, launch: launch, kind: .appReady, screen: nil, withId: true)
            return .appReady
        }
    }

    /// Writes one of the event's own fields, found at `place` moved by `offset` entries.
    @inline(__always)
    private func assembleOtherField(_ place: OtherFieldPlace, movedBy offset: Int) {
        let keyColumn = tape[place.key &+ offset].start - 1
        switch place.value {
        case .asItStands(let index):
            assembly.set(place.field, tape[index &+ offset], number: tape.knownNumber(index &+ offset), keyColumn: keyColumn)
        case .intValue(let index):
            if let integer = integerAttribute(index &+ offset) {
                assembly.setInteger(place.field, integer, at: tape[index &+ offset], keyColumn: keyColumn)
            } else {
                assembly.set(place.field, tape[index &+ offset], keyColumn: keyColumn)
            }
        }
    }

    func findOtherFieldPlaces(_ container: Int?, _ fields: ImportedFields, keepId: Bool) -> [OtherFieldPlace] {
        var places: [OtherFieldPlace] = []
        // Once, not grown a field at a time: a line read without a layout finds its places every time
        // (room for more fields than any type of ours has of its own).
        places.reserveCapacity(16)
        forEachOtherField(container, fields, keepId: keepId) { key, value in
            guard let field = eventField(key) else { return }
            places.append(OtherFieldPlace(field: field, key: key, value: value))
        }
        return places
    }

    /// Writes the fields of the synthetic start of the pending event's session (`mapAssembled`), as
    /// `writeSyntheticStart` writes it.
    func assembleSyntheticStart() {
        let envelope = pending.envelope
        var bare = envelope
        bare.screen = nil
        bare.id = nil
        assembleEnvelope(bare, ts: envelope.ts, launch: 1, kind: .sessionStart, screen: nil, withId: false)
        assembly.setString(.touches, touches.rawValue)
        assembly.setBool(.synthetic, true)
    }

    /// Runs the decoder's mapping on the fields `assemble` writes into its table (`assemblePending`,
    /// `assembleSyntheticStart`), which returns the type they map to. A column past the export line (a
    /// value the importer made) is no place in it, and is dropped; one in a request read with its
    /// attributes in order (`OTLPAttributeOrder`) is moved back to the export's line.
    func mapAssembled(
        with decoder: inout EventDecoder, source: SourceLocation, accept: (consuming Event) -> Void,
        _ assemble: () -> EventKind
    ) -> LineVerdict {
        // Unretained: the importer holds its assembly throughout (a reference held here was retained
        // and released on every event).
        let assembly = Unmanaged.passUnretained(self.assembly)
        let verdict = decoder.mapFields(source: source, accept: accept) { table in
            assembly._withUnsafeGuaranteedRef { assembly in
                assembly.startRecord(into: table)
                let kind = assemble()
                table = assembly.finishRecord()
                return (kind, assembly.buffer)
            }
        }
        guard case .malformed(var problem) = verdict, let column = problem.column else { return verdict }
        if column >= assembly._withUnsafeGuaranteedRef({ $0.lineLength }) {
            problem.column = nil
        } else if attributeOrder.reordered {
            // A byte of the line read, whose attributes were put in order: where it is in the export's.
            problem.column = attributeOrder.sourceColumn(column)
        } else {
            return verdict
        }
        return .malformed(problem)
    }

    private func assembleEnvelope(
        _ envelope: ImportedEnvelope, ts: Int64, launch: Int, kind: EventKind, screen: String?, withId: Bool
    ) {
        assembly.setInteger(.ts, ts, at: nil)
        if launch > 1 {
            assembly.setString(.session, tape[envelope.session], suffix: "#\(launch)")
        } else {
            assembly.set(.session, tape[envelope.session])
        }
        assembly.setString(.type, kind.wireNameLiteral)
        if let device = envelope.device { assembly.set(.device, tape[device]) }
        if let version = envelope.appVersion { assembly.set(.appVersion, tape[version]) }
        if let os = envelope.osVersion { assembly.set(.osVersion, tape[os]) }
        if let screen {
            assembly.setString(.screen, screen)
        } else if let screen = envelope.screen {
            assembly.set(.screen, tape[screen])
        }
        if withId, let id = envelope.id { assembly.set(.id, tape[id]) }
    }

    /// The field a key of the export names, compared unescaped as the decoder compares keys.
    func eventField(_ key: Int) -> EventField? {
        if tape[key].flag {
            var text = tape.string(key)
            return text.withUTF8 { utf8 in
                guard let start = utf8.baseAddress else { return nil }
                return EventField.matching(ByteSlice(start: start, count: utf8.count))
            }
        }
        let raw = tape.bytes(key)
        guard let start = raw.baseAddress, raw.count > 0 else { return nil }
        return EventField.matching(ByteSlice(start: start, count: raw.count))
    }

    /// A coordinate as the decoder reads it back from `ImportedLineWriter.number`: a whole
    /// number is written as an integer, so -0 reads as 0.
    static func asWritten(_ value: Double) -> Double {
        if value == value.rounded(), abs(value) < 1e15 { return Double(Int64(value)) }
        return value
    }
}
