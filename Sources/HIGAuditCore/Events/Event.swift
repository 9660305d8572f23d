/// One accepted line of an interaction log, decoded and typed (SPEC §2).
///
/// Events are values: the decoder makes them from bytes already in memory, the session engine orders
/// them, and the rules read them. Nothing here touches a file.
public struct Event: Sendable, Equatable, Codable {
    /// Event time in milliseconds since the Unix epoch (RFC 3339 input truncated to milliseconds).
    public var ts: Int64
    /// The text fields, in one block (see `EventTexts`); the public `String` properties below read and
    /// write them. The compiler's memberwise initialiser (`ts:texts:payload:source:`) is what the
    /// decoder and the public initialiser use.
    var texts: EventTexts
    public var payload: EventPayload
    /// Where the line came from; filled in by whoever knows the file and line.
    public var source: SourceLocation

    public var kind: EventKind { payload.kind }
}

extension Event {
    /// Delegates to the memberwise initialiser, which builds the value in one piece. Assigning the
    /// fields one by one (as an initialiser in the type's body must) leaves the optimiser with a stack
    /// copy it does not remove: every decoded event would be copied whole and the original destroyed.
    public init(
        ts: Int64, session: String, payload: EventPayload,
        device: String? = nil, app: String? = nil, appVersion: String? = nil, osVersion: String? = nil,
        screen: String? = nil, id: String? = nil, source: SourceLocation = .unknown
    ) {
        self.init(
            ts: ts,
            texts: EventTexts(
                session: CompactText(session), device: device.map(CompactText.init), app: app.map(CompactText.init),
                appVersion: appVersion.map(CompactText.init), osVersion: osVersion.map(CompactText.init),
                screen: screen.map(CompactText.init), id: id.map(CompactText.init)),
            payload: payload, source: source)
    }

    /// The texts the engine compares and hashes, without making a `String`.
    var sessionText: CompactText {
        @inline(__always) get { texts.session }
    }

    var screenText: CompactText? {
        @inline(__always) get { texts[.screen] }
    }

    var identifier: CompactText? {
        @inline(__always) get { texts[.id] }
    }

    /// One app session on one device; never empty.
    public var session: String {
        get { texts.session.string }
        set { texts[.session] = CompactText(newValue) }
    }

    public var device: String? {
        get { texts[.device]?.string }
        set { texts[.device] = newValue.map(CompactText.init) }
    }

    public var app: String? {
        get { texts[.app]?.string }
        set { texts[.app] = newValue.map(CompactText.init) }
    }

    public var appVersion: String? {
        get { texts[.appVersion]?.string }
        set { texts[.appVersion] = newValue.map(CompactText.init) }
    }

    public var osVersion: String? {
        get { texts[.osVersion]?.string }
        set { texts[.osVersion] = newValue.map(CompactText.init) }
    }

    /// The screen visible *after* the event.
    public var screen: String? {
        get { texts[.screen]?.string }
        set { texts[.screen] = newValue.map(CompactText.init) }
    }

    /// Devices retry uploads, so an `id` already seen in the session marks a duplicate.
    public var id: String? {
        get { texts[.id]?.string }
        set { texts[.id] = newValue.map(CompactText.init) }
    }
}

/// A place in the input: the file's index in reading order and the 1-based line in its decompressed text.
///
/// Files are numbered in the order they are read, so ordering by (file, line) is "files in reading
/// order, then line" (SPEC §4). The paths themselves live in a `SourceFileTable`.
public struct SourceLocation: Sendable, Hashable, Comparable {
    public var file: Int32
    /// The record's 1-based position within its line when a line holds several events (an imported
    /// OTLP request, SPEC §7: `PATH:LINE#K`); 0 for a line that is one event. Kept in what was the
    /// padding after `file`, so a location is no larger for it.
    public var record: Int32
    public var line: Int64

    public init(file: Int32, line: Int64, record: Int32 = 0) {
        self.file = file
        self.record = record
        self.line = line
    }

    public static let unknown = SourceLocation(file: -1, line: 0)

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.record) < (b.file, b.line, b.record)
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

    /// Names the file of `index` (a store's file id, not a reading position), leaving any index
    /// below it that has no name yet as "".
    public mutating func name(_ index: Int, _ displayPath: String) {
        while paths.count <= index { paths.append("") }
        paths[index] = displayPath
    }

    /// `PATH:LINE` (`PATH:LINE#K` for a record of a line) for a location, as violation records and
    /// diagnostics print it (the CSV and JSON writers print a `TableCell.source` without it). Its bytes
    /// written in place, in one allocation, rather than interpolated or appended.
    public func describe(_ location: SourceLocation) -> String {
        Self.describe(location, path: path(of: location))
    }

    /// The path of a location's file ("?" for an index the table does not hold).
    public func path(of location: SourceLocation) -> String {
        location.file >= 0 && Int(location.file) < paths.count ? paths[Int(location.file)] : "?"
    }

    /// `describe`'s text of `location` in the file at `path`.
    public static func describe(_ location: SourceLocation, path: String) -> String {
        var path = path
        let line = location.line
        guard location.record == 0 else { return path + ":" + String(line) + "#" + String(location.record) }
        guard line >= 0 else { return path + ":" + String(line) }
        let digits = DecimalDigits.count(UInt64(line))
        return path.withUTF8 { pathBytes in
            String(unsafeUninitializedCapacity: pathBytes.count &+ 1 &+ digits) { text in
                _ = text.initialize(fromContentsOf: pathBytes)
                text[pathBytes.count] = UInt8(ascii: ":")
                return pathBytes.count &+ 1 &+ DecimalDigits.write(UInt64(line), to: text.baseAddress! + (pathBytes.count &+ 1))
            }
        }
    }
}

/// In checkpoints an event has the keys the synthesized coding gave it (encoded in its order), each
/// text a `String` and an absent one left out, so that checkpoints written before `EventTexts` still read.
extension Event {
    private enum CodingKeys: String, CodingKey {
        case ts, session, payload, device, app, appVersion, osVersion, screen, source, id
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            ts: try container.decode(Int64.self, forKey: .ts),
            session: try container.decode(String.self, forKey: .session),
            payload: try container.decode(EventPayload.self, forKey: .payload),
            device: try container.decodeIfPresent(String.self, forKey: .device),
            app: try container.decodeIfPresent(String.self, forKey: .app),
            appVersion: try container.decodeIfPresent(String.self, forKey: .appVersion),
            osVersion: try container.decodeIfPresent(String.self, forKey: .osVersion),
            screen: try container.decodeIfPresent(String.self, forKey: .screen),
            id: try container.decodeIfPresent(String.self, forKey: .id),
            source: try container.decode(SourceLocation.self, forKey: .source))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ts, forKey: .ts)
        try container.encode(session, forKey: .session)
        try container.encode(payload, forKey: .payload)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(app, forKey: .app)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encodeIfPresent(osVersion, forKey: .osVersion)
        try container.encodeIfPresent(screen, forKey: .screen)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(id, forKey: .id)
    }
}
