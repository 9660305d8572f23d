/// Reading a line by its layout's `ConventionPlan`: the values that decide its mapping are checked
/// from its match, and its fields written from it straight into the decoder's table.
extension EventImporter {
    /// The event of a planned line being handed over (`ImportedEventFields.isPlanned`).
    struct PlannedEvent {
        var plan: UnsafePointer<ConventionPlan>
        var kind: EventKind
        var ts: Int64
        var launch: Int
        var line: UnsafeRawBufferPointer
        /// Where the event's name (`hig.<type>`) is in the line.
        var nameStart: Int32
        var nameEnd: Int32
        /// Whether every field is in the line or a number given by its value (`ImportedFieldAssembly
        /// .borrowLine`): the type is then the name's bytes after `hig.`, and the line is not copied.
        /// Not so for a session past its first launch (`<id>#<n>`) or a time past 2^53 (its digits).
        var inPlace: Bool
    }

    /// Reads `line`, which matched `hit`'s layout, by `plan`, and hands its event to `handle`; returns
    /// false, having handed nothing and changed nothing the general way reads, when the line is to be
    /// read the general way (see `ConventionPlan` for which lines are).
    func translatePlanned(
        _ line: UnsafeRawBufferPointer, _ hit: ExportLineLayouts.Hit, _ plan: UnsafePointer<ConventionPlan>,
        _ handle: (Int32, ImportedRecord) -> Bool
    ) -> Bool {
        let base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let values = layouts.matchedValues
        if let first = plan.pointee.guards.0, !Self.holds(first, base, values) { return false }
        if let second = plan.pointee.guards.1, !Self.holds(second, base, values) { return false }
        let name = values.value(ofSlot: plan.pointee.nameSlot)
        let nameCount = Int(name.end &- name.start)
        guard !name.flag, nameCount > 4 else { return false }
        let nameStart = base + Int(name.start)
        guard ByteSlice(start: nameStart, count: 4) == "hig.",
              let kind = EventKind(wireBytes: ByteSlice(start: nameStart + 4, count: nameCount &- 4)),
              kind != .sessionStart
        else { return false }
        let ts: Int64
        switch plan.pointee.time {
        case .rfc3339(let slot):
            let time = values.value(ofSlot: slot)
            guard !time.flag,
                  let parsed = recentMinute.parse(UnsafeBufferPointer(start: base + Int(time.start), count: Int(time.end &- time.start)))
            else { return false }
            ts = parsed
        case .milliseconds(let slot):
            // As `JSONTape.integer` reads a number a match read.
            let date = values.value(ofSlot: slot)
            guard date.flag else { return false }
            if date.value.magnitude < 9_007_199_254_740_992 {
                ts = Int64(date.value)
            } else if let exact = JSONNumber.int64(ByteSlice(start: base + Int(date.start), count: Int(date.end &- date.start))) {
                ts = exact
            } else {
                return false
            }
        }
        let session = values.value(ofSlot: plan.pointee.session)
        guard !session.flag, session.end > session.start else { return false }
        let launches = launchesOfSession(plain: UnsafeBufferPointer(start: base + Int(session.start), count: Int(session.end &- session.start)))
        guard launches > 0 else { return false }
        layouts.confirm(hit)
        lineLayout = hit.layout
        linesPlanned &+= 1
        planned = PlannedEvent(
            plan: plan, kind: kind, ts: ts, launch: launches, line: line, nameStart: name.start, nameEnd: name.end,
            inPlace: launches == 1 && ts.magnitude <= 1 << 53)
        _ = handle(0, .event(ImportedEventFields(
            importerReference: Unmanaged.passUnretained(self), hasSyntheticStart: false, isPlanned: true)))
        return true
    }

    @inline(__always)
    private static func holds(
        _ check: ConventionPlan.Guard, _ base: UnsafePointer<UInt8>, _ values: ExportLineLayouts.MatchedValues
    ) -> Bool {
        let value = values.value(ofSlot: check.slot)
        guard !value.flag, Int(value.end &- value.start) == check.count else { return false }
        return withUnsafeBytes(of: check.words) { words in
            ByteComparison.equal(base + Int(value.start), words.baseAddress!.assumingMemoryBound(to: UInt8.self), count: check.count)
        }
    }

    /// Writes the planned event's fields, in the order `assemblePending` writes a convention event's.
    func assemblePlanned() -> EventKind {
        let event = planned!
        let plan = event.plan
        let kind = event.kind
        let loading = kind == .loadingStart || kind == .loadingEnd
        let values = layouts.matchedValues
        let assembly = self.assembly
        assembly.setInteger(.ts, event.ts, at: nil)
        let session = values.value(ofSlot: plan.pointee.session)
        if event.launch > 1 {
            let sessionEntry = JSONTape.Entry(kind: .string, flag: false, start: session.start, end: session.end, after: 0)
            assembly.setString(.session, sessionEntry, suffix: "#\(event.launch)")
        } else {
            assembly.assign(.session, FieldValue(kind: .string, flag: false, start: session.start, end: session.end))
        }
        if event.inPlace {
            assembly.assign(.type, FieldValue(kind: .string, flag: false, start: event.nameStart &+ 4, end: event.nameEnd))
        } else {
            assembly.setString(.type, kind.wireNameLiteral)
        }
        if let device = plan.pointee.device { assembly.assign(.device, device.field(in: values)) }
        if let version = plan.pointee.appVersion { assembly.assign(.appVersion, version.field(in: values)) }
        if let os = plan.pointee.osVersion { assembly.assign(.osVersion, os.field(in: values)) }
        if let screen = plan.pointee.screen { assembly.assign(.screen, screen.field(in: values)) }
        if !loading, let id = plan.pointee.id { assembly.assign(.id, id.field(in: values)) }
        for own in loading ? plan.pointee.ownFieldsKeepingId : plan.pointee.ownFields {
            let keyColumn = own.keyStart &+ values.shift(afterSlots: Int(own.keySlotsBefore)) &- 1
            assembly.assign(own.field, own.value.field(in: values), number: own.value.number(in: values), keyColumn: keyColumn)
        }
        return kind
    }

    // MARK: Making a plan

    /// Makes and keeps the plan of the layout of the line just read the general way, which carried a
    /// convention event (`envelope`, `fields`) named at the entry `name`, dated at `time`, and chosen by
    /// the strings at `guards` (entries whose values are what they must be). Nothing is kept when a
    /// value the plan reads is not a variable value of the layout.
    func planLayout(
        name: Int, time: ConventionPlan.Time, guards: [Int], _ envelope: ImportedEnvelope, _ fields: ImportedFields
    ) {
        guard readsPlans, onAccepted == nil, let layout = lineLayout, plans.kept(for: layout) == nil,
              let nameSlot = slot(ofEntry: name, layout), let sessionSlot = slot(ofEntry: envelope.session, layout)
        else { return }
        let timeSlot: ConventionPlan.Time
        switch time {
        case .rfc3339(let entry):
            guard let slot = slot(ofEntry: entry, layout) else { return }
            timeSlot = .rfc3339(slot)
        case .milliseconds(let entry):
            guard let slot = slot(ofEntry: entry, layout) else { return }
            timeSlot = .milliseconds(slot)
        }
        var checks: [ConventionPlan.Guard] = []
        for entry in guards {
            let raw = tape.bytes(entry)
            guard !tape[entry].flag, raw.count <= 16, let slot = slot(ofEntry: entry, layout) else { return }
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(raw)) }
            checks.append(ConventionPlan.Guard(slot: slot, count: raw.count, words: words))
        }
        guard checks.count <= 2 else { return }
        func value(_ entry: Int?) -> ConventionPlan.Value?? {
            guard let entry else { return .some(nil) }
            return planValue(entry, layout).map { .some($0) }
        }
        guard let device = value(envelope.device), let appVersion = value(envelope.appVersion),
              let osVersion = value(envelope.osVersion), let screen = value(envelope.screen), let id = value(envelope.id),
              let ownFields = planOwnFields(envelope.fields, fields, keepId: false, layout)
        else { return }
        guard let ownFieldsKeepingId = planOwnFields(envelope.fields, fields, keepId: true, layout) else {
            ownFields.deallocate()
            return
        }
        plans.keep(ConventionPlan(
            guards: (checks.first, checks.count > 1 ? checks[1] : nil), nameSlot: nameSlot, time: timeSlot,
            session: sessionSlot, device: device, appVersion: appVersion, osVersion: osVersion, screen: screen, id: id,
            ownFields: ownFields, ownFieldsKeepingId: ownFieldsKeepingId), for: layout)
    }

    private func slot(ofEntry entry: Int, _ layout: ExportLineLayouts.LayoutID) -> Int? {
        guard case .slot(let slot) = layouts.placement(ofEntry: entry, in: layout) else { return nil }
        return slot
    }

    /// `entry`'s value in lines of `layout`: its kind as `ImportedFieldAssembly.set` gives the decoder
    /// a tape entry's, and where it is.
    private func planValue(_ entry: Int, _ layout: ExportLineLayouts.LayoutID) -> ConventionPlan.Value? {
        let kind = FieldValue.Kind(tape[entry])
        switch layouts.placement(ofEntry: entry, in: layout) {
        case .slot(let slot):
            return ConventionPlan.Value(slot: Int32(slot), kind: kind, start: 0, end: 0, slotsBeforeStart: 0, slotsBeforeEnd: 0)
        case .constant(let constant, let slotsBeforeStart, let slotsBeforeEnd):
            // Every string and number of a layout's line is a slot (but OTLP's names, never planned).
            guard kind != .string, kind != .number else { return nil }
            return ConventionPlan.Value(
                slot: -1, kind: kind, start: constant.start, end: constant.end,
                slotsBeforeStart: UInt16(slotsBeforeStart), slotsBeforeEnd: UInt16(slotsBeforeEnd))
        case nil:
            return nil
        }
    }

    /// The event's own fields as `assemblePending` finds them (`forEachOtherField`), placed in the
    /// layout; nil when one of them cannot be (an OTLP `intValue`, converted on every line).
    private func planOwnFields(
        _ container: Int?, _ fields: ImportedFields, keepId: Bool, _ layout: ExportLineLayouts.LayoutID
    ) -> UnsafeMutableBufferPointer<ConventionPlan.OwnField>? {
        var own: [ConventionPlan.OwnField] = []
        var placed = true
        forEachOtherField(container, fields, keepId: keepId) { key, value in
            guard placed, let field = eventField(key) else { return }
            guard case .asItStands(let index) = value, let planned = planValue(index, layout),
                  case .constant(let keyEntry, let keySlotsBefore, _) = layouts.placement(ofEntry: key, in: layout)
            else {
                placed = false
                return
            }
            own.append(ConventionPlan.OwnField(
                field: field, value: planned, keyStart: keyEntry.start, keySlotsBefore: UInt16(keySlotsBefore)))
        }
        guard placed else { return nil }
        let kept = UnsafeMutableBufferPointer<ConventionPlan.OwnField>.allocate(capacity: own.count)
        _ = kept.initialize(from: own)
        return kept
    }
}
