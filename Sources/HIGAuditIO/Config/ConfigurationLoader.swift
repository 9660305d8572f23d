import Foundation
import HIGAuditCore
import Yams

/// Reads a YAML config file (`--config`) into an `AuditConfiguration`, refusing anything it does not
/// understand.
///
/// Keys: `max_lateness_ms` (≥ 0), `max_pending_events` (≥ 1), `session_gap_ms` (≥ 1), `idle_runs` (≥ 1, nightly only), and `rules.<id>.enabled` (true/false) and
/// `rules.<id>.<parameter>` (a whole number ≥ the parameter's minimum) for the rules it is given, and
/// `exclude:`, a list of accepted findings (`ExclusionReader`), `overrides:`, rule settings per screen
/// (`OverrideReader`), and `import:`, how exports of other tools are read (`ImportSettingsReader`). A
/// typo'd key silently ignored would leave a rule running with values the user believes changed, so
/// unknown keys are errors, as are values of the wrong type: quoted numbers, floats, `yes`, `null`.
/// Whole numbers may use `_` between digits (`1_800_000`). Booleans are YAML 1.2's `true`/`false`
/// (any case). An empty file is the default configuration; an empty mapping value (`rules:` with
/// everything below commented out) sets nothing.
public struct ConfigurationLoader: Sendable {
    /// Every rule the tool knows; a config may mention only these.
    public let rules: [RuleDescription]

    public init(rules: [RuleDescription]) {
        self.rules = rules
    }

    /// The largest config file read: a complete one (`rules --defaults`) is a few KiB. Parsing YAML
    /// takes memory and time many times the file's size, so a larger file is refused unread.
    public static let maximumFileSize = 1 << 20

    /// Reads and validates the file at `path`.
    public func load(path: String) throws(ConfigurationError) -> AuditConfiguration {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ConfigurationError(file: path, keyPath: "", message: "it is a directory, not a config file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw ConfigurationError(file: path, keyPath: "", message: reason)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.maximumFileSize + 1) ?? Data()
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let why = underlying?.domain == NSPOSIXErrorDomain
                ? String(cString: strerror(Int32(underlying!.code))) : error.localizedDescription
            throw ConfigurationError(file: path, keyPath: "", message: "cannot read the file: \(why)")
        }
        guard data.count <= Self.maximumFileSize else {
            throw ConfigurationError(
                file: path, keyPath: "",
                message: "the file is larger than \(Self.maximumFileSize / 1024) KiB; a config file sets a few dozen values")
        }
        if let problem = Self.textProblem(data) {
            throw ConfigurationError(file: path, line: problem.line, keyPath: "", message: problem.message)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, keyPath: "", message: "the file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// What makes `data` no text a config can be, with the line where it shows, or nil: UTF-16 (a
    /// byte order mark of its own), bytes that are not UTF-8, or a NUL, which YAML refuses without a
    /// line.
    static func textProblem(_ data: Data) -> (line: Int?, message: String)? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return (nil, "the file is UTF-16 text; save it as UTF-8")
        }
        var line = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
                if scalar.value == 0 { return (line, "a NUL byte, which a YAML file cannot hold") }
            case .emptyInput:
                return nil
            case .error:
                return (line, "bytes that are not UTF-8; a config file is UTF-8 text")
            }
        }
    }

    /// Validates YAML text; `file` names it in errors.
    public func parse(_ yaml: String, file: String) throws(ConfigurationError) -> AuditConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw Self.error(from: error, file: file)
        }
        var configuration = AuditConfiguration()
        guard let root else { return configuration }
        let reader = NodeReader(file: file)
        let top = try reader.mapping(root, at: "")
        for (key, value) in top {
            switch key.name {
            case "max_lateness_ms":
                configuration.maxLatenessMs = try reader.integer(value, at: key.name, minimum: 0)
            case "max_pending_events":
                configuration.maxPendingEvents = Int(try reader.integer(value, at: key.name, minimum: 1))
            case "session_gap_ms":
                configuration.sessionGapMs = try reader.integer(value, at: key.name, minimum: 1)
            case "idle_runs":
                configuration.idleRuns = Int(try reader.integer(value, at: key.name, minimum: 1))
            case "rules":
                configuration.rules = try readRules(value, reader: reader)
            case "exclude":
                configuration.exclusions = try ExclusionReader(reader: reader, rules: rules).read(value)
            case "overrides":
                configuration.overrides = try OverrideReader(reader: reader, loader: self).read(value)
            case "import":
                configuration.importSettings = try ImportSettingsReader(reader: reader).read(value)
            default:
                throw reader.error(
                    at: key.node, key.name,
                    "unknown setting; expected max_lateness_ms, max_pending_events, session_gap_ms, idle_runs, rules, exclude, overrides or import")
            }
        }
        return configuration
    }

    /// A `rules:` mapping, at the top level or in an `overrides:` entry (`at` is its key path).
    func readRules(_ node: Node, reader: NodeReader, at rulesPath: String = "rules") throws(ConfigurationError) -> [String: RuleSettings] {
        var settings: [String: RuleSettings] = [:]
        for (key, value) in try reader.mapping(node, at: rulesPath) {
            let path = rulesPath + "." + key.name
            guard let rule = rules.first(where: { $0.identifier == key.name }) else {
                let known = rules.map(\.identifier).sorted().joined(separator: ", ")
                throw reader.error(at: key.node, path, "unknown rule; known rules: \(known)")
            }
            var ruleSettings = RuleSettings()
            for (parameterKey, parameterValue) in try reader.mapping(value, at: path) {
                let parameterPath = path + "." + parameterKey.name
                if parameterKey.name == "enabled" {
                    ruleSettings.enabled = try reader.boolean(parameterValue, at: parameterPath)
                } else if let parameter = rule.parameter(named: parameterKey.name) {
                    ruleSettings.parameters[parameter.name] = try reader.integer(
                        parameterValue, at: parameterPath, minimum: parameter.minimum
                    )
                } else {
                    let known = (["enabled"] + rule.parameters.map(\.name)).joined(separator: ", ")
                    throw reader.error(at: parameterKey.node, parameterPath, "unknown setting; expected one of: \(known)")
                }
            }
            settings[rule.identifier] = ruleSettings
        }
        return settings
    }

    private static func error(from error: any Error, file: String) -> ConfigurationError {
        guard let yamlError = error as? YamlError else {
            return ConfigurationError(file: file, keyPath: "", message: "invalid YAML: \(error)")
        }
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return ConfigurationError(file: file, line: mark.line, column: mark.column, keyPath: "", message: "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ConfigurationError(
                file: file, line: context.mark.line, column: context.mark.column, keyPath: "",
                message: "duplicate key \(duplicates.sorted().joined(separator: ", "))"
            )
        case .reader(let problem, _, _, _):
            return ConfigurationError(file: file, keyPath: "", message: "invalid YAML: \(problem)")
        default:
            return ConfigurationError(file: file, keyPath: "", message: "invalid YAML: \(yamlError)")
        }
    }
}

/// Typed access to YAML nodes that turns every mismatch into a `ConfigurationError` at the node's place.
struct NodeReader {
    let file: String

    struct Key {
        var name: String
        var node: Node
    }

    /// The pairs of a mapping; an empty value (`rules:` with everything below commented out) is an
    /// empty mapping.
    func mapping(_ node: Node, at path: String) throws(ConfigurationError) -> [(Key, Node)] {
        if case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
            Resolver.default.resolveTag(of: node) == .null {
            return []
        }
        guard case .mapping(let mapping) = node else {
            throw error(at: node, path, "expected a mapping of settings, found \(describe(node))")
        }
        var pairs: [(Key, Node)] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                throw error(at: key, path, "expected a setting name, found \(describe(key))")
            }
            pairs.append((Key(name: scalar.string, node: key), value))
        }
        return pairs
    }

    /// The items of a list; an empty value is an empty list.
    func sequence(_ node: Node, at path: String) throws(ConfigurationError) -> [Node] {
        if isEmptyValue(node) { return [] }
        guard case .sequence(let sequence) = node else {
            throw error(at: node, path, "expected a list, found \(describe(node))")
        }
        return Array(sequence)
    }

    /// A text: any scalar but an empty one, as written (`5.2` stays `5.2`, not the number 5.2).
    func text(_ node: Node, at path: String, what: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node, !isEmptyValue(node) else {
            throw error(at: node, path, "expected \(what), found \(describe(node))")
        }
        return scalar.string
    }

    func isEmptyValue(_ node: Node) -> Bool {
        if case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
            Resolver.default.resolveTag(of: node) == .null {
            return true
        }
        return false
    }

    func integer(_ node: Node, at path: String, minimum: Int64) throws(ConfigurationError) -> Int64 {
        let expected = "expected a whole number of at least \(minimum)"
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
            let value = Self.wholeNumber(scalar.string)
        else {
            throw error(at: node, path, "\(expected), found \(describe(node))")
        }
        guard let number = value else { throw error(at: node, path, "\(expected); \(scalarText(node)) is too large") }
        guard number >= minimum else { throw error(at: node, path, "\(expected), found \(number)") }
        return number
    }

    func boolean(_ node: Node, at path: String) throws(ConfigurationError) -> Bool {
        if case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any {
            switch scalar.string {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        throw error(at: node, path, "expected true or false, found \(describe(node))")
    }

    /// Decimal digits with an optional sign and `_` between digits. Outer nil: not a whole number;
    /// inner nil: out of range.
    static func wholeNumber(_ text: String) -> Int64?? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard let first = digits.first, first.isASCII, first.isNumber, digits.last != "_" else { return nil }
        var value: Int64 = 0
        var overflow = false
        var previousUnderscore = false
        for character in digits {
            if character == "_" {
                if previousUnderscore { return nil }
                previousUnderscore = true
                continue
            }
            previousUnderscore = false
            guard character.isASCII, let digit = character.wholeNumberValue else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(Int64(digit)) : times10.addingReportingOverflow(Int64(digit))
            overflow = overflow || o1 || o2
            value = next
        }
        return .some(overflow ? nil : value)
    }

    func error(at node: Node, _ path: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line, column: node.mark?.column, keyPath: path, message: message)
    }

    private func scalarText(_ node: Node) -> String {
        if case .scalar(let scalar) = node { return scalar.string }
        return describe(node)
    }

    /// What a person wrote, named by its YAML type.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            let shown = Self.shortened(scalar.string)
            if scalar.style == .singleQuoted || scalar.style == .doubleQuoted { return "the quoted string \"\(shown)\"" }
            if scalar.style == .literal || scalar.style == .folded { return "a block of text" }
            switch Resolver.default.resolveTag(of: node) {
            case .null: return "an empty value"
            case .bool: return "the boolean-like word \(shown)"
            case .float: return "the fraction \(shown)"
            case .int: return "\(shown)"
            default: return "\"\(shown)\""
            }
        }
    }

    private static func shortened(_ text: String) -> String {
        let visible = String(text.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) })
        return visible.count > 40 ? String(visible.prefix(40)) + "…" : visible
    }
}
