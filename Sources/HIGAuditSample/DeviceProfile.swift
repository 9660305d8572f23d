import HIGAuditCore

/// One simulated iPad and the settings its owner chose; they label every session on it.
public struct DeviceProfile: Sendable, Equatable {
    /// `ipad-0001`, `ipad-0002`, … (1-based, four digits at least, so paths sort by device number).
    public var id: String
    public var index: Int
    /// The app's own haptics switch (`haptics_enabled`).
    public var hapticsEnabled: Bool
    /// The system-wide Apple Pencil double-tap setting.
    public var pencilPreference: PencilPreferredAction
    public var pencilCustomActionEnabled: Bool
    public var osVersion: String
    /// Index into `AppVersionBehaviour.releases` installed before the first day.
    var initialRelease: Int
    /// Probability, each new day, of updating to the next release.
    var updateChance: Double

    init(index: Int, random: inout SampleRandom) {
        self.index = index
        let number = String(index + 1)
        id = "ipad-" + String(repeating: "0", count: max(0, 4 - number.count)) + number
        hapticsEnabled = !random.chance(0.2)
        pencilPreference = [PencilPreferredAction.switchEraser, .switchPrevious, .showColorPalette, .ignore][
            random.pick(weights: [0.55, 0.2, 0.15, 0.1])
        ]
        pencilCustomActionEnabled = random.chance(0.25)
        osVersion = random.element(["26.0.1", "26.1", "26.1", "26.2"])
        initialRelease = random.pick(weights: [0.45, 0.35, 0.2])
        updateChance = 0.35
    }
}
