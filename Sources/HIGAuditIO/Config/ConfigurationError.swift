/// Why a config file was refused: the file, the place in it, the key and what was expected.
///
/// An unreadable or invalid config is fatal (SPEC §5), so the message must be enough to fix the file
/// without guessing: `hig-audit.yml:7:18: rules.haptic-overuse.burst_count: expected a whole number
/// of at least 2, found 1`.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public var file: String
    /// 1-based line and column when the YAML parser knows them.
    public var line: Int?
    public var column: Int?
    /// Dotted path to the offending key, e.g. `rules.modal-depth.max_depth`; empty for the whole file.
    public var keyPath: String
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
    }
}
