// Codable conformances for the event values that per-session state keeps, so open sessions can be
// checkpointed between runs. Enumerations encode as their wire strings.

extension HapticKind: Codable {}
extension ModalStyle: Codable {}
extension PencilPreferredAction: Codable {}
extension OutcomeResult: Codable {}
extension CaptureSource: Codable {}
extension TouchCoverage: Codable {}

extension SourceLocation: Codable {
    private enum CodingKeys: String, CodingKey { case file, line, record }

    /// `record` is written only when it is not 0, so checkpoints of native logs are unchanged.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            file: try container.decode(Int32.self, forKey: .file), line: try container.decode(Int64.self, forKey: .line),
            record: try container.decodeIfPresent(Int32.self, forKey: .record) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        if record != 0 { try container.encode(record, forKey: .record) }
    }
}

extension SessionSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case hapticsEnabled = "haptics_enabled"
        case pencilPreferredAction = "pencil_preferred_action"
        case pencilCustomActionEnabled = "pencil_custom_action_enabled"
        case touches, synthetic
    }

    /// Checkpoints written before touch coverage lack `touches` and `synthetic`: their sessions came
    /// from native logs of that time, which held every touch and had no synthetic starts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            hapticsEnabled: try container.decode(Bool.self, forKey: .hapticsEnabled),
            pencilPreferredAction: try container.decode(PencilPreferredAction.self, forKey: .pencilPreferredAction),
            pencilCustomActionEnabled: try container.decode(Bool.self, forKey: .pencilCustomActionEnabled),
            touches: try container.decodeIfPresent(TouchCoverage.self, forKey: .touches) ?? .all,
            synthetic: try container.decodeIfPresent(Bool.self, forKey: .synthetic) ?? false
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hapticsEnabled, forKey: .hapticsEnabled)
        try container.encode(pencilPreferredAction, forKey: .pencilPreferredAction)
        try container.encode(pencilCustomActionEnabled, forKey: .pencilCustomActionEnabled)
        try container.encode(touches, forKey: .touches)
        try container.encode(synthetic, forKey: .synthetic)
    }
}

// Events themselves, for the reorder buffers of open sessions.
extension TouchPhase: Codable {}
extension TouchInput: Codable {}
extension MutationAction: Codable {}
extension LoadingIndicator: Codable {}
extension Permission: Codable {}
extension PermissionResult: Codable {}
extension WidgetContent: Codable {}

extension PencilTapAction: Codable {
    public init(from decoder: any Decoder) throws {
        let wire = try decoder.singleValueContainer().decode(String.self)
        guard let action = PencilTapAction(wireValue: wire) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown double-tap action \(wire)"))
        }
        self = action
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireValue)
    }
}
