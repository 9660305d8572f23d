/// `PackedCheckpoint.decode`: the bytes read into a tree (`PackedCheckpointReader`, which checks every
/// length against what is left, so damaged bytes throw), then handed to the value's `Decodable`
/// conformance as JSON's decoder hands its tree.
enum UnpackedNode {
    case null
    case bool(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case words([UInt64])
    case unkeyed([UnpackedNode])
    /// Keys by their number (`PackedCheckpointReader.keyNumbers`), values in the same order.
    case keyed(keys: [Int], values: [UnpackedNode])
}

struct PackedCheckpointReader {
    private var input: StoredBytesReader
    var offset: Int { input.offset }
    /// Each key read so far and its number.
    private(set) var keyNumbers: [String: Int] = [:]
    /// The keys by number (the first is number 1).
    private(set) var keyNames: [String] = []

    init(bytes: [UInt8], offset: Int) {
        input = StoredBytesReader(bytes, offset: offset, subject: "a packed checkpoint")
    }

    /// Deeper nesting than any checkpoint has is damage, not a value to recurse into.
    static let maximumDepth = 256

    mutating func value(depth: Int) throws -> UnpackedNode {
        guard depth < Self.maximumDepth else { throw damaged("containers nested too deep") }
        guard let tag = PackedCheckpoint.Tag(rawValue: try input.byte()) else { throw damaged("an unknown tag") }
        switch tag {
        case .null: return .null
        case .bitFalse: return .bool(false)
        case .bitTrue: return .bool(true)
        case .signed: return .signed(try input.signed())
        case .unsigned: return .unsigned(try input.unsigned())
        case .double: return .double(Double(bitPattern: try input.word()))
        case .string: return .string(try input.string())
        case .words:
            let count = try input.count(elementSize: 8)
            var words: [UInt64] = []
            words.reserveCapacity(count)
            for _ in 0..<count { words.append(try input.word()) }
            return .words(words)
        case .unkeyed:
            let count = try input.count(elementSize: 1)
            var values: [UnpackedNode] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try value(depth: depth + 1)) }
            return .unkeyed(values)
        case .keyed:
            let count = try input.count(elementSize: 2)
            var keys: [Int] = []
            var values: [UnpackedNode] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for _ in 0..<count {
                keys.append(try key())
                values.append(try value(depth: depth + 1))
            }
            return .keyed(keys: keys, values: values)
        }
    }

    private mutating func key() throws -> Int {
        let number = try input.unsigned()
        if number != 0 {
            guard number <= UInt64(keyNames.count) else { throw damaged("a key used before it was written") }
            return Int(number)
        }
        let name = try input.string()
        if let known = keyNumbers[name] { return known }
        keyNames.append(name)
        let assigned = keyNames.count
        keyNumbers[name] = assigned
        return assigned
    }

    private func damaged(_ what: String) -> DecodingError { input.damaged(what) }
}

/// The keys of one value by number (the first is number 1), shared by all its containers.
final class PackedKeys {
    let names: [String]

    init(_ reader: PackedCheckpointReader) {
        names = reader.keyNames
    }
}

struct PackedNodeDecoder: Decoder {
    let node: UnpackedNode
    let keys: PackedKeys
    /// The coding path is its parent's and a last key, joined only when asked for (an error, or a
    /// conformance that reads it): joining it for every value cost more than the values.
    private let parentPath: [any CodingKey]
    private let lastKey: (any CodingKey)?
    var codingPath: [any CodingKey] { lastKey.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: UnpackedNode, keys: PackedKeys, codingPath: [any CodingKey]) {
        self.node = node
        self.keys = keys
        parentPath = codingPath
        lastKey = nil
    }

    init(node: UnpackedNode, keys: PackedKeys, parentPath: [any CodingKey], key: any CodingKey) {
        self.node = node
        self.keys = keys
        self.parentPath = parentPath
        lastKey = key
    }

    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        // Compared as types, not cast: see `PackedNodeEncoder.node(of:codingPath:)`.
        if Value.self == [UInt64].self, case .words(let words) = node { return unsafeBitCast(words, to: Value.self) }
        if Value.self == String.self { return unsafeBitCast(try PackedPlain.string(node, codingPath), to: Value.self) }
        if Value.self == Int.self { return unsafeBitCast(try PackedPlain.integer(Int.self, node, codingPath), to: Value.self) }
        if Value.self == Int64.self { return unsafeBitCast(try PackedPlain.integer(Int64.self, node, codingPath), to: Value.self) }
        return try Value(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .keyed(let numbers, let values) = node else {
            throw PackedPlain.mismatch([String: Int].self, node, codingPath)
        }
        return KeyedDecodingContainer(PackedKeyedReader<Key>(
            numbers: numbers, values: values, keys: keys, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch node {
        case .unkeyed(let values):
            return PackedUnkeyedReader(values: values, keys: keys, codingPath: codingPath)
        case .words(let words):
            return PackedUnkeyedReader(values: words.map { .unsigned($0) }, keys: keys, codingPath: codingPath)
        default:
            throw PackedPlain.mismatch([Int].self, node, codingPath)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PackedSingleReader(decoder: self)
    }
}

/// Nodes as values of the plain types, or a type mismatch.
enum PackedPlain {
    static func mismatch(_ type: Any.Type, _ node: UnpackedNode, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(node)"))
    }

    static func bool(_ node: UnpackedNode, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bit) = node else { throw mismatch(Bool.self, node, path()) }
        return bit
    }

    static func string(_ node: UnpackedNode, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let text) = node else { throw mismatch(String.self, node, path()) }
        return text
    }

    static func double(_ node: UnpackedNode, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch node {
        case .double(let double): return double
        case .signed(let integer): return Double(integer)
        case .unsigned(let integer): return Double(integer)
        default: throw mismatch(Double.self, node, path())
        }
    }

    static func integer<Number: FixedWidthInteger>(
        _ type: Number.Type, _ node: UnpackedNode, _ path: @autoclosure () -> [any CodingKey]
    ) throws -> Number {
        let converted: Number?
        switch node {
        case .signed(let value): converted = Number(exactly: value)
        case .unsigned(let value): converted = Number(exactly: value)
        default: throw mismatch(type, node, path())
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(node) does not fit in \(type)"))
        }
        return converted
    }
}

struct PackedKeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let numbers: [Int]
    let values: [UnpackedNode]
    let keys: PackedKeys
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        numbers.compactMap { Key(stringValue: keys.names[$0 - 1]) }
    }

    /// The key's value (its last, if a container repeated it, as JSON's decoder takes). The container's
    /// own keys are compared by name, last first, rather than the name hashed to its number: a container
    /// holds a few keys, and comparing a short name costs less than hashing it.
    private func find(_ key: some CodingKey) -> UnpackedNode? {
        let name = key.stringValue
        var index = numbers.count
        while index > 0 {
            index &-= 1
            if keys.names[numbers[index] &- 1] == name { return values[index] }
        }
        return nil
    }

    private func require(_ key: Key) throws -> UnpackedNode {
        guard let node = find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return node
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try require(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try PackedPlain.bool(require(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try PackedPlain.string(require(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try PackedPlain.double(require(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try PackedPlain.double(require(key), codingPath + [key])) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<Number: FixedWidthInteger>(_ type: Number.Type, _ key: Key) throws -> Number {
        try PackedPlain.integer(type, require(key), codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try PackedNodeDecoder(node: try require(key), keys: keys, parentPath: codingPath, key: key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try PackedNodeDecoder(node: try require(key), keys: keys, parentPath: codingPath, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PackedNodeDecoder(node: try require(key), keys: keys, parentPath: codingPath, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = PackedSuperKey()
        return PackedNodeDecoder(node: find(key) ?? .null, keys: keys, parentPath: codingPath, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PackedNodeDecoder(node: find(key) ?? .null, keys: keys, parentPath: codingPath, key: key)
    }
}

/// `superDecoder()`'s key, as the encoder's `superEncoder()` wrote it.
private struct PackedSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

struct PackedUnkeyedReader: UnkeyedDecodingContainer {
    let values: [UnpackedNode]
    let keys: PackedKeys
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(values: [UnpackedNode], keys: PackedKeys, codingPath: [any CodingKey]) {
        self.values = values
        self.keys = keys
        self.codingPath = codingPath
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    /// The next value and its key in the coding path.
    private mutating func next(_ type: Any.Type) throws -> (UnpackedNode, PackedIndexKey) {
        let key = PackedIndexKey(currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [key], debugDescription: "the container has no more values"))
        }
        defer { currentIndex += 1 }
        return (values[currentIndex], key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = values[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (node, key) = try next(type); return try PackedPlain.bool(node, codingPath + [key]) }
    mutating func decode(_ type: String.Type) throws -> String { let (node, key) = try next(type); return try PackedPlain.string(node, codingPath + [key]) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (node, key) = try next(type); return try PackedPlain.double(node, codingPath + [key]) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (node, key) = try next(type); return Float(try PackedPlain.double(node, codingPath + [key])) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<Number: FixedWidthInteger>(_ type: Number.Type) throws -> Number {
        let (node, key) = try next(type)
        return try PackedPlain.integer(type, node, codingPath + [key])
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, key) = try next(type)
        return try PackedNodeDecoder(node: node, keys: keys, parentPath: codingPath, key: key).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, key) = try next([String: Int].self)
        return try PackedNodeDecoder(node: node, keys: keys, parentPath: codingPath, key: key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, key) = try next([Int].self)
        return try PackedNodeDecoder(node: node, keys: keys, parentPath: codingPath, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, key) = try next(Any.self)
        return PackedNodeDecoder(node: node, keys: keys, parentPath: codingPath, key: key)
    }
}

struct PackedSingleReader: SingleValueDecodingContainer {
    let decoder: PackedNodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var node: UnpackedNode { decoder.node }

    func decodeNil() -> Bool {
        if case .null = node { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try PackedPlain.bool(node, codingPath) }
    func decode(_ type: String.Type) throws -> String { try PackedPlain.string(node, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try PackedPlain.double(node, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try PackedPlain.double(node, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try PackedPlain.integer(type, node, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try PackedPlain.integer(type, node, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decodeValue(type)
    }
}
