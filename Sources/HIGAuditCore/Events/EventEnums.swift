// The enumerated field values of SPEC §2. An unknown value makes a line malformed, except
// `pencil.double_tap.action`, which may be any `custom:<name>`. Raw values are the wire strings.

public enum PencilPreferredAction: String, CaseIterable, Sendable {
    case switchEraser = "switch_eraser"
    case switchPrevious = "switch_previous"
    case showColorPalette = "show_color_palette"
    case ignore = "ignore"
}

/// What the app did on an Apple Pencil double-tap.
public enum PencilTapAction: Sendable, Hashable {
    case system(PencilPreferredAction)
    /// `custom:<name>`; the name is what follows the prefix.
    case custom(String)

    public init?(wireValue: String) {
        if let system = PencilPreferredAction(rawValue: wireValue) {
            self = .system(system)
        } else if wireValue.hasPrefix("custom:") {
            self = .custom(String(wireValue.dropFirst("custom:".count)))
        } else {
            return nil
        }
    }

    public var wireValue: String {
        switch self {
        case .system(let action): action.rawValue
        case .custom(let name): "custom:" + name
        }
    }
}

/// Which of a session's touches its log holds (`session.start.touches`, SPEC §7 "Touch coverage"):
/// SDKs capture only some (UIKit controls but not SwiftUI, or a sample), and a missing touch must not
/// be read as a touch that never happened.
public enum TouchCoverage: String, CaseIterable, Sendable {
    case all, sampled, none
}

public enum TouchPhase: String, CaseIterable, Sendable {
    case began, moved, ended, cancelled

    /// The case's position in `allCases`, which the rule dispatch indexes its touch table by.
    var ordinal: Int {
        switch self {
        case .began: 0
        case .moved: 1
        case .ended: 2
        case .cancelled: 3
        }
    }
}

public enum TouchInput: String, CaseIterable, Sendable {
    case finger, pencil
}

public enum HapticKind: String, CaseIterable, Sendable, Comparable {
    case notificationSuccess = "notification.success"
    case notificationWarning = "notification.warning"
    case notificationError = "notification.error"
    case impactLight = "impact.light"
    case impactMedium = "impact.medium"
    case impactHeavy = "impact.heavy"
    case impactRigid = "impact.rigid"
    case impactSoft = "impact.soft"
    case selection = "selection"
    case custom = "custom"

    public static func < (a: HapticKind, b: HapticKind) -> Bool { a.rawValue < b.rawValue }
}

public enum OutcomeResult: String, CaseIterable, Sendable {
    case success, warning, failure
}

public enum ModalStyle: String, CaseIterable, Sendable {
    case fullScreen = "full_screen"
    case pageSheet = "page_sheet"
    case formSheet = "form_sheet"
    case currentContext = "current_context"
    case popover = "popover"
    case alert = "alert"
    case actionSheet = "action_sheet"
}

public enum MutationAction: String, CaseIterable, Sendable {
    case insert, update, delete, clear
}

public enum LoadingIndicator: String, CaseIterable, Sendable {
    case none, spinner, progress, placeholder
}

public enum CaptureSource: String, CaseIterable, Sendable {
    case camera, microphone
}

/// The personal data or capability a `permission.request` asks for.
public enum Permission: String, CaseIterable, Sendable {
    case location, camera, microphone, photos, contacts, calendar, reminders, notifications, tracking
    case bluetooth, health, motion
}

/// How a permission request ended; `alreadyDecided` means the system showed no prompt.
public enum PermissionResult: String, CaseIterable, Sendable {
    case granted, denied
    case alreadyDecided = "already_decided"
}

/// What a widget showed as it appeared.
public enum WidgetContent: String, CaseIterable, Sendable {
    case fresh, cached, placeholder
}
