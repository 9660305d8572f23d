import HIGAuditCore

/// A guideline problem the generator plants on purpose, each tied to the SPEC §3 rule that must find it.
///
/// Every problem has an *opportunity* (the moment a buggy build could misbehave, e.g. "a successful
/// save") and a per-version probability of misbehaving there. The manifest counts opportunities,
/// injections and the violations each injection must produce, so tests can hold the rules to them.
public enum InjectedProblem: Int, CaseIterable, Sendable, Comparable, Codable {
    /// Selection haptics on every detent of a fast brush-picker scroll: one burst violation.
    case hapticBurst
    /// A long custom "celebration" haptic after an export (> 1500 ms).
    case prolongedHaptic
    /// The app switches to the Gallery tab by itself after a successful save.
    case forcedTabSwitch
    /// The export flow stacks a third sheet (depth 3 > 2).
    case modalDepth
    /// The brush editor sheet is presented over the brush popover.
    case modalOverPopover
    /// Pencil double-tap mapped to a custom "delete stroke" that mutates content. Also a
    /// `pencil-preference-ignored` violation when the user did not turn custom actions on.
    case destructiveDoubleTap
    /// Double-tap switches to the eraser although the system setting says otherwise.
    case pencilPreferenceIgnored
    /// A failed save plays the success notification haptic.
    case hapticMismatch
    /// The shutter plays an impact haptic while the camera is capturing.
    case hapticDuringCapture
    /// Layer snapping plays an impact haptic although the user turned haptics off.
    case hapticWhenDisabled
    /// Coming back to a tab shows its root instead of the screen the user left.
    case tabStateLost
    /// A slow thumbnail load (> 1000 ms) runs without any indicator.
    case loadingWithoutIndicator
    /// The first screen becomes usable more than 2 s after launch.
    case slowLaunch
    /// Right after launch, before any touch, the app asks for the notifications or tracking permission.
    case launchPermissionRequest
    /// The app asks for a rating seconds after launch.
    case earlyRatingPrompt
    /// The home-screen widget appears with a placeholder, or takes more than 1 s to show its content.
    case widgetPlaceholder

    public static func < (a: InjectedProblem, b: InjectedProblem) -> Bool { a.rawValue < b.rawValue }

    /// A short stable name, used in the manifest and the README table.
    public var name: String {
        switch self {
        case .hapticBurst: "haptic-burst"
        case .prolongedHaptic: "prolonged-haptic"
        case .forcedTabSwitch: "forced-tab-switch"
        case .modalDepth: "modal-depth"
        case .modalOverPopover: "modal-over-popover"
        case .destructiveDoubleTap: "destructive-double-tap"
        case .pencilPreferenceIgnored: "pencil-preference-ignored"
        case .hapticMismatch: "haptic-mismatch"
        case .hapticDuringCapture: "haptic-during-capture"
        case .hapticWhenDisabled: "haptic-when-disabled"
        case .tabStateLost: "tab-state-lost"
        case .loadingWithoutIndicator: "loading-without-indicator"
        case .slowLaunch: "slow-launch"
        case .launchPermissionRequest: "launch-permission-request"
        case .earlyRatingPrompt: "early-rating-prompt"
        case .widgetPlaceholder: "widget-placeholder"
        }
    }

    /// The SPEC §3 rule whose violation this problem is planted for.
    public var ruleID: String {
        switch self {
        case .hapticBurst, .prolongedHaptic: "haptic-overuse"
        case .launchPermissionRequest: "unprompted-permission-request"
        default: name
        }
    }

    /// When the app gets the chance to misbehave this way.
    public var opportunity: String {
        switch self {
        case .hapticBurst: "brush-picker scroll, haptics on"
        case .prolongedHaptic: "successful export, haptics on"
        case .forcedTabSwitch: "successful save"
        case .modalDepth: "export flow that opens options"
        case .modalOverPopover: "brush popover opened"
        case .destructiveDoubleTap: "Pencil double-tap"
        case .pencilPreferenceIgnored: "Pencil double-tap, preference not switch_eraser"
        case .hapticMismatch: "failed save, haptics on"
        case .hapticDuringCapture: "camera capture, haptics on"
        case .hapticWhenDisabled: "layer snap, haptics off"
        case .tabStateLost: "return to a tab left on a pushed screen"
        case .loadingWithoutIndicator: "thumbnail load"
        case .slowLaunch: "app launch"
        case .launchPermissionRequest: "app launch"
        case .earlyRatingPrompt: "app launch"
        case .widgetPlaceholder: "widget shown"
        }
    }
}

/// The rule ids of SPEC §3 in rule-id order, as the summary table lists them.
public let sampleRuleIDs: [String] = RuleRegistry.descriptions.map(\.identifier)
