/// `PackedCheckpoint.encode`: a value's `Encodable` conformance builds a tree of nodes (containers are
/// boxes, because a container is written to after it is handed out), which `PackedCheckpointWriter`
/// then lays out as bytes.
indirect enum PackedNode {
    case null
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case words([UInt64])
    case unkeyed(PackedUnkeyedBox)
    case keyed(PackedKeyedBox)
    /// A `superEncoder`'s value, known once its encoder is done.
    case later(PackedNodeEncoder)
}

final class PackedKeyedBox {
    var keys: [String] = []
    var values: [PackedNode] = []
}

final class PackedUnkeyedBox {
    var values: [PackedNode] = []
}

final class PackedNodeEncoder: Encoder {
    /// The coding path, joined only when asked for (`PackedNodeDecoder` says why).
    private let parentPath: [any CodingKey]
    private let lastKey: (any CodingKey)?
    var codingPath: [any CodingKey] { lastKey.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; an encoder given nothing stands for an empty keyed container, as in JSON.
    var node: PackedNode?

    init(codingPath: [any CodingKey], key: (any CodingKey)? = nil) {
        parentPath = codingPath
        lastKey = key
    }

    /// `value` as a node: plain values directly, others through their `encode(to:)`.
    static func node<Value: Encodable>(
        of value: Value, codingPath: [any CodingKey], key: (any CodingKey)? = nil
    ) throws -> PackedNode {
        // Compared as types, not cast (`as?` on a generic value costs a conformance lookup each time).
        if Value.self == [UInt64].self { return .words(unsafeBitCast(value, to: [UInt64].self)) }
        if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if Value.self == Int.self { return .signed(Int64(unsafeBitCast(value, to: Int.self))) }
        if Value.self == Int64.self { return .signed(unsafeBitCast(value, to: Int64.self)) }
        let encoder = PackedNodeEncoder(codingPath: codingPath, key: key)
        try value.encode(to: encoder)
        return encoder.node ?? .keyed(PackedKeyedBox())
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: PackedKeyedBox
        if case .keyed(let existing) = node {
            box = existing
        } else {
            box = PackedKeyedBox()
            node = .keyed(box)
        }
        return KeyedEncodingContainer(PackedKeyedWriter<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: PackedUnkeyedBox
        if case .unkeyed(let existing) = node {
            box = existing
        } else {
            box = PackedUnkeyedBox()
            node = .unkeyed(box)
        }
        return PackedUnkeyedWriter(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PackedSingleWriter(encoder: self)
    }
}

/// An integer of any width as a node.
private func integerNode<Number: BinaryInteger>(_ value: Number) -> PackedNode {
    Number.isSigned ? .signed(Int64(value)) : .unsigned(UInt64(value))
}

/// The key a `superEncoder()` without a key is stored under, as in Foundation's coders.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

struct PackedKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: PackedKeyedBox
    let codingPath: [any CodingKey]

    private func put(_ node: PackedNode, _ key: some CodingKey) {
        box.keys.append(key.stringValue)
        box.values.append(node)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(integerNode(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(integerNode(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try PackedNodeEncoder.node(of: value, codingPath: codingPath, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = PackedKeyedBox()
        put(.keyed(nested), key)
        return KeyedEncodingContainer(PackedKeyedWriter<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = PackedUnkeyedBox()
        put(.unkeyed(nested), key)
        return PackedUnkeyedWriter(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = PackedNodeEncoder(codingPath: codingPath + [SuperKey()])
        put(.later(encoder), SuperKey())
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = PackedNodeEncoder(codingPath: codingPath + [key])
        put(.later(encoder), key)
        return encoder
    }
}

struct PackedUnkeyedWriter: UnkeyedEncodingContainer {
    let box: PackedUnkeyedBox
    let codingPath: [any CodingKey]
    var count: Int { box.values.count }

    private func add(_ node: PackedNode) { box.values.append(node) }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { add(.double(value)) }
    mutating func encode(_ value: Float) throws { add(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { add(integerNode(value)) }
    mutating func encode(_ value: Int8) throws { add(integerNode(value)) }
    mutating func encode(_ value: Int16) throws { add(integerNode(value)) }
    mutating func encode(_ value: Int32) throws { add(integerNode(value)) }
    mutating func encode(_ value: Int64) throws { add(integerNode(value)) }
    mutating func encode(_ value: UInt) throws { add(integerNode(value)) }
    mutating func encode(_ value: UInt8) throws { add(integerNode(value)) }
    mutating func encode(_ value: UInt16) throws { add(integerNode(value)) }
    mutating func encode(_ value: UInt32) throws { add(integerNode(value)) }
    mutating func encode(_ value: UInt64) throws { add(integerNode(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        add(try PackedNodeEncoder.node(of: value, codingPath: codingPath, key: PackedIndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = PackedKeyedBox()
        let path = codingPath + [PackedIndexKey(count)]
        add(.keyed(nested))
        return KeyedEncodingContainer(PackedKeyedWriter<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = PackedUnkeyedBox()
        let path = codingPath + [PackedIndexKey(count)]
        add(.unkeyed(nested))
        return PackedUnkeyedWriter(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = PackedNodeEncoder(codingPath: codingPath + [PackedIndexKey(count)])
        add(.later(encoder))
        return encoder
    }
}

struct PackedSingleWriter: SingleValueEncodingContainer {
    let encoder: PackedNodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: PackedNode) { encoder.node = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { set(integerNode(value)) }
    mutating func encode(_ value: Int8) throws { set(integerNode(value)) }
    mutating func encode(_ value: Int16) throws { set(integerNode(value)) }
    mutating func encode(_ value: Int32) throws { set(integerNode(value)) }
    mutating func encode(_ value: Int64) throws { set(integerNode(value)) }
    mutating func encode(_ value: UInt) throws { set(integerNode(value)) }
    mutating func encode(_ value: UInt8) throws { set(integerNode(value)) }
    mutating func encode(_ value: UInt16) throws { set(integerNode(value)) }
    mutating func encode(_ value: UInt32) throws { set(integerNode(value)) }
    mutating func encode(_ value: UInt64) throws { set(integerNode(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try PackedNodeEncoder.node(of: value, codingPath: codingPath))
    }
}

/// The key of an unkeyed container's element in a coding path.
struct PackedIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// Lays a node tree out as `PackedCheckpoint` bytes.
struct PackedCheckpointWriter {
    var bytes: [UInt8] = []
    /// Each key written so far, by its number (1-based).
    private var keyNumbers: [String: Int] = [:]

    mutating func write(_ node: PackedNode) {
        switch node {
        case .null: tag(.null)
        case .bool(let value): tag(value ? .bitTrue : .bitFalse)
        case .signed(let value):
            tag(.signed)
            unsigned(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
        case .unsigned(let value):
            tag(.unsigned)
            unsigned(value)
        case .double(let value):
            tag(.double)
            word(value.bitPattern)
        case .string(let value):
            tag(.string)
            string(value)
        case .words(let values):
            tag(.words)
            unsigned(UInt64(values.count))
            bytes.reserveCapacity(bytes.count + 8 * values.count)
            for value in values { word(value) }
        case .unkeyed(let box):
            tag(.unkeyed)
            unsigned(UInt64(box.values.count))
            for value in box.values { write(value) }
        case .keyed(let box):
            tag(.keyed)
            unsigned(UInt64(box.keys.count))
            // In key order (as JSON's `.sortedKeys`), so that a dictionary's entries, which it lists in
            // an order of its own, write the same bytes each time: a run compares a session's bytes
            // with its stored row to skip the unchanged (`CheckpointWriter`).
            let order = box.keys.indices.sorted {
                box.keys[$0] != box.keys[$1] ? box.keys[$0] < box.keys[$1] : $0 < $1
            }
            for index in order {
                key(box.keys[index])
                write(box.values[index])
            }
        case .later(let encoder):
            write(encoder.node ?? .keyed(PackedKeyedBox()))
        }
    }

    private mutating func tag(_ tag: PackedCheckpoint.Tag) { bytes.append(tag.rawValue) }

    private mutating func key(_ key: String) {
        if let number = keyNumbers[key] {
            unsigned(UInt64(number))
        } else {
            unsigned(0)
            string(key)
            keyNumbers[key] = keyNumbers.count + 1
        }
    }

    private mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    private mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func string(_ value: String) {
        unsigned(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}
