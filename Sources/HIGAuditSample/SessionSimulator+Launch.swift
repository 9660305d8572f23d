import HIGAuditCore

// Launch, permissions, rating prompts, and the widget extension's own sessions.
extension SessionSimulator {
    /// The end of the launch: `app.ready`, then what a faulty build does at once (a permission prompt
    /// nobody asked for, a rating prompt). Healthy builds are ready within 2 s of `session.start`.
    mutating func finishLaunch() {
        if misbehaves(.slowLaunch) {
            now = max(now, start + random.ms(2_300...6_000))
            emit(.appReady)
            planted(.slowLaunch)
        } else {
            now = max(now, start + random.ms(400...1_900))
            emit(.appReady)
        }
        // No touch has happened yet: a prompt now answers nothing the person did.
        if misbehaves(.launchPermissionRequest) {
            advance(100...600)
            let permission: Permission = [.notifications, .tracking, .location][random.below(3)]
            emit(.permissionRequest(permission: permission, result: random.chance(0.5) ? .granted : .denied))
            planted(.launchPermissionRequest)
        }
        if misbehaves(.earlyRatingPrompt) {
            advance(500...3_000)
            emit(.ratingPrompt)
            ratingPrompted = true
            planted(.earlyRatingPrompt)
        }
    }

    /// A rating prompt once the person has used the app for more than a minute (the caller checks).
    mutating func promptForRating() {
        emit(.ratingPrompt)
        ratingPrompted = true
    }

    /// The camera permission, asked right after the tap that opens the camera; usually decided before.
    mutating func requestCameraPermission() {
        emit(.permissionRequest(permission: .camera, result: random.chance(0.85) ? .alreadyDecided : .granted))
    }

    /// A session of the home-screen widget extension: it appears one to three times, each time showing
    /// its cached or fresh content at once in healthy builds.
    mutating func runWidget() {
        widgetScreen = "widget:recent"
        emit(.sessionStart(SessionSettings(
            hapticsEnabled: device.hapticsEnabled,
            pencilPreferredAction: device.pencilPreference,
            pencilCustomActionEnabled: device.pencilCustomActionEnabled
        )), launch: true)
        for _ in 0..<random.int(1...3) {
            advance(50...400)
            if misbehaves(.widgetPlaceholder) {
                if random.chance(0.5) {
                    emit(.widgetDisplay(widget: "recent", content: .placeholder, loadMs: nil))
                } else {
                    emit(.widgetDisplay(widget: "recent", content: .cached, loadMs: Double(random.int(1_200...4_000))))
                }
                planted(.widgetPlaceholder)
            } else {
                emit(.widgetDisplay(
                    widget: "recent", content: random.chance(0.7) ? .cached : .fresh, loadMs: Double(random.int(15...600))))
            }
            advance(5_000...40_000)
        }
        emit(.sessionEnd)
    }
}
