import HIGAuditCore

// Loading and camera capture in the Gallery and Library tabs.
extension SessionSimulator {
    /// Thumbnails load when a grid appears. Short loads need no indicator; healthy builds show a
    /// placeholder or spinner for long ones, the faulty ones sometimes show nothing for seconds.
    mutating func loadThumbnails() {
        if misbehaves(.loadingWithoutIndicator) {
            load("thumbs", indicator: .none, duration: 1_300...5_000)
            planted(.loadingWithoutIndicator)
        } else if random.chance(0.5) {
            load("thumbs", indicator: .none, duration: 60...700)
        } else {
            load("thumbs", indicator: random.chance(0.6) ? .placeholder : .spinner, duration: 300...3_000)
        }
        // Then the user scrolls the grid.
        advance(200...1_000)
        let target = "grid"
        touch(.began, target: target)
        for _ in 0..<random.int(3...14) {
            advance(14...40)
            movePen(by: 400)
            touch(.moved, target: target)
        }
        touch(.ended, target: target)
    }

    /// Importing a photo with the camera: a full-screen camera modal, capture start, shutter, capture
    /// stop, then the photo is inserted. Healthy builds play nothing while capturing; the faulty ones
    /// play an impact on the shutter.
    mutating func captureWithCamera() {
        tap("button:camera")
        advance(20...80)
        requestCameraPermission()
        advance(20...80)
        present(.camera)
        advance(200...600)
        emit(.captureStart(source: .camera))
        advance(1_500...6_000)
        tap("button:shutter")
        if hapticsEnabled, misbehaves(.hapticDuringCapture) {
            makeRoomForHaptics()
            advance(1...20)
            emitHaptic(.impactMedium, durationMs: nil)
            planted(.hapticDuringCapture)
        }
        advance(200...800)
        emit(.captureStop(source: .camera))
        advance(300...1_200)
        emit(.outcome(result: .success, task: "import-photo"))
        advance(10...60)
        playHaptic(.notificationSuccess)
        advance(800...3_000)
        tap("button:use-photo")
        advance(20...80)
        dismiss(.camera)
        advance(20...200)
        emit(.contentMutation(action: .insert, object: "photo", undoable: true))
    }
}
