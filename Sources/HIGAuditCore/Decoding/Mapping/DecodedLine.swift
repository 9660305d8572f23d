/// What one line of NDJSON turned out to be, before the session engine sees it (SPEC §2 buckets:
/// blank, malformed and unknown type are decided here; duplicate, late and accepted by the engine).
public enum DecodedLine: Sendable, Equatable {
    /// Empty, or JSON whitespace only.
    case blank
    case event(Event)
    /// A valid event line whose `type` is not one we know: counted per type name, otherwise ignored.
    case unknownType(String)
    case malformed(MalformedLine)
}

/// What one line turned out to be when its event, if any, went straight to a consumer
/// (`EventDecoder.decode(_:source:accept:)`): `DecodedLine` without the event.
public enum LineVerdict: Sendable, Equatable {
    case blank
    /// The event was handed to the consumer.
    case event
    case unknownType(String)
    case malformed(MalformedLine)
}

/// Why a line was rejected, precise enough for a person to find and fix it.
public struct MalformedLine: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset within the line where the problem was found, when there is one.
    public var column: Int?
    public var reason: String

    public init(reason: String, column: Int? = nil) {
        self.reason = reason
        self.column = column
    }

    public var description: String {
        if let column { return "\(reason) (at byte \(column + 1) of the line)" }
        return reason
    }
}
