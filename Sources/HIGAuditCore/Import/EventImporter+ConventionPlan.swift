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
        /// The values the line's (or the record's) match noted.
        var values: ExportLineLayouts.MatchedValues
        /// For a record of a request of many (`translateRecords`), the request's stamp: its line is
        /// then copied once for all its records (`ImportedFieldAssembly.startLine(_:stamp:)`); else 0.
        var lineStamp = 0
    }

    /// Reads `line`, which matched `hit`'s layout, by `plan`, and hands its event to `handle` as the
    /// line's `record` (0 for a line that is one record, 1 for an OTLP request's only record); returns
    /// false, having handed nothing and changed nothing the general way reads, when the line is to be
    /// read the general way (see `ConventionPlan` for which lines are).
    func translatePlanned(
        _ line: UnsafeRawBufferPointer, _ hit: ExportLineLayouts.Hit, _ plan: UnsafePointer<ConventionPlan>,
        record: Int32, _ handle: (Int32, ImportedRecord) -> Bool
    ) -> Bool {
        guard preparePlanned(line, layouts.matchedValues, plan, lineStamp: 0) else { return false }
        layouts.confirm(hit)
        lineLayout = hit.layout
        handPlanned(record: record, handle)
        return true
    }

    /// Hands over the event `preparePlanned` made ready as the line's `record`, and for `import` writes
    /// its line if the decoder accepted it. A planned event changes nothing the importer keeps per
    /// session (it is no launch, its session has one, and it is no screen view), so there is nothing
    /// to commit.
    func handPlanned(record: Int32, _ handle: (Int32, ImportedRecord) -> Bool) {
        linesPlanned &+= 1
        let accepted = handle(record, .event(ImportedEventFields(
            importerReference: Unmanaged.passUnretained(self), hasSyntheticStart: false, isPlanned: true)))
        if accepted, writesAccepted {
            writePlanned()
            keepAcceptedLine()
        }
    }

    /// Whether `plan` serves this importer: `import` writes lines, so it needs a plan that writes them;
    /// and an event whose line of ours may pass the limit is measured the general way (`pendingLineTooLong`).
    @inline(__always)
    func serves(_ plan: UnsafePointer<ConventionPlan>) -> Bool {
        (!writesAccepted || plan.pointee.writesLines) && !Self.mayPassLineLimit(sourceBytes: sourceBytes)
    }

    /// Writes the line of ours the planned event is, byte for byte what `writePending` writes for it
    /// from the tape: the envelope up to the type, then the plan's tail (`WrittenTail`), its text with
    /// the line's values between.
    func writePlanned() {
        typealias Cursor = ImportedLineWriter.Cursor
        let event = planned!
        let plan = event.plan
        let values = event.values
        let base = event.line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let lineEnd = base + event.line.count
        let loading = event.kind == .loadingStart || event.kind == .loadingEnd
        let session = values.value(ofSlot: plan.pointee.session)
        let sessionRaw = UnsafeBufferPointer(start: base + Int(session.start), count: Int(session.end &- session.start))
        let type = wireNames.name(event.kind)
        let w = writer
        w.clear()
        // The envelope up to the type's text, as `writeEnvelope` writes it.
        let envelopeRoom = Cursor.keyRoom(2) &+ Cursor.integerRoom
            &+ Cursor.keyRoom(7) &+ sessionRaw.count &+ 3 &+ Cursor.integerRoom
            &+ Cursor.keyRoom(4) &+ type.utf8CodeUnitCount &+ 1
        let tail = loading ? plan.pointee.tailKeepingId : plan.pointee.tail
        let text = UnsafePointer(tail.text.baseAddress!)
        let steps = tail.steps
        let resource = recordResource
        // Each piece checks for room for its text copied whole (`Cursor.bytes(padded:count:)`) and
        // its value written at its longest (an integer's 20 bytes, or its bytes in quotes).
        let slack = WrittenTail.padding &+ Cursor.integerRoom &+ 2
        var from = 0
        var (cursor, end) = w.open(room: 1 &+ envelopeRoom &+ tail.text.count &+ slack)
        cursor.byte(UInt8(ascii: "{"))
        cursor.key("ts")
        cursor.integer(event.ts)
        cursor.key("session")
        cursor.byte(UInt8(ascii: "\""))
        cursor.raw(sessionRaw, quoted: false)
        if event.launch > 1 {
            cursor.byte(UInt8(ascii: "#"))
            cursor.integer(Int64(event.launch))
        }
        cursor.byte(UInt8(ascii: "\""))
        cursor.key("type")
        cursor.byte(UInt8(ascii: "\""))
        cursor.bytes(type.utf8Start, count: type.utf8CodeUnitCount)
        for step in steps {
            let textEnd = Int(step.textEnd)
            let constant = textEnd &- from
            switch step.form {
            case .asItStands:
                let value = step.value.bytes(in: values, base: base)
                let room = constant &+ value.count &+ slack
                if end - cursor.at < room { w.grow(&cursor, &end, room: room) }
                cursor.bytes(padded: text + from, count: constant)
                // Copied as the text is where the line holds 32 bytes from the value's start (the
                // room holds 32 past it: `slack`).
                if lineEnd - value.baseAddress! >= 32 {
                    cursor.bytes(padded: value.baseAddress!, count: value.count)
                } else {
                    cursor.raw(value, quoted: false)
                }
            case .intValue:
                let found = values.value(ofSlot: Int(step.value.slot))
                let value = UnsafeBufferPointer(start: base + Int(found.start), count: Int(found.end &- found.start))
                let room = constant &+ value.count &+ slack
                if end - cursor.at < room { w.grow(&cursor, &end, room: room) }
                cursor.bytes(padded: text + from, count: constant)
                let isString = step.value.kind == .string
                let entry = JSONTape.Entry(
                    kind: isString ? .string : .number, flag: found.flag, start: found.start, end: found.end, after: 0)
                if let integer = Self.integerAttribute(entry, known: found.value, in: base) {
                    cursor.integer(integer)
                } else {
                    cursor.raw(value, quoted: isString)
                }
            case .resourceDevice, .resourceAppVersion, .resourceOSVersion:
                let (key, found): (StaticString, FieldValue?) = switch step.form {
                case .resourceDevice: ("device", resource.device)
                case .resourceAppVersion: ("app_version", resource.appVersion)
                default: ("os_version", resource.osVersion)
                }
                // The resource's attributes are `stringValue`s (`RecordResource.plannable`).
                let value = found.map { UnsafeBufferPointer(start: base + Int($0.start), count: Int($0.end &- $0.start)) }
                let room = constant &+ Cursor.keyRoom(key.utf8CodeUnitCount) &+ (value?.count ?? 0) &+ slack
                if end - cursor.at < room { w.grow(&cursor, &end, room: room) }
                cursor.bytes(padded: text + from, count: constant)
                if let value {
                    cursor.key(key)
                    cursor.raw(value, quoted: true)
                }
            }
            from = textEnd
        }
        let rest = tail.text.count &- from
        if end - cursor.at < rest &+ slack { w.grow(&cursor, &end, room: rest &+ slack) }
        cursor.bytes(padded: text + from, count: rest)
        w.close(cursor)
    }

    /// Makes the event of `line` whose match noted `values`, read by `plan`, the one to hand over
    /// (`planned`; `lineStamp` as `PlannedEvent` says); false, having changed nothing the general way
    /// reads, when it is to be read the general way (see `ConventionPlan`).
    func preparePlanned(
        _ line: UnsafeRawBufferPointer, _ values: ExportLineLayouts.MatchedValues, _ plan: UnsafePointer<ConventionPlan>,
        lineStamp: Int
    ) -> Bool {
        let base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if let first = plan.pointee.guards.0, !Self.holds(first, base, values) { return false }
        if let second = plan.pointee.guards.1, !Self.holds(second, base, values) { return false }
        let name = values.value(ofSlot: plan.pointee.nameSlot)
        let nameCount = Int(name.end &- name.start)
        guard !name.flag, nameCount > 4 else { return false }
        let nameStart = base + Int(name.start)
        guard ByteSlice(start: nameStart, count: 4) == "hig.",
              let kind = wireNames.kind(ByteSlice(start: nameStart + 4, count: nameCount &- 4)),
              kind != .sessionStart
        else { return false }
        if plan.pointee.checksValues, !Self.holdsValueChecks(plan, base, values, name: nameStart, count: nameCount) { return false }
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
        case .nanoseconds(let slot, let isString):
            let time = values.value(ofSlot: slot)
            let entry = JSONTape.Entry(kind: isString ? .string : .number, flag: time.flag, start: time.start, end: time.end, after: 0)
            // 0 sends the general way to `observedTimeUnixNano`; a negative time is a problem.
            guard let nanos = JSONTape.integer(entry, known: time.value, in: base), nanos > 0 else { return false }
            ts = nanos / 1_000_000
        }
        let session = values.value(ofSlot: plan.pointee.session)
        guard !session.flag, session.end > session.start else { return false }
        let launches = launchesOfSession(plain: UnsafeBufferPointer(start: base + Int(session.start), count: Int(session.end &- session.start)))
        guard launches > 0 else { return false }
        let inPlace = launches == 1 && ts.magnitude <= 1 << 53
            && (!plan.pointee.convertsValues || Self.convertsInPlace(plan, kind: kind, values))
        planned = PlannedEvent(
            plan: plan, kind: kind, ts: ts, launch: launches, line: line, nameStart: name.start, nameEnd: name.end,
            inPlace: inPlace, values: values, lineStamp: lineStamp)
        return true
    }

    /// Whether each `intValue` the event's own fields convert (`assembleConverting`) is an integer of
    /// at most 2^53, given by its value, or none, written as it stands: no digits are then written
    /// after the line, which may be taken in place. Told from lengths and values alone, so some
    /// lines that could be are not (a string of 16 digits or more, a number the match left unread).
    @inline(never)
    private static func convertsInPlace(
        _ plan: UnsafePointer<ConventionPlan>, kind: EventKind, _ values: ExportLineLayouts.MatchedValues
    ) -> Bool {
        let loading = kind == .loadingStart || kind == .loadingEnd
        for own in loading ? plan.pointee.ownFieldsKeepingId : plan.pointee.ownFields where own.isIntValue {
            let found = values.value(ofSlot: Int(own.value.slot))
            if own.value.kind == .string {
                // Fifteen bytes, a sign and digits, or their escapes, are below 10^15.
                guard found.end &- found.start <= 15 else { return false }
            } else {
                // Below 2^53, as `JSONTape.integer` reads a number in place (a literal that rounds to
                // 2^53 is written out); NaN (a number the match left to the standard library) fails.
                guard found.value.magnitude < 9_007_199_254_740_992 else { return false }
            }
        }
        return true
    }

    /// Whether a line's second name is its first (`secondNameSlot`) and its doubles are finite
    /// (`finiteSlots`): OTLP's checks, out of line, as the other formats have none.
    @inline(never)
    private static func holdsValueChecks(
        _ plan: UnsafePointer<ConventionPlan>, _ base: UnsafePointer<UInt8>, _ values: ExportLineLayouts.MatchedValues,
        name: UnsafePointer<UInt8>, count: Int
    ) -> Bool {
        if let secondSlot = plan.pointee.secondNameSlot {
            let second = values.value(ofSlot: secondSlot)
            guard !second.flag, Int(second.end &- second.start) == count,
                  ByteComparison.equal(base + Int(second.start), name, count: count)
            else { return false }
        }
        for slot in plan.pointee.finiteSlots {
            let double = values.value(ofSlot: Int(slot))
            // NaN: the match left the literal to the standard library, as `JSONTape.double` reads it.
            let value = double.value.isNaN
                ? JSONNumber.double(ByteSlice(start: base + Int(double.start), count: Int(double.end &- double.start)))
                : double.value
            guard value.isFinite else { return false }
        }
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
        let values = event.values
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
        let ownFields = loading ? plan.pointee.ownFieldsKeepingId : plan.pointee.ownFields
        let resource = plan.pointee.takesResource ? recordResource : nil
        assembly.writingTable { table in
            if let resource {
                if let device = resource.device { table.assign(.device, device) }
                if let version = resource.appVersion { table.assign(.appVersion, version) }
                if let os = resource.osVersion { table.assign(.osVersion, os) }
            } else {
                if let device = plan.pointee.device { table.assign(.device, device.field(in: values)) }
                if let version = plan.pointee.appVersion { table.assign(.appVersion, version.field(in: values)) }
                if let os = plan.pointee.osVersion { table.assign(.osVersion, os.field(in: values)) }
            }
            if let screen = plan.pointee.screen { table.assign(.screen, screen.field(in: values)) }
            if !loading, let id = plan.pointee.id { table.assign(.id, id.field(in: values)) }
            guard !plan.pointee.convertsValues else { return }
            for own in ownFields {
                let keyColumn = own.keyStart &+ values.shift(afterSlots: Int(own.keySlotsBefore)) &- 1
                table.assign(own.field, own.value.field(in: values), number: own.value.number(in: values), keyColumn: keyColumn)
            }
        }
        if plan.pointee.convertsValues { assembleConverting(ownFields, values, line: event.line) }
        return kind
    }

    /// The own fields of a plan that converts some (OTLP's `intValue`s, as `assembleOtherField` converts
    /// them), out of line: the other formats' loop stays as plain as it was.
    @inline(never)
    private func assembleConverting(
        _ ownFields: UnsafeMutableBufferPointer<ConventionPlan.OwnField>, _ values: ExportLineLayouts.MatchedValues,
        line: UnsafeRawBufferPointer
    ) {
        let base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for own in ownFields {
            let keyColumn = own.keyStart &+ values.shift(afterSlots: Int(own.keySlotsBefore)) &- 1
            guard own.isIntValue else {
                assembly.assign(own.field, own.value.field(in: values), number: own.value.number(in: values), keyColumn: keyColumn)
                continue
            }
            let found = values.value(ofSlot: Int(own.value.slot))
            let entry = JSONTape.Entry(
                kind: own.value.kind == .string ? .string : .number, flag: found.flag, start: found.start, end: found.end, after: 0)
            if let integer = Self.integerAttribute(entry, known: found.value, in: base) {
                assembly.setInteger(own.field, integer, at: entry, keyColumn: keyColumn)
            } else {
                assembly.set(own.field, entry, keyColumn: keyColumn)
            }
        }
    }

    // MARK: Making a plan

    /// Makes and keeps the plan of the layout of the line just read the general way, which carried a
    /// convention event (`envelope`, `fields`) named at the entry `name` (and alike at `secondName`),
    /// dated at `time`, and chosen by the strings at `guards` (entries whose values are what they must
    /// be), whose numbers at `finite` are finite. Nothing is kept when a value the plan reads is not a
    /// variable value of the layout.
    func planLayout(
        name: Int, secondName: Int? = nil, time: ConventionPlan.Time, guards: [Int], finite: [Int] = [],
        _ envelope: ImportedEnvelope, _ fields: ImportedFields
    ) {
        guard let layout = lineLayout else { return }
        planLayout(
            PlanTarget(layouts: layouts, layout: layout, plans: plans, firstEntry: 0, takesResource: false),
            name: name, secondName: secondName, time: time, guards: guards, finite: finite, envelope, fields)
    }

    /// Which layout a plan is made for: one of `layouts`, kept in `plans`, whose line's first entry is
    /// the tape's `firstEntry` (an OTLP record's, after its resource's entries: `translateRecords`).
    struct PlanTarget {
        var layouts: ExportLineLayouts
        var layout: ExportLineLayouts.LayoutID
        var plans: ConventionPlans
        var firstEntry: Int
        var takesResource: Bool
    }

    func planLayout(
        _ target: PlanTarget, name: Int, secondName: Int? = nil, time: ConventionPlan.Time, guards: [Int], finite: [Int] = [],
        _ envelope: ImportedEnvelope, _ fields: ImportedFields
    ) {
        let layout = target.layout
        func slot(ofEntry entry: Int, _ layout: ExportLineLayouts.LayoutID) -> Int? {
            guard case .slot(let slot) = target.layouts.placement(ofEntry: entry &- target.firstEntry, in: layout) else { return nil }
            return slot
        }
        func planValue(_ entry: Int, _ layout: ExportLineLayouts.LayoutID) -> ConventionPlan.Value? {
            self.planValue(entry, target)
        }
        let plans = target.plans
        guard readsPlans, plans.kept(for: layout) == nil,
              let nameSlot = slot(ofEntry: name, layout), let sessionSlot = slot(ofEntry: envelope.session, layout)
        else { return }
        var secondNameSlot: Int?
        if let secondName {
            guard let slot = slot(ofEntry: secondName, layout) else { return }
            secondNameSlot = slot
        }
        let timeSlot: ConventionPlan.Time
        switch time {
        case .rfc3339(let entry):
            guard let slot = slot(ofEntry: entry, layout) else { return }
            timeSlot = .rfc3339(slot)
        case .milliseconds(let entry):
            guard let slot = slot(ofEntry: entry, layout) else { return }
            timeSlot = .milliseconds(slot)
        case .nanoseconds(let entry, let isString):
            guard let slot = slot(ofEntry: entry, layout) else { return }
            timeSlot = .nanoseconds(slot, isString: isString)
        }
        var finiteSlots: [Int32] = []
        for entry in finite {
            guard let slot = slot(ofEntry: entry, layout) else { return }
            finiteSlots.append(Int32(slot))
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
              let osVersion = value(envelope.osVersion), let screen = value(envelope.screen), let id = value(envelope.id)
        else { return }
        // A layout whose line cannot be planned is tried again on its next line: what fails first is
        // looked at first.
        let members = placeOtherFields(envelope.fields, fields, keepId: false, target)
        guard let ownFields = Self.ownFields(members) else { return }
        let membersKeepingId = placeOtherFields(envelope.fields, fields, keepId: true, target)
        guard let ownFieldsKeepingId = Self.ownFields(membersKeepingId) else {
            ownFields.deallocate()
            return
        }
        let keptFiniteSlots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: finiteSlots.count)
        _ = keptFiniteSlots.initialize(from: finiteSlots)
        let convertsValues = ownFields.contains { $0.isIntValue } || ownFieldsKeepingId.contains { $0.isIntValue }
        // Only `import` writes lines: `--from` makes no tails.
        let writesLines = writesAccepted && Self.allWritable(members) && Self.allWritable(membersKeepingId)
        func tail(_ members: [PlacedMember], keepingId: Bool) -> WrittenTail {
            guard writesLines else { return .empty }
            return writtenTail(
                device: device, appVersion: appVersion, osVersion: osVersion, screen: screen, id: keepingId ? nil : id,
                members, takesResource: target.takesResource)
        }
        plans.keep(ConventionPlan(
            guards: (checks.first, checks.count > 1 ? checks[1] : nil), nameSlot: nameSlot, secondNameSlot: secondNameSlot,
            time: timeSlot, session: sessionSlot, device: device, appVersion: appVersion, osVersion: osVersion,
            screen: screen, id: id, ownFields: ownFields, ownFieldsKeepingId: ownFieldsKeepingId,
            tail: tail(members, keepingId: false), tailKeepingId: tail(membersKeepingId, keepingId: true), writesLines: writesLines,
            finiteSlots: keptFiniteSlots, convertsValues: convertsValues,
            checksValues: secondNameSlot != nil || !finiteSlots.isEmpty, takesResource: target.takesResource), for: layout)
    }

    /// `entry`'s value in lines of `layout`: its kind as `ImportedFieldAssembly.set` gives the decoder
    /// a tape entry's, and where it is.
    private func planValue(_ entry: Int, _ target: PlanTarget) -> ConventionPlan.Value? {
        let kind = FieldValue.Kind(tape[entry])
        switch target.layouts.placement(ofEntry: entry &- target.firstEntry, in: target.layout) {
        case .slot(let slot):
            return ConventionPlan.Value(slot: Int32(slot), kind: kind, start: 0, end: 0, slotsBeforeStart: 0, slotsBeforeEnd: 0)
        case .constant(let constant, let slotsBeforeStart, let slotsBeforeEnd):
            // Every string and number of a layout's line is a slot but OTLP's attribute names (the
            // values of `key`), which are no field's value: a constant string is never planned.
            guard kind != .string, kind != .number else { return nil }
            return ConventionPlan.Value(
                slot: -1, kind: kind, start: constant.start, end: constant.end,
                slotsBeforeStart: UInt16(slotsBeforeStart), slotsBeforeEnd: UInt16(slotsBeforeEnd))
        case nil:
            return nil
        }
    }

    /// A member `forEachOtherField` gives (what `writeOtherFields` writes after the envelope), placed
    /// in a layout: its field of ours if its key names one, its value (nil where `planValue` cannot
    /// place it, or where an OTLP `intValue`, converted on every line, is no slot), and its key (nil
    /// where it is no constant of the layout).
    struct PlacedMember {
        var field: EventField?
        var value: ConventionPlan.Value?
        var key: (entry: JSONTape.Entry, slotsBefore: Int, slotsBeforeEnd: Int)?
        var isIntValue: Bool
        /// The key's and the value's entries in the tape of the line planned.
        var keyEntry: Int
        var valueEntry: Int
        /// Whether the value's bytes are the same on every line of the layout: a constant that holds
        /// no slot (`true`, `null`, an object of constants).
        var isConstant = false
    }

    /// The members `forEachOtherField` gives for the event, in their order, placed in the layout.
    private func placeOtherFields(_ container: Int?, _ fields: ImportedFields, keepId: Bool, _ target: PlanTarget) -> [PlacedMember] {
        var members: [PlacedMember] = []
        forEachOtherField(container, fields, keepId: keepId) { key, value in
            let (index, isIntValue) = switch value {
            case .asItStands(let entry): (entry, false)
            case .intValue(let entry): (entry, true)
            }
            let placed = planValue(index, target).flatMap { !isIntValue || $0.slot >= 0 ? $0 : nil }
            var member = PlacedMember(
                field: eventField(key), value: placed, key: nil, isIntValue: isIntValue, keyEntry: key, valueEntry: index)
            if let placed, placed.slot < 0, placed.slotsBeforeStart == placed.slotsBeforeEnd, !isIntValue {
                member.isConstant = true
            }
            if case .constant(let entry, let slotsBefore, let slotsBeforeEnd) = target.layouts.placement(
                ofEntry: key &- target.firstEntry, in: target.layout) {
                member.key = (entry, slotsBefore, slotsBeforeEnd)
            }
            members.append(member)
        }
        return members
    }

    /// The event's own fields (the members that are fields of ours) as `assemblePending` reads them;
    /// nil when one of them is not placed.
    private static func ownFields(_ members: [PlacedMember]) -> UnsafeMutableBufferPointer<ConventionPlan.OwnField>? {
        var own: [ConventionPlan.OwnField] = []
        for member in members {
            guard let field = member.field else { continue }
            guard let value = member.value, let key = member.key else { return nil }
            own.append(ConventionPlan.OwnField(
                field: field, value: value, keyStart: key.entry.start, keySlotsBefore: UInt16(key.slotsBefore),
                isIntValue: member.isIntValue))
        }
        return kept(own)
    }

    /// Whether every member can be written from the plan as `writeOtherFields` writes it, ours or not:
    /// its value placed, and its key a constant of the layout.
    private static func allWritable(_ members: [PlacedMember]) -> Bool {
        members.allSatisfy { member in
            guard member.value != nil, let key = member.key else { return false }
            return key.slotsBefore == key.slotsBeforeEnd
        }
    }

    /// What `writePlanned` writes after the type, as `writeEnvelope` and `writeOtherFields` write it:
    /// the device, app version and OS version (the resource's for a plan that `takesResource`), the
    /// screen, the id (nil for `loading.start` and `loading.end`, whose id is among `members`), then
    /// `members`, each of which `allWritable` found writable.
    private func writtenTail(
        device: ConventionPlan.Value?, appVersion: ConventionPlan.Value?, osVersion: ConventionPlan.Value?,
        screen: ConventionPlan.Value?, id: ConventionPlan.Value?, _ members: [PlacedMember], takesResource: Bool
    ) -> WrittenTail {
        var tail = WrittenTailBuilder()
        if takesResource {
            tail.resource(.resourceDevice)
            tail.resource(.resourceAppVersion)
            tail.resource(.resourceOSVersion)
        } else {
            if let device { tail.member(key: "device", device) }
            if let appVersion { tail.member(key: "app_version", appVersion) }
            if let osVersion { tail.member(key: "os_version", osVersion) }
        }
        if let screen { tail.member(key: "screen", screen) }
        if let id { tail.member(key: "id", id) }
        for member in members {
            let constant = member.isConstant ? Array(tape.bytes(member.valueEntry)) : nil
            tail.member(key: tape.bytes(member.keyEntry), member.value!, constant: constant, isIntValue: member.isIntValue)
        }
        return tail.finished()
    }

    private static func kept<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let kept = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = kept.initialize(from: elements)
        return kept
    }
}
