/// One accepted line of an interaction log, decoded and typed (SPEC §2).
///
/// Events are values: the decoder makes them from bytes already in memory, the session engine orders
/// them, and the rules read them. Nothing here touches a file.
public struct Event: Sendable, Equatable, Codable {
    /// Event time in milliseconds since the Unix epoch (RFC 3339 input truncated to milliseconds).
    public var ts: Int64
    /// The text fields are stored as `CompactText` (see there); the public `String` properties below
    /// read and write them. The compiler's memberwise initialiser takes them in this order (`ts:
    /// sessionText:payload:deviceText:…:identifier:`); the decoder and the public initialiser use it.
    var sessionText: CompactText
    public var payload: EventPayload
    var deviceText: CompactText?
    var appText: CompactText?
    var appVersionText: CompactText?
    var osVersionText: CompactText?
    var screenText: CompactText?
    /// Where the line came from; filled in by whoever knows the file and line.
    public var source: SourceLocation
    var identifier: CompactText?

    public var kind: EventKind { payload.kind }

    /// The synthesized coding under the public names, as checkpoints have always had them.
    private enum CodingKeys: String, CodingKey {
        case ts, payload, source
        case sessionText = "session", deviceText = "device", appText = "app", appVersionText = "appVersion"
        case osVersionText = "osVersion", screenText = "screen", identifier = "id"
    }
}

extension Event {
    /// Delegates to the memberwise initialiser, which builds the value in one piece. Assigning the
    /// fields one by one (as an initialiser in the type's body must) left the optimiser with a stack copy
    /// it did not remove: every decoded event was copied whole and the original destroyed, a measured
    /// cost on the decoding hot path.
    public init(
        ts: Int64, session: String, payload: EventPayload,
        device: String? = nil, app: String? = nil, appVersion: String? = nil, osVersion: String? = nil,
        screen: String? = nil, id: String? = nil, source: SourceLocation = .unknown
    ) {
        self.init(
            ts: ts, sessionText: CompactText(session), payload: payload, deviceText: device.map(CompactText.init),
            appText: app.map(CompactText.init), appVersionText: appVersion.map(CompactText.init),
            osVersionText: osVersion.map(CompactText.init), screenText: screen.map(CompactText.init),
            source: source, identifier: id.map(CompactText.init))
    }

    /// One app session on one device; never empty.
    public var session: String {
        get { sessionText.string }
        set { sessionText = CompactText(newValue) }
    }

    public var device: String? {
        get { deviceText?.string }
        set { deviceText = newValue.map(CompactText.init) }
    }

    public var app: String? {
        get { appText?.string }
        set { appText = newValue.map(CompactText.init) }
    }

    public var appVersion: String? {
        get { appVersionText?.string }
        set { appVersionText = newValue.map(CompactText.init) }
    }

    public var osVersion: String? {
        get { osVersionText?.string }
        set { osVersionText = newValue.map(CompactText.init) }
    }

    /// The screen visible *after* the event.
    public var screen: String? {
        get { screenText?.string }
        set { screenText = newValue.map(CompactText.init) }
    }

    /// Devices retry uploads, so an `id` already seen in the session marks a duplicate.
    public var id: String? {
        get { identifier?.string }
        set { identifier = newValue.map(CompactText.init) }
    }
}

/// A place in the input: the file's index in reading order and the 1-based line in its decompressed text.
///
/// Files are numbered in the order they are read, so ordering by (file, line) is "files in reading
/// order, then line" (SPEC §4). The paths themselves live in a `SourceFileTable`.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var file: Int32
    public var line: Int64

    public init(file: Int32, line: Int64) {
        self.file = file
        self.line = line
    }

    public static let unknown = SourceLocation(file: -1, line: 0)

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line) < (b.file, b.line)
    }
}

/// The paths of the input files of one run, as the user named them (SPEC §3 "Every violation record").
public struct SourceFileTable: Sendable, Equatable {
    public private(set) var paths: [String] = []

    public init(paths: [String] = []) { self.paths = paths }

    /// Registers the next file in reading order and returns its index.
    public mutating func add(_ displayPath: String) -> Int32 {
        paths.append(displayPath)
        return Int32(paths.count - 1)
    }

    /// `PATH:LINE` for a location, as violation records and diagnostics print it.
    public func describe(_ location: SourceLocation) -> String {
        guard location.file >= 0, Int(location.file) < paths.count else { return "?:\(location.line)" }
        return "\(paths[Int(location.file)]):\(location.line)"
    }
}
