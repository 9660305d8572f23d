/// How one released version of Sketchbook behaves: the probability, per opportunity, of each planted
/// guideline problem (see `InjectedProblem.opportunity`).
///
/// This table is the ground truth of the sample data; `SampleLogs/README.md` reproduces it. 5.1.0 is
/// the baseline with a little background noise, 5.2.0 regresses badly (it also launches slowly, asks
/// for permissions at launch, prompts for ratings at once and its widget shows placeholders), 5.2.1
/// fixes most of it but keeps the popover and tab-state bugs.
public struct AppVersionBehaviour: Sendable, Equatable {
    public var version: String
    /// Probability per opportunity, indexed by `InjectedProblem.rawValue`.
    public var rates: [Double]

    public init(version: String, rates: [InjectedProblem: Double]) {
        self.version = version
        self.rates = InjectedProblem.allCases.map { rates[$0] ?? 0 }
    }

    public func rate(_ problem: InjectedProblem) -> Double { rates[problem.rawValue] }

    /// The same version with every rate multiplied by `factor`, capped at 1 (`--problem-rate-scale`).
    public func scaled(by factor: Double) -> AppVersionBehaviour {
        var scaled = self
        scaled.rates = rates.map { min(1, $0 * factor) }
        return scaled
    }

    public static let v510 = AppVersionBehaviour(version: "5.1.0", rates: [
        .modalDepth: 0.02,
        .modalOverPopover: 0.05,
        .pencilPreferenceIgnored: 0.10,
        .hapticMismatch: 0.05,
        .tabStateLost: 0.02,
        .loadingWithoutIndicator: 0.02,
        .slowLaunch: 0.03,
        .widgetPlaceholder: 0.10,
    ])

    public static let v520 = AppVersionBehaviour(version: "5.2.0", rates: [
        .hapticBurst: 0.60,
        .prolongedHaptic: 0.50,
        .forcedTabSwitch: 0.70,
        .modalDepth: 0.80,
        .modalOverPopover: 0.30,
        .destructiveDoubleTap: 0.50,
        .hapticMismatch: 0.60,
        .hapticDuringCapture: 0.50,
        .hapticWhenDisabled: 0.70,
        .tabStateLost: 0.30,
        .loadingWithoutIndicator: 0.25,
        .slowLaunch: 0.60,
        .launchPermissionRequest: 0.50,
        .earlyRatingPrompt: 0.20,
        .widgetPlaceholder: 0.50,
    ])

    public static let v521 = AppVersionBehaviour(version: "5.2.1", rates: [
        .hapticBurst: 0.05,
        .modalDepth: 0.05,
        .modalOverPopover: 0.30,
        .pencilPreferenceIgnored: 0.02,
        .hapticMismatch: 0.05,
        .hapticDuringCapture: 0.10,
        .tabStateLost: 0.30,
        .loadingWithoutIndicator: 0.05,
        .slowLaunch: 0.02,
        .widgetPlaceholder: 0.10,
    ])

    /// Release order: a device only ever moves forward through this list.
    public static let releases: [AppVersionBehaviour] = [.v510, .v520, .v521]
}
