import HIGAuditCore

// Drawing on the canvas: Pencil strokes, double-taps, layers, brushes, saving.
extension SessionSimulator {
    /// A few Pencil strokes: touch began, moved (logged at about 60 Hz), ended, then the stroke is
    /// committed as an undoable insert. Now and then the user double-taps the Pencil between strokes.
    mutating func drawStrokes() {
        for _ in 0..<random.int(1...6) {
            touch(.began, target: "canvas", input: .pencil)
            for _ in 0..<random.int(4...24) {
                advance(12...24)
                movePen(by: 120)
                touch(.moved, target: "canvas", input: .pencil)
            }
            advance(7...17)
            touch(.ended, target: "canvas", input: .pencil)
            advance(4...30)
            emit(.contentMutation(action: .insert, object: "stroke", undoable: true))
            advance(150...1_500)
            if random.chance(0.15) { doubleTapPencil() }
        }
    }

    /// The Pencil double-tap. Healthy builds do what the system setting says (or the user's custom
    /// action when they turned that on); 5.2.0 maps it to "delete stroke", 5.1.0 sometimes always
    /// switches to the eraser.
    mutating func doubleTapPencil() {
        if misbehaves(.destructiveDoubleTap) {
            emit(.pencilDoubleTap(action: .custom("delete_stroke")))
            advance(30...250)
            emit(.contentMutation(action: .delete, object: "stroke", undoable: random.chance(0.8)))
            planted(.destructiveDoubleTap, alsoViolating: device.pencilCustomActionEnabled ? [] : ["pencil-preference-ignored"])
        } else {
            let action: PencilTapAction
            if device.pencilPreference != .switchEraser, misbehaves(.pencilPreferenceIgnored) {
                action = .system(.switchEraser)
                planted(.pencilPreferenceIgnored)
            } else if device.pencilCustomActionEnabled, random.chance(0.5) {
                action = .custom("toggle_brush_size")
            } else {
                action = .system(device.pencilPreference)
            }
            emit(.pencilDoubleTap(action: action))
        }
        // Nothing may change content right after a double-tap; the next stroke begins with a touch.
        advance(700...2_000)
    }

    /// Dragging a layer in the layers panel; it snaps into place with a light impact.
    mutating func snapLayer() {
        let target = "layer:" + String(random.int(1...6))
        touch(.began, target: target)
        for _ in 0..<random.int(4...12) {
            advance(12...40)
            movePen(by: 300)
            touch(.moved, target: target)
        }
        if hapticsEnabled {
            playHaptic(.impactLight)
        } else if misbehaves(.hapticWhenDisabled) {
            makeRoomForHaptics()
            emitHaptic(.impactLight, durationMs: nil)
            planted(.hapticWhenDisabled)
        }
        advance(30...200)
        touch(.ended, target: target)
        advance(10...60)
        emit(.contentMutation(action: .update, object: "layer", undoable: true))
    }

    /// Scrolling the brush picker: a selection haptic per detent. Healthy builds space them out; the
    /// faulty ones fire one on every detent of a fast fling (a burst).
    mutating func scrollBrushPicker() {
        let target = "picker:brushes"
        let detents = random.int(6...16)
        let burst = hapticsEnabled && misbehaves(.hapticBurst)
        if burst { makeRoomForHaptics(all: true) }
        touch(.began, target: target)
        for _ in 0..<detents {
            if burst {
                advance(40...110)
                touch(.moved, target: target)
                advance(1...5)
                emitHaptic(.selection, durationMs: nil)
            } else {
                advance(120...420)
                touch(.moved, target: target)
                advance(1...5)
                playHaptic(.selection)
            }
        }
        if burst { planted(.hapticBurst) }
        advance(30...120)
        touch(.ended, target: target)
        if random.chance(0.5) {
            advance(400...1_500)
            tap("cell:brush-" + String(random.int(1...40)))
        }
    }

    /// Saving the drawing: a short load, the outcome with its notification haptic, and in 5.2.0 an
    /// unasked-for jump to the Gallery tab.
    mutating func save() {
        tap("button:save")
        advance(10...40)
        if random.chance(0.6) {
            load("save", indicator: .none, duration: 80...500)
        } else {
            load("save", indicator: .progress, duration: 600...2_500)
        }
        let result = [OutcomeResult.success, .failure, .warning][random.pick(weights: [0.9, 0.07, 0.03])]
        let mismatch = result == .failure && hapticsEnabled && misbehaves(.hapticMismatch)
        if mismatch { makeRoomForHaptics() }
        advance(5...40)
        emit(.outcome(result: result, task: "save"))
        advance(10...120)
        if mismatch {
            emitHaptic(.notificationSuccess, durationMs: nil)
            planted(.hapticMismatch)
        } else {
            playHaptic(notificationHaptic(for: result))
        }
        if result == .success, misbehaves(.forcedTabSwitch) {
            forceSwitchToGallery()
        }
    }

    func notificationHaptic(for result: OutcomeResult) -> HapticKind {
        switch result {
        case .success: .notificationSuccess
        case .warning: .notificationWarning
        case .failure: .notificationError
        }
    }

    /// The brush settings popover. Healthy builds show only an alert over it (reset brush); the faulty
    /// ones open the brush editor sheet on top of the popover.
    mutating func openBrushPopover() {
        tap("button:brush-settings")
        advance(20...80)
        present(.brushPopover)
        advance(300...1_200)
        touch(.began, target: "slider:size")
        for _ in 0..<random.int(5...15) {
            advance(16...40)
            movePen(by: 200)
            touch(.moved, target: "slider:size")
        }
        touch(.ended, target: "slider:size")
        if misbehaves(.modalOverPopover) {
            advance(400...1_500)
            tap("button:edit-brush")
            advance(20...80)
            present(.brushEditor)
            planted(.modalOverPopover)
            advance(1_500...6_000)
            tap("button:done")
            advance(20...80)
            dismiss(.brushEditor)
        } else if random.chance(0.2) {
            advance(400...1_500)
            tap("button:reset")
            advance(20...80)
            present(.resetBrushAlert)
            advance(600...2_000)
            tap("button:confirm")
            advance(20...80)
            dismiss(.resetBrushAlert)
        }
        advance(300...1_500)
        tap("canvas")
        advance(20...80)
        dismiss(.brushPopover)
    }
}
