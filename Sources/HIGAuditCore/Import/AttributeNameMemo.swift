extension EventImporter {
    /// What an OTLP attribute's name makes of the attribute: a known attribute (`KnownAttributes`), one
    /// the envelope reads (never a field of its own: `isLeftOutAttribute`), a field of
    /// ours (`eventField`), the `id`.
    struct AttributeNameClass {
        var known: KnownAttributeName?
        var leftOut: Bool
        var field: EventField?
        var isId: Bool
    }

    /// The class of the attribute named by the string at `name`: remembered by the name's bytes when it
    /// has no escapes and at most 16 bytes, as nearly every attribute name does.
    @inline(__always)
    func attributeNameClass(_ name: Int) -> AttributeNameClass {
        let entry = tape[name]
        let count = Int(entry.end &- entry.start)
        guard !entry.flag, count <= CompactText.inlineCapacity, let base = tape.base else { return classify(name) }
        let start = base + Int(entry.start)
        let words = CompactText.inlineWords(start, count: count, readable: tape.count &- Int(entry.start))
        return attributeNames.class(low: words.low, high: words.high, count: UInt8(truncatingIfNeeded: count)) { classify(name) }
    }

    private func classify(_ name: Int) -> AttributeNameClass {
        AttributeNameClass(
            known: KnownAttributeName.of(tape, name), leftOut: isLeftOutAttribute(name), field: eventField(name),
            isId: tape.keyEquals(name, "id"))
    }
}

/// `EventImporter.attributeNameClass`'s memory: the classes of the names seen last, by their bytes.
///
/// Why: a record's attributes whose order changes from record to record match no layout, and each
/// attribute's name was compared with the known names, the envelope's and our fields' on every record;
/// an export uses a few dozen names. Each name has two slots: two names of one slot taking turns
/// (among a few dozen in 256 slots, likely) were classified again on every record. A name whose slots
/// others took is classified again, which only costs time. A slot is found by its bytes, so a class
/// found is always the name's own.
final class AttributeNameMemo {
    private struct Slot {
        var low: UInt64
        var high: UInt64
        /// The name's length; `empty` for a slot that holds none.
        var count: UInt8
        var nameClass: EventImporter.AttributeNameClass
    }

    private static let slotCount = 256
    private static let empty: UInt8 = 0xFF
    private let slots: UnsafeMutablePointer<Slot>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(
            repeating: Slot(
                low: 0, high: 0, count: Self.empty, nameClass: .init(known: nil, leftOut: false, field: nil, isId: false)),
            count: Self.slotCount)
    }

    deinit {
        slots.deallocate()
    }

    /// The two slots of the name of these bytes.
    @inline(__always)
    static func places(low: UInt64, high: UInt64, count: UInt8) -> (first: Int, second: Int) {
        let mixed = (low ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15 ^ high &* 0xC2B2_AE3D_27D4_EB4F
        return (Int(truncatingIfNeeded: mixed &>> 56), Int(truncatingIfNeeded: mixed &>> 48 & 0xFF))
    }

    /// The class of the name of these bytes (`CompactText.inlineWords` and its length), `classify`'s
    /// when it is not remembered.
    @inline(__always)
    func `class`(
        low: UInt64, high: UInt64, count: UInt8, _ classify: () -> EventImporter.AttributeNameClass
    ) -> EventImporter.AttributeNameClass {
        let places = Self.places(low: low, high: high, count: count)
        let first = slots + places.first
        if first.pointee.count == count, first.pointee.low == low, first.pointee.high == high { return first.pointee.nameClass }
        let second = slots + places.second
        if second.pointee.count == count, second.pointee.low == low, second.pointee.high == high { return second.pointee.nameClass }
        let nameClass = classify()
        // The first slot while it is free, else the second.
        let slot = first.pointee.count == Self.empty ? first : second
        slot.pointee = Slot(low: low, high: high, count: count, nameClass: nameClass)
        return nameClass
    }
}
