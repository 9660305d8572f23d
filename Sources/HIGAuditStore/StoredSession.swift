import HIGAuditCore

/// The stored form of one open session (`checkpoint_sessions.state`, from `v9-checkpoint-sessions-explicit`):
/// its fields written one by one in a fixed order, so that reading a row costs what its bytes hold.
///
/// `PackedCheckpoint`'s form (version 1, `v8`) went through the session's `Codable` conformances by a
/// tree of values: night 31 into a store of 30 nights spent more on making and freeing that tree, and
/// finding each key in it, than on the rest of what the history costs (issue 46, "Nights cost what the
/// night holds"). Most of a session's bytes are its waiting events and its seen ids, written here by
/// hand; the session's context and rule states (few fields each, and changing with the rules) still go
/// through `Codable`, in `PackedCheckpoint`'s form, as two runs of bytes.
///
/// - a version byte, `formatVersion` (2; version 1 is `PackedCheckpoint`'s, `{` the JSON before it);
/// - the id; the device (a flag, then the string); `newestTs`; `endTs` and `releasedEarlyTs` (a flag,
///   then the number);
/// - the seen-id fingerprints: their count, then 8 bytes each;
/// - the waiting events: their count, then each in `StoredEventWriter`'s form;
/// - the context and the rule states, each its length and then `PackedCheckpoint`'s bytes.
///
/// A change to any of it is a new `formatVersion` read beside this one (the rows of a store are
/// rewritten by a migration, and a version that cannot read them refuses the store by its record).
enum StoredSession {
    static let formatVersion: UInt8 = 2

    static func encode(_ session: SessionCheckpoint) throws -> [UInt8] {
        var out = StoredBytesWriter()
        out.bytes.reserveCapacity(64 &+ 8 &* session.seenIds.count &+ 48 &* session.pendingEvents.count)
        out.byte(formatVersion)
        out.string(session.id)
        out.bool(session.device != nil)
        if let device = session.device { out.string(device) }
        out.signed(session.newestTs)
        out.bool(session.endTs != nil)
        if let endTs = session.endTs { out.signed(endTs) }
        out.bool(session.releasedEarlyTs != nil)
        if let releasedEarlyTs = session.releasedEarlyTs { out.signed(releasedEarlyTs) }
        out.count(session.seenIds.count)
        for fingerprint in session.seenIds { out.word(fingerprint) }
        out.count(session.pendingEvents.count)
        var events = StoredEventWriter(session: session.id, newestTs: session.newestTs)
        for event in session.pendingEvents { events.write(event, to: &out) }
        out.run(try PackedCheckpoint.encode(session.context))
        out.run(try PackedCheckpoint.encode(session.ruleStates))
        return out.bytes
    }

    /// A session of this form back; throws `DecodingError` for bytes it cannot read (never traps).
    static func decode(_ bytes: [UInt8]) throws -> SessionCheckpoint {
        var input = StoredBytesReader(bytes, offset: 0)
        guard try input.byte() == formatVersion else { throw input.damaged("another version than \(formatVersion)") }
        let id = try input.string()
        let device = try input.bool() ? try input.string() : nil
        let newestTs = try input.signed()
        let endTs = try input.bool() ? try input.signed() : nil
        let releasedEarlyTs = try input.bool() ? try input.signed() : nil
        let fingerprints = try input.count(elementSize: 8)
        var seenIds: [UInt64] = []
        seenIds.reserveCapacity(fingerprints)
        for _ in 0..<fingerprints { seenIds.append(try input.word()) }
        // Every event takes at least its ts, two text bytes, three source numbers and a type: 7 bytes.
        let eventCount = try input.count(elementSize: 7)
        var pendingEvents: [Event] = []
        pendingEvents.reserveCapacity(eventCount)
        var events = StoredEventReader(session: id, newestTs: newestTs)
        for _ in 0..<eventCount { pendingEvents.append(try events.read(from: &input)) }
        let context = try PackedCheckpoint.decode(SessionContext.self, from: try input.run())
        let ruleStates = try PackedCheckpoint.decode(RuleStates.self, from: try input.run())
        guard input.atEnd else { throw input.damaged("bytes left after the session") }
        return SessionCheckpoint(
            id: id, device: device, newestTs: newestTs, endTs: endTs, seenIds: seenIds, pendingEvents: pendingEvents,
            context: context, ruleStates: ruleStates, releasedEarlyTs: releasedEarlyTs)
    }

    static func isStored(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first == formatVersion
    }
}
