/// The stored form of one open session (`checkpoint_sessions.state`, from `v8-checkpoint-sessions-packed`):
/// the session's `Codable` value in a binary form of JSON's model instead of JSON text.
///
/// Night 31 into a store of 30 nights decoded ~200 open sessions' JSON (~3 MB: mostly each session's
/// seen event ids as decimal numbers, and its violations) that a new store does not have; Foundation's
/// JSON decoder spent more CPU on it than the rest of what the history costs (issue 46, "Nights cost
/// what the night holds"). The values go through the same `Codable` conformances as before, so every
/// rule of how an older checkpoint reads (a key it lacks, `decodeIfPresent`) holds unchanged; only the
/// text is gone:
///
/// - a version byte, `formatVersion` (JSON text begins with `{`, so the two forms never look alike);
/// - then one value: a tag byte and its body. `nil`; `false`, `true`; a signed integer (zigzag LEB128)
///   or an unsigned one (LEB128); a `Double` (its 8 bytes, little-endian); a string (its UTF-8 length,
///   then its bytes); an array of `UInt64` (its count, then 8 bytes each: a session's seen-id
///   fingerprints, random 64-bit numbers); an unkeyed container (its count, then the values); a keyed
///   container (its count, then each key and value).
/// - A key is written once per value: as 0, its length and bytes the first time, then as its number
///   (1-based, in order of first appearance), so the keys of a session's many violations cost a byte.
///
/// Unlike the parking bytes (`PackedWriter`, which live only in memory and may change with the code),
/// this form is stored: a change to it is a new `formatVersion` read beside the old.
enum PackedCheckpoint {
    /// The first byte of every value in this form.
    static let formatVersion: UInt8 = 1

    enum Tag: UInt8 {
        case null = 0, bitFalse, bitTrue, signed, unsigned, double, string, words, unkeyed, keyed
    }

    /// `value` in this form.
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let node = try PackedNodeEncoder.node(of: value, codingPath: [])
        var writer = PackedCheckpointWriter()
        writer.bytes.append(formatVersion)
        writer.write(node)
        return writer.bytes
    }

    /// A value of this form back; throws `DecodingError` for bytes it cannot read (never traps).
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        guard bytes.first == formatVersion else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "not a packed checkpoint of version \(formatVersion)"))
        }
        var reader = PackedCheckpointReader(bytes: bytes, offset: 1)
        let node = try reader.value(depth: 0)
        guard reader.offset == bytes.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bytes left after the value"))
        }
        return try PackedNodeDecoder(node: node, keys: PackedKeys(reader), codingPath: []).decodeValue(Value.self)
    }

    /// Whether stored bytes are in this form (else they are the JSON of versions before `v8`).
    static func isPacked(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first == formatVersion
    }
}
