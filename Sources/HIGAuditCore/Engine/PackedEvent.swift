/// An accepted event waiting in a parked session, in `PackedWriter` bytes: its `ts` as the distance
/// from the session's newest `ts`, a bit per text field present and a bit per text equal to the
/// writer's `previousTexts` in the same field (the texts of the latest event that had a new one), the
/// texts that are not (the session's own id left out: every event of a session has it), its source (file and line as the distance from the previous event's,
/// then the record) and its payload's fields. A session's events nearly always repeat its device,
/// app, versions and screen, so most events write only their id. A session of three events packs
/// into about a hundred bytes where its reorder buffer held eight 200-byte slots.
///
/// `PackedEventTests` checks that every payload case and every field comes back equal.
extension PackedWriter {
    mutating func event(_ event: borrowing Event, newestTs: Int64) {
        withUnsafePointer(to: event) { self.event(at: $0, newestTs: newestTs) }
    }

    /// The event at `event`, read where it lies (a waiting event in its reorder buffer's slot): its
    /// texts compared with `previousTexts` in place, and its payload read where it lies, since each
    /// copy of an `Event` or its payload copies every word and retains every string.
    mutating func event(at event: UnsafePointer<Event>, newestTs: Int64) {
        signed(newestTs &- event.pointee.ts)
        let (present, repeated) = event.pointee.texts.presence(comparedWith: previousTexts)
        byte(present)
        byte(repeated)
        let fresh = present & ~repeated
        if fresh != 0 {
            for raw in 1..<EventTexts.Slot.allCases.count where fresh & (UInt8(1) &<< UInt8(raw)) != 0 {
                let slot = EventTexts.Slot(rawValue: raw).unsafelyUnwrapped
                if let (low, high, count) = event.pointee.texts.inlineParts(slot) {
                    text(low: low, high: high, count: count)
                } else {
                    text(event.pointee.texts[slot].unsafelyUnwrapped)
                }
            }
            previousTexts = event.pointee.texts
        }
        // Otherwise `previousTexts` already holds every text but the session's, which is never compared,
        // and the absent ones: a slot absent here and set there is written as absent, and the next
        // event's texts are compared slot by slot, so keeping the older set ones changes nothing.
        let source = event.pointee.source
        signed(Int64(source.file) &- Int64(previousSource.file))
        signed(source.line &- previousSource.line)
        signed(Int64(source.record))
        previousSource = source
        payload(at: Self.payload(of: event))
    }

    /// Where the payload of the event at `event` lies.
    @inline(__always)
    private static func payload(of event: UnsafePointer<Event>) -> UnsafePointer<EventPayload> {
        (UnsafeRawPointer(event) + MemoryLayout<Event>.offset(of: \.payload).unsafelyUnwrapped)
            .assumingMemoryBound(to: EventPayload.self)
    }

    private mutating func payload(at payload: UnsafePointer<EventPayload>) {
        // `EventKind`'s raw values are its places in `allCases`.
        count(Int(payload.pointee.kind.rawValue))
        switch payload.pointee {
        case .sessionStart(let settings):
            // Nearly always the defaults. Other settings are kept as they are, beside the bytes
            // (`heldAside`), so that a setting added to `SessionSettings` later is never lost here.
            if settings == .defaults {
                count(0)
            } else {
                heldAside.append(settings)
                count(heldAside.count)
            }
        case .sessionEnd, .appReady, .ratingPrompt:
            break
        case .touch(let touch):
            choice(touch.phase)
            choice(touch.input)
            optionalString(touch.target)
            optionalDouble(touch.x)
            optionalDouble(touch.y)
        case .pencilDoubleTap(let action):
            string(action.wireValue)
        case .haptic(let kind, let durationMs):
            choice(kind)
            optionalDouble(durationMs)
        case .outcome(let result, let task):
            choice(result)
            optionalString(task)
        case .tabSwitch(let from, let to):
            string(from)
            string(to)
        case .navPush(let to), .navPop(let to):
            string(to)
        case .modalPresent(let modal, let style):
            string(modal)
            choice(style)
        case .modalDismiss(let modal), .loadingEnd(let modal):
            string(modal)
        case .contentMutation(let action, let object, let undoable):
            choice(action)
            optionalString(object)
            bool(undoable)
        case .loadingStart(let id, let indicator):
            string(id)
            choice(indicator)
        case .captureStart(let source), .captureStop(let source):
            choice(source)
        case .permissionRequest(let permission, let result):
            choice(permission)
            if let result {
                bool(true)
                choice(result)
            } else {
                bool(false)
            }
        case .widgetDisplay(let widget, let content, let loadMs):
            string(widget)
            choice(content)
            optionalDouble(loadMs)
        }
    }

    private mutating func optionalString(_ value: String?) {
        if let value {
            bool(true)
            string(value)
        } else {
            bool(false)
        }
    }

    private mutating func optionalDouble(_ value: Double?) {
        if let value {
            bool(true)
            double(value)
        } else {
            bool(false)
        }
    }
}

extension PackedReader {
    mutating func event(session: CompactText, newestTs: Int64) -> Event {
        let ts = newestTs &- signed()
        let present = byte()
        let repeated = byte()
        if !previousTexts.holds(session, in: .session) { previousTexts[.session] = session }
        let fresh = present & ~repeated
        let texts: EventTexts
        if fresh != 0 {
            // As the writer keeps them, the event's texts become `previousTexts` when one was new: they
            // are made there, from the texts the writer compared against (which hold every repeated
            // one), and copied once.
            previousTexts.keepOnly(present)
            for raw in 1..<EventTexts.Slot.allCases.count where fresh & (UInt8(1) &<< UInt8(raw)) != 0 {
                previousTexts[EventTexts.Slot(rawValue: raw).unsafelyUnwrapped] = text()
            }
            texts = previousTexts
        } else {
            var kept = previousTexts
            kept.keepOnly(present)
            texts = kept
        }
        let file = Int32(truncatingIfNeeded: Int64(previousSource.file) &+ signed())
        let line = previousSource.line &+ signed()
        let record = Int32(truncatingIfNeeded: signed())
        previousSource = SourceLocation(file: file, line: line, record: record)
        return Event(ts: ts, texts: texts, payload: payload(), source: previousSource)
    }

    private mutating func payload() -> EventPayload {
        let index = count()
        guard index < EventKind.allCases.count, let kind = EventKind(rawValue: UInt8(index)) else {
            preconditionFailure("a parked session names an unknown event type")
        }
        switch kind {
        case .sessionStart:
            let aside = count()
            return .sessionStart(aside == 0 ? .defaults : heldAside[aside &- 1])
        case .sessionEnd: return .sessionEnd
        case .appReady: return .appReady
        case .ratingPrompt: return .ratingPrompt
        case .touch:
            let phase = choice(TouchPhase.self)
            let input = choice(TouchInput.self)
            return .touch(Touch(phase: phase, target: optionalString(), input: input, x: optionalDouble(), y: optionalDouble()))
        case .pencilDoubleTap:
            let wire = string()
            guard let action = PencilTapAction(wireValue: wire) else {
                preconditionFailure("a parked session holds an unknown pencil action \(wire)")
            }
            return .pencilDoubleTap(action: action)
        case .haptic:
            return .haptic(kind: choice(HapticKind.self), durationMs: optionalDouble())
        case .outcome:
            return .outcome(result: choice(OutcomeResult.self), task: optionalString())
        case .tabSwitch:
            return .tabSwitch(from: string(), to: string())
        case .navPush: return .navPush(to: string())
        case .navPop: return .navPop(to: string())
        case .modalPresent: return .modalPresent(modal: string(), style: choice(ModalStyle.self))
        case .modalDismiss: return .modalDismiss(modal: string())
        case .contentMutation:
            return .contentMutation(action: choice(MutationAction.self), object: optionalString(), undoable: bool())
        case .loadingStart: return .loadingStart(id: string(), indicator: choice(LoadingIndicator.self))
        case .loadingEnd: return .loadingEnd(id: string())
        case .captureStart: return .captureStart(source: choice(CaptureSource.self))
        case .captureStop: return .captureStop(source: choice(CaptureSource.self))
        case .permissionRequest:
            let permission = choice(Permission.self)
            return .permissionRequest(permission: permission, result: bool() ? choice(PermissionResult.self) : nil)
        case .widgetDisplay:
            return .widgetDisplay(widget: string(), content: choice(WidgetContent.self), loadMs: optionalDouble())
        }
    }

    private mutating func optionalString() -> String? {
        bool() ? string() : nil
    }

    private mutating func optionalDouble() -> Double? {
        bool() ? double() : nil
    }
}
