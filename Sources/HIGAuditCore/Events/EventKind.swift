extension EventKind {
    /// The `type` string in the log.
    public var wireName: String { wireNameLiteral.description }

    /// `wireName` as a literal, for comparing bytes without building a `String`: the schema's.
    public var wireNameLiteral: StaticString { EventSchema.types[Int(rawValue)].wireName }

    public init?(wireName: String) {
        var name = wireName
        guard let kind = name.withUTF8({ bytes -> EventKind? in
            guard let start = bytes.baseAddress else { return nil }
            return EventKind(wireBytes: ByteSlice(start: start, count: bytes.count))
        }) else { return nil }
        self = kind
    }

    /// The kind whose wire name is exactly these bytes (already unescaped), or nil for a type of the
    /// app's own. One hash of (length, first byte, last byte) picks the one candidate, one comparison
    /// confirms it.
    @inline(__always)
    init?(wireBytes b: ByteSlice) {
        guard let kind = WireNameTable.shared.kind(b, named: { $0.wireNameLiteral }) else { return nil }
        self = kind
    }
}

extension EventKind {
    /// The wire names both ways (`EventKind(wireBytes:)`, `wireNameLiteral`), held by a reader that
    /// looks one up on every event: the statics behind those are initialised on first use, which
    /// costs a check on every use.
    struct WireNames {
        private let table = WireNameTable.shared
        private let names = EventKind.allCases.map(\.wireNameLiteral)

        /// `EventKind(wireBytes:)`.
        @inline(__always)
        func kind(_ b: ByteSlice) -> EventKind? { table.kind(b, named: name) }

        /// `kind.wireNameLiteral`.
        @inline(__always)
        func name(_ kind: EventKind) -> StaticString { names[Int(kind.rawValue)] }
    }
}

/// The kinds by a hash of their wire names (`EventKind(wireBytes:)`), built from the schema when first
/// used; two names of the same length, first and last byte stop the program there, naming both.
private struct WireNameTable {
    let hash: PerfectHash
    let kinds: [EventKind?]

    static let shared = WireNameTable()

    /// The kind whose wire name (as `named` gives it) is exactly `b`, or nil.
    @inline(__always)
    func kind(_ b: ByteSlice, named: (EventKind) -> StaticString) -> EventKind? {
        guard b.count > 0 else { return nil }
        let signature = Self.signature(count: b.count, first: b.start[0], last: b.start[b.count &- 1])
        guard let kind = kinds[hash.bucket(signature)], b == named(kind) else { return nil }
        return kind
    }

    @inline(__always)
    static func signature(count: Int, first: UInt8, last: UInt8) -> UInt64 {
        UInt64(truncatingIfNeeded: count) | UInt64(first) &<< 32 | UInt64(last) &<< 40
    }

    private init() {
        let names = EventKind.allCases.map { Array(UnsafeBufferPointer(start: $0.wireNameLiteral.utf8Start, count: $0.wireNameLiteral.utf8CodeUnitCount)) }
        let signatures = names.map { Self.signature(count: $0.count, first: $0[0], last: $0[$0.count - 1]) }
        for (i, signature) in signatures.enumerated() {
            if let j = signatures.firstIndex(of: signature), j != i {
                preconditionFailure(
                    "EventSchema: the wire names \"\(EventKind.allCases[j].wireName)\" and \"\(EventKind.allCases[i].wireName)\" "
                        + "have the same length, first and last byte, which EventKind(wireBytes:) tells names apart by")
            }
        }
        let bits = PerfectHash.bits(forKeys: names.count, minimum: 7)
        guard let hash = PerfectHash(separating: signatures, bits: bits) else {
            preconditionFailure("EventSchema: no hash separates the \(names.count) wire names in \(1 << bits) buckets")
        }
        var kinds = [EventKind?](repeating: nil, count: 1 << bits)
        for (kind, signature) in zip(EventKind.allCases, signatures) { kinds[hash.bucket(signature)] = kind }
        self.hash = hash
        self.kinds = kinds
    }
}

/// A set of event kinds as a bit mask, so the engine can hand each event only to the rules that asked.
///
/// Touches, most of the events in a log, can also be asked for by phase (`touches(_:)`): a rule that
/// only reacts to a touch's start or end is then not handed the strokes in between. `touch` itself
/// stands for touches in every phase.
public struct EventKindSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public init(_ kinds: EventKind...) {
        self.init(kinds)
    }

    public init(_ kinds: some Sequence<EventKind>) {
        if let problem = Self.capacityProblem { preconditionFailure(problem) }
        var raw: UInt64 = 0
        for kind in kinds { raw |= 1 << UInt64(kind.rawValue) }
        self.init(rawValue: raw)
    }

    /// Touches in the given phases only.
    public static func touches(_ phases: TouchPhase...) -> EventKindSet {
        var raw: UInt64 = 0
        for phase in phases { raw |= phaseBit(phase) }
        return EventKindSet(rawValue: raw)
    }

    /// Whether every event of `kind` is in the set (for `touch`: touches in every phase).
    public func contains(_ kind: EventKind) -> Bool {
        rawValue & (1 << UInt64(kind.rawValue)) != 0
    }

    /// Whether touches in `phase` are in the set, by themselves or with every touch.
    public func contains(touchesIn phase: TouchPhase) -> Bool {
        contains(.touch) || rawValue & Self.phaseBit(phase) != 0
    }

    /// The phases' bits follow the kinds'; `capacityProblem` says when they no longer fit.
    private static func phaseBit(_ phase: TouchPhase) -> UInt64 {
        1 << UInt64(EventKind.allCases.count + phase.ordinal)
    }

    /// Why the kinds and the touch phases do not fit in `rawValue`, or nil when they do: checked with
    /// the rest of the schema (`EventSchema.problems`) when the schema is first read, and by
    /// `EventKindTests`, so that the 61st kind fails loudly instead of sharing a bit with another.
    static var capacityProblem: String? {
        let bits = EventKind.allCases.count + TouchPhase.allCases.count
        guard bits > UInt64.bitWidth else { return nil }
        return "\(EventKind.allCases.count) event kinds and \(TouchPhase.allCases.count) touch phases need \(bits) bits; "
            + "EventKindSet has \(UInt64.bitWidth): widen its rawValue"
    }

    public static let all = EventKindSet(EventKind.allCases)
}
