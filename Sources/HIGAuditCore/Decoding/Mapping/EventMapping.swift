/// The event mapping: a line's fields, wherever they were found (the reference scan, the accelerated
/// scan or a learned shape), become an `Event` or the reason they cannot. Every check of a field's
/// presence, type and value is made here, once, for both decoding paths (see `EventDecoder`).
extension LineReader {
    /// `kind`, when known, is the kind the line's `type` names (from the shape it matched); `sharedTexts`,
    /// when given, holds common texts known to be the line's (an `InlineTexts`, from that shape), and
    /// only the common text fields in `lineTextFields` are read from the line.
    @inline(__always)
    func interpret(
        source: SourceLocation, kind knownKind: EventKind? = nil, sharedTexts: UnsafeRawPointer? = nil,
        lineTextFields: FieldMask = EventField.commonTextBits, accept: (consuming Event) -> Void
    ) throws(MalformedLine) -> LineVerdict {
        let ts = try timestamp()
        longTexts.pointee.discardPending()
        var texts = sharedTexts.map { EventTexts($0.load(as: InlineTexts.self)) } ?? EventTexts()
        // A shared session is valid (the shape's line had it), and its field-table entry may be stale
        // (see `LineShapes.sharedTextsOfLatestMatch`).
        if lineTextFields & EventField.session.bit != 0 {
            let session = try present(.session)
            guard session.kind == .string else { throw wrongType(.session, session, expected: "a string") }
            // Empty only as `""`: an escape is at least one character.
            guard session.end != session.start else {
                throw MalformedLine(reason: "field \"session\" must be a non-empty string", column: session.column)
            }
            try setText(.session, session, .session, in: &texts)
        }
        let typeValue = try present(.type)
        guard typeValue.kind == .string else { throw wrongType(.type, typeValue, expected: "a string") }

        if lineTextFields & EventField.device.bit != 0 { try optionalText(.device, .device, in: &texts) }
        if lineTextFields & EventField.app.bit != 0 { try optionalText(.app, .app, in: &texts) }
        if lineTextFields & EventField.appVersion.bit != 0 { try optionalText(.appVersion, .appVersion, in: &texts) }
        if lineTextFields & EventField.osVersion.bit != 0 { try optionalText(.osVersion, .osVersion, in: &texts) }
        if lineTextFields & EventField.screen.bit != 0 { try optionalText(.screen, .screen, in: &texts) }
        // Checked here, set once the kind is known: a loading operation's `id` is its payload's, not the
        // event's.
        let commonId = try checked(.id)
        switch commonId.kind {
        case .absent, .null, .string: break
        default: throw wrongType(.id, commonId, expected: "a string")
        }

        let kind = knownKind
            ?? (typeValue.flag ? Self.kindOfEscapedName(string(typeValue)) : EventKind(wireBytes: bytes(typeValue)))
        guard let kind else {
            // A U+0000 in `id` is refused on such a line too, as in the other common texts.
            if commonId.kind == .string && commonId.flag { _ = try unescapedText(.id, commonId) }
            return .unknownType(typeValue.flag ? try unescapedText(.type, typeValue) : string(typeValue))
        }
        // Before the payload: nothing may throw once it is built, or the optimiser copies it into the
        // event instead of moving it.
        if commonId.kind == .string && kind != .loadingStart && kind != .loadingEnd {
            try setText(.id, commonId, .id, in: &texts)
        }

        let payload: EventPayload
        switch kind {
        case .sessionStart:
            payload = .sessionStart(SessionSettings(
                hapticsEnabled: try optionalBool(.hapticsEnabled, default: true),
                pencilPreferredAction: try optionalEnum(
                    .pencilPreferredAction, "pencil preferred action", PencilPreferredAction.init(wireBytes:))
                    ?? .switchEraser,
                pencilCustomActionEnabled: try optionalBool(.pencilCustomActionEnabled, default: false),
                touches: try optionalEnum(.touches, "touch coverage", TouchCoverage.init(wireBytes:)) ?? .all,
                synthetic: try optionalBool(.synthetic, default: false)))
        case .sessionEnd:
            payload = .sessionEnd
        case .touch:
            payload = .touch(Touch(
                phase: try requiredEnum(.phase, "touch phase", TouchPhase.init(wireBytes:)),
                target: try optionalString(.target),
                input: try optionalEnum(.input, "touch input", TouchInput.init(wireBytes:)) ?? .finger,
                x: try optionalNumber(.x),
                y: try optionalNumber(.y)))
        case .pencilDoubleTap:
            payload = .pencilDoubleTap(
                action: try requiredEnum(.action, "pencil action", PencilTapAction.init(wireBytes:)))
        case .haptic:
            payload = .haptic(
                kind: try requiredEnum(.kind, "haptic kind", HapticKind.init(wireBytes:)),
                durationMs: try optionalNumber(.durationMs, nonNegative: true))
        case .outcome:
            payload = .outcome(
                result: try requiredEnum(.result, "outcome result", OutcomeResult.init(wireBytes:)),
                task: try optionalString(.task))
        case .tabSwitch:
            payload = .tabSwitch(from: try requiredString(.from), to: try requiredString(.to))
        case .navPush:
            payload = .navPush(to: try requiredString(.to))
        case .navPop:
            payload = .navPop(to: try requiredString(.to))
        case .modalPresent:
            payload = .modalPresent(
                modal: try requiredString(.modal),
                style: try requiredEnum(.style, "modal style", ModalStyle.init(wireBytes:)))
        case .modalDismiss:
            payload = .modalDismiss(modal: try requiredString(.modal))
        case .contentMutation:
            payload = .contentMutation(
                action: try requiredEnum(.action, "mutation action", MutationAction.init(wireBytes:)),
                object: try optionalString(.object),
                undoable: try optionalBool(.undoable, default: true))
        case .loadingStart:
            payload = .loadingStart(
                id: try requiredString(.id),
                indicator: try requiredEnum(.indicator, "loading indicator", LoadingIndicator.init(wireBytes:)))
        case .loadingEnd:
            payload = .loadingEnd(id: try requiredString(.id))
        case .captureStart:
            payload = .captureStart(source: try requiredEnum(.source, "capture source", CaptureSource.init(wireBytes:)))
        case .captureStop:
            payload = .captureStop(source: try requiredEnum(.source, "capture source", CaptureSource.init(wireBytes:)))
        case .appReady:
            payload = .appReady
        case .permissionRequest:
            payload = .permissionRequest(
                permission: try requiredEnum(.permission, "permission", Permission.init(wireBytes:)),
                result: try optionalEnum(.result, "permission result", PermissionResult.init(wireBytes:)))
        case .ratingPrompt:
            payload = .ratingPrompt
        case .widgetDisplay:
            payload = .widgetDisplay(
                widget: try requiredString(.widget),
                content: try requiredEnum(.content, "widget content", WidgetContent.init(wireBytes:)),
                loadMs: try optionalNumber(.loadMs, nonNegative: true))
        }
        texts.finishLongTexts(longTexts)
        accept(Event(ts: ts, texts: consume texts, payload: payload, source: source))
        return .event
    }

    private static func kindOfEscapedName(_ name: String) -> EventKind? {
        var name = name
        return name.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return nil }
            return EventKind(wireBytes: ByteSlice(start: start, count: bytes.count))
        }
    }
}
