// Recognising the enumerated values of SPEC §2 straight from the line's bytes (the `type` names:
// `EventKind(wireBytes:)`, derived from `EventSchema`).
//
// The synthesized `init?(rawValue:)` would need a `String` first (a heap allocation for values longer
// than 15 bytes, like `notification.success`); these compare lengths and bytes against literals. The
// literals are the enums' raw values; `WireValueMatchingTests` checks that every case round-trips.

extension PencilPreferredAction {
    init?(wireBytes b: ByteSlice) {
        if b == "switch_eraser" { self = .switchEraser }
        else if b == "switch_previous" { self = .switchPrevious }
        else if b == "show_color_palette" { self = .showColorPalette }
        else if b == "ignore" { self = .ignore }
        else { return nil }
    }
}

extension PencilTapAction {
    /// A system action, or `custom:<name>` with a non-empty name.
    init?(wireBytes b: ByteSlice) {
        if let system = PencilPreferredAction(wireBytes: b) {
            self = .system(system)
        } else if b.hasPrefix("custom:"), b.count > 7 {
            let name = UnsafeBufferPointer(start: b.start + 7, count: b.count - 7)
            self = .custom(String(decoding: name, as: UTF8.self))
        } else {
            return nil
        }
    }
}

extension TouchCoverage {
    init?(wireBytes b: ByteSlice) {
        if b == "all" { self = .all }
        else if b == "sampled" { self = .sampled }
        else if b == "none" { self = .none }
        else { return nil }
    }
}

extension TouchPhase {
    init?(wireBytes b: ByteSlice) {
        if b == "began" { self = .began }
        else if b == "moved" { self = .moved }
        else if b == "ended" { self = .ended }
        else if b == "cancelled" { self = .cancelled }
        else { return nil }
    }
}

extension TouchInput {
    init?(wireBytes b: ByteSlice) {
        if b == "finger" { self = .finger }
        else if b == "pencil" { self = .pencil }
        else { return nil }
    }
}

extension HapticKind {
    init?(wireBytes b: ByteSlice) {
        switch b.count {
        case 6: if b == "custom" { self = .custom; return }
        case 9: if b == "selection" { self = .selection; return }
        case 11:
            if b == "impact.soft" { self = .impactSoft; return }
        case 12:
            if b == "impact.light" { self = .impactLight; return }
            if b == "impact.heavy" { self = .impactHeavy; return }
            if b == "impact.rigid" { self = .impactRigid; return }
        case 13: if b == "impact.medium" { self = .impactMedium; return }
        case 18: if b == "notification.error" { self = .notificationError; return }
        case 20:
            if b == "notification.success" { self = .notificationSuccess; return }
            if b == "notification.warning" { self = .notificationWarning; return }
        default: break
        }
        return nil
    }
}

extension OutcomeResult {
    init?(wireBytes b: ByteSlice) {
        if b == "success" { self = .success }
        else if b == "warning" { self = .warning }
        else if b == "failure" { self = .failure }
        else { return nil }
    }
}

extension ModalStyle {
    init?(wireBytes b: ByteSlice) {
        if b == "full_screen" { self = .fullScreen }
        else if b == "page_sheet" { self = .pageSheet }
        else if b == "form_sheet" { self = .formSheet }
        else if b == "current_context" { self = .currentContext }
        else if b == "popover" { self = .popover }
        else if b == "alert" { self = .alert }
        else if b == "action_sheet" { self = .actionSheet }
        else { return nil }
    }
}

extension MutationAction {
    init?(wireBytes b: ByteSlice) {
        if b == "insert" { self = .insert }
        else if b == "update" { self = .update }
        else if b == "delete" { self = .delete }
        else if b == "clear" { self = .clear }
        else { return nil }
    }
}

extension LoadingIndicator {
    init?(wireBytes b: ByteSlice) {
        if b == "none" { self = .none }
        else if b == "spinner" { self = .spinner }
        else if b == "progress" { self = .progress }
        else if b == "placeholder" { self = .placeholder }
        else { return nil }
    }
}

extension CaptureSource {
    init?(wireBytes b: ByteSlice) {
        if b == "camera" { self = .camera }
        else if b == "microphone" { self = .microphone }
        else { return nil }
    }
}

extension Permission {
    init?(wireBytes b: ByteSlice) {
        if b == "location" { self = .location }
        else if b == "camera" { self = .camera }
        else if b == "microphone" { self = .microphone }
        else if b == "photos" { self = .photos }
        else if b == "contacts" { self = .contacts }
        else if b == "calendar" { self = .calendar }
        else if b == "reminders" { self = .reminders }
        else if b == "notifications" { self = .notifications }
        else if b == "tracking" { self = .tracking }
        else if b == "bluetooth" { self = .bluetooth }
        else if b == "health" { self = .health }
        else if b == "motion" { self = .motion }
        else { return nil }
    }
}

extension PermissionResult {
    init?(wireBytes b: ByteSlice) {
        if b == "granted" { self = .granted }
        else if b == "denied" { self = .denied }
        else if b == "already_decided" { self = .alreadyDecided }
        else { return nil }
    }
}

extension WidgetContent {
    init?(wireBytes b: ByteSlice) {
        if b == "fresh" { self = .fresh }
        else if b == "cached" { self = .cached }
        else if b == "placeholder" { self = .placeholder }
        else { return nil }
    }
}
