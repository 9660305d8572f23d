import HIGAuditCore

// Modal flows outside the canvas: exporting, deleting artworks.
extension SessionSimulator {
    /// Exporting the artwork: a sheet, optionally the options sheet (two levels, fine), and in the
    /// faulty builds the format picker as a third level. A success ends with a notification haptic —
    /// or, in 5.2.0, a long custom "celebration" pattern.
    mutating func export() {
        tap("button:share")
        advance(20...80)
        present(.exportSheet)
        advance(800...3_000)
        if random.chance(0.7) {
            tap("button:options")
            advance(20...80)
            present(.exportOptions)
            advance(800...3_000)
            if misbehaves(.modalDepth) {
                tap("button:format")
                advance(20...80)
                present(.exportFormat)
                planted(.modalDepth)
                advance(800...3_000)
                tap("button:done")
                advance(20...80)
                dismiss(.exportFormat)
                advance(300...1_000)
            }
            tap("button:done")
            advance(20...80)
            dismiss(.exportOptions)
            advance(300...1_000)
        }
        tap("button:export")
        advance(10...40)
        load("export", indicator: .progress, duration: 800...4_000)
        if random.chance(0.06) {
            advance(5...40)
            emit(.outcome(result: .failure, task: "export"))
            advance(10...60)
            playHaptic(.notificationError)
            present(.exportFailedAlert)
            advance(800...3_000)
            tap("button:ok")
            advance(20...80)
            dismiss(.exportFailedAlert)
        } else {
            let celebrate = hapticsEnabled && misbehaves(.prolongedHaptic)
            if celebrate { makeRoomForHaptics() }
            advance(5...40)
            emit(.outcome(result: .success, task: "export"))
            advance(10...60)
            if celebrate {
                emitHaptic(.custom, durationMs: Double(random.int(1_800...3_200)))
                planted(.prolongedHaptic)
            } else {
                playHaptic(.notificationSuccess)
            }
        }
        advance(400...1_500)
        tap("button:close")
        advance(20...80)
        dismiss(.exportSheet)
    }

    /// Deleting the artwork shown: a confirmation alert, then a non-undoable delete and back to the grid.
    mutating func deleteArtwork() {
        tap("button:delete")
        advance(20...80)
        present(.deleteAlert)
        advance(700...2_500)
        tap("button:confirm")
        advance(20...80)
        dismiss(.deleteAlert)
        advance(5...40)
        emit(.contentMutation(action: .delete, object: "artwork", undoable: false))
        advance(200...500)
        popWithoutTouch()
    }
}
