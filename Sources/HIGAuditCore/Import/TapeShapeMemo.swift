/// What an importer finds in a value of a line (where a record's members are, which attributes are
/// fields of ours) from the value's shape alone, kept by that shape, so that a value of a shape seen
/// before, anywhere in any line, is not searched again.
///
/// A value's shape (`JSONTape.appendShape`) is its tree of kinds with the bytes of every key and of
/// every string that is the value of a member named `key` (OTLP's attribute names). Whatever the
/// importer finds from keys, attribute names, structure and the kinds of values is therefore the same
/// for two values of one shape, up to where the value starts in the tape: the memo keeps it relative
/// to the value's first entry (the caller's `Value` says how), and its values are read on every line.
///
/// This is what reads OTLP exports batched many records a line (a collector's file exporter): such
/// lines hardly repeat, so the layouts of whole lines (`ExportLineLayouts`) and what is kept beside
/// them miss, while their records repeat a few shapes. Shapes are compared byte for byte, never by
/// hash alone; at most `capacity` are kept, all forgotten at once when that many were seen.
///
/// Values whose shapes hardly repeat (records whose attributes come in a new order each time) would
/// pay for a shape and its copy on every look-up, and gain nothing: while few look-ups are answered
/// (`hitShare`), only one in `oddsWhileMissing` is made, the others answered by `make()` alone.
final class TapeShapeMemo<Value> {
    private struct Kept {
        var shape: [UInt8]
        var value: Value
    }

    static var capacity: Int { 4096 }

    private var keptShapes: [Kept] = []
    /// Index in `keptShapes` by the shape's hash; a second shape of the same hash is not kept.
    private var byHash: [UInt64: Int] = [:]
    /// The shape of the value being looked up, in memory reused from one look-up to the next.
    private var shape = ShapeBuffer()
    /// Look-ups answered from a shape kept, and shapes kept (for tests).
    private(set) var hits = 0
    var kept: Int { keptShapes.count }
    /// Of the look-ups made lately, the share answered from a shape kept, out of 1,024 (a running
    /// mean over a few dozen), and the look-ups passed while it was below `missingBelow`.
    private var hitShare = 1024
    private var passed = 0
    static var missingBelow: Int { 256 }
    static var oddsWhileMissing: Int { 16 }

    deinit { shape.deallocate() }

    /// The value kept for `root`'s shape (relative to `root`), or `make()`'s, kept for the shape.
    func value(_ tape: JSONTape, _ root: Int, _ make: () -> Value) -> Value {
        if hitShare < Self.missingBelow {
            passed &+= 1
            if passed % Self.oddsWhileMissing != 0 { return make() }
        }
        shape.count = 0
        tape.appendShape(of: root, to: &shape)
        let hash = shape.hash()
        if let index = byHash[hash] {
            if shape.equals(keptShapes[index].shape) {
                hits &+= 1
                // A shape found while look-ups were few lets every one be made again at once.
                hitShare = max(hitShare &+ ((1024 &- hitShare) &>> 5), 2 &* Self.missingBelow)
                return keptShapes[index].value
            }
            hitShare &-= hitShare &>> 5
            return make()
        }
        hitShare &-= hitShare &>> 5
        let made = make()
        if keptShapes.count >= Self.capacity {
            keptShapes.removeAll(keepingCapacity: true)
            byHash.removeAll(keepingCapacity: true)
        }
        byHash[hash] = keptShapes.count
        keptShapes.append(Kept(shape: Array(UnsafeBufferPointer(start: shape.bytes, count: shape.count)), value: made))
        return made
    }
}

/// A shape's bytes as they are written: appended without an array's checks of capacity and sharing.
struct ShapeBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    var count = 0
    private var capacity: Int

    init() {
        capacity = 1024
        bytes = .allocate(capacity: capacity)
    }

    func deallocate() { bytes.deallocate() }

    /// Makes room for `more` bytes, and 8 beyond them: the appends after it do not check, and a run
    /// of bytes is copied a word at a time, its last word written past its end.
    mutating func reserve(_ more: Int) {
        if count &+ more &+ 8 > capacity { grow(to: count &+ more &+ 8) }
    }

    /// Appends a byte, within what `reserve` made room for.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        bytes[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(word: UInt32) {
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: word.littleEndian, as: UInt32.self)
        count &+= 4
    }

    /// Appends `added` bytes from `source`, which may be read up to `readable` bytes: a word at a
    /// time where the source holds whole words (keys and attribute names are short, and a call to
    /// copy a few bytes cost more than the copy).
    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count added: Int, readable: Int) {
        let destination = UnsafeMutableRawPointer(bytes + count)
        if added <= 16, readable >= 16 {
            destination.storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
            if added > 8 {
                destination.storeBytes(
                    of: UnsafeRawPointer(source).loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
                    as: UInt64.self)
            }
        } else {
            destination.copyMemory(from: source, byteCount: added)
        }
        count &+= added
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = larger
        capacity = grown
    }

    /// A word at a time: shapes are hundreds of bytes, and the dictionary hashes only the result.
    func hash() -> UInt64 {
        let raw = UnsafeRawPointer(bytes)
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)
        var offset = 0
        while offset &+ 8 <= count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01B3
            hash ^= hash >> 29
            offset &+= 8
        }
        while offset < count {
            hash = (hash ^ UInt64(bytes[offset])) &* 0x100_0000_01B3
            offset &+= 1
        }
        return hash
    }

    func equals(_ other: [UInt8]) -> Bool {
        other.count == count && other.withUnsafeBufferPointer { ByteComparison.equal(bytes, $0.baseAddress!, count: count) }
    }
}

extension JSONTape {
    /// Appends the shape of the value at `index` (`TapeShapeMemo`): its kind; for an object each key's
    /// flag, length and bytes and each member's value, a string member named `key` with its bytes;
    /// for an array each element; each container closed by a byte no kind has, so that the tree is
    /// told from its flattening.
    func appendShape(of index: Int, to shape: inout ShapeBuffer) {
        guard let base else { return }
        // At most a kind, two marks and a word an entry, and the bytes of its strings, which lie in its span.
        let entry = self[index]
        shape.reserve(8 &* (Int(entry.after) &- index) &+ (Int(entry.end) &- Int(entry.start)) &+ 2)
        appendShape(of: index, entries, base, to: &shape)
    }

    private func appendShape(
        of index: Int, _ entries: UnsafeMutablePointer<Entry>, _ base: UnsafePointer<UInt8>, to shape: inout ShapeBuffer
    ) {
        let entry = entries[index]
        shape.append(entry.kind.rawValue)
        switch entry.kind {
        case .object:
            var key = index &+ 1
            let end = Int(entry.after)
            while key < end {
                let keyEntry = entries[key]
                appendString(keyEntry, base, to: &shape)
                let value = key &+ 1
                let valueEntry = entries[value]
                if valueEntry.kind == .string, isNamedKey(key, keyEntry, base) {
                    shape.append(Self.namedString)
                    appendString(valueEntry, base, to: &shape)
                } else if valueEntry.kind == .object || valueEntry.kind == .array {
                    appendShape(of: value, entries, base, to: &shape)
                } else {
                    shape.append(valueEntry.kind.rawValue)
                }
                key = Int(valueEntry.after)
            }
            shape.append(Self.closed)
        case .array:
            var element = index &+ 1
            let end = Int(entry.after)
            while element < end {
                appendShape(of: element, entries, base, to: &shape)
                element = Int(entries[element].after)
            }
            shape.append(Self.closed)
        case .string, .number, .bool, .null:
            break
        }
    }

    private static var namedString: UInt8 { 0xFE }
    private static var stringMark: UInt8 { 0xFD }
    private static var closed: UInt8 { 0xFF }

    /// Whether the key at `index` is `key`, escaped or not, as `member` compares keys.
    @inline(__always)
    private func isNamedKey(_ index: Int, _ entry: Entry, _ base: UnsafePointer<UInt8>) -> Bool {
        if entry.flag { return keyEquals(index, "key") }
        guard entry.end &- entry.start == 3 else { return false }
        let bytes = base + Int(entry.start)
        return bytes[0] == UInt8(ascii: "k") && bytes[1] == UInt8(ascii: "e") && bytes[2] == UInt8(ascii: "y")
    }

    /// A mark, the string's flag and length in one word, then its raw bytes. The mark keeps a length
    /// word from being read as a container's close (a length word's first byte can be `closed`).
    @inline(__always)
    private func appendString(_ entry: Entry, _ base: UnsafePointer<UInt8>, to shape: inout ShapeBuffer) {
        let length = Int(entry.end &- entry.start)
        shape.append(Self.stringMark)
        shape.append(word: UInt32(truncatingIfNeeded: length) << 1 | (entry.flag ? 1 : 0))
        shape.append(base + Int(entry.start), count: length, readable: count &- Int(entry.start))
    }
}
