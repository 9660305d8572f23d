/// One of an imported event's own fields as `EventImporter.forEachOtherField` finds it: the field of
/// ours its key names, its key's entry and its value's.
struct OtherFieldPlace {
    var field: EventField
    var key: Int
    var value: EventImporter.OtherFieldValue

    /// The place of the same field in a container `offset` entries further in the tape.
    func moved(by offset: Int) -> Self {
        OtherFieldPlace(field: field, key: key + offset, value: value.moved(by: offset))
    }
}

/// The event's own fields of lines of one layout (`ExportLineLayouts`): which members of a container
/// are fields of ours, and of which, depends on keys (and OTLP's attribute names, constant in a
/// layout) and on the shape of values only, so it is found once a layout, container and kind of
/// mapping, instead of every key being compared with our envelope's and our fields' names on every line.
///
/// Kept beside the layouts, by a layout's place: a few memos a place (one a container and kind of
/// mapping, so one a record), compared by their key, not hashed (a hash of the key cost more than the
/// comparisons it spared). Each memo's places are kept in memory of its own and handed out by address
/// (`places`), not as an array: an array handed out was retained and released on every line.
final class OtherFieldsMemo {
    private struct Key: Equatable {
        var container: Int
        var skipsDollar: Bool
        var attributes: Bool
        var keepId: Bool
    }

    /// Memos kept a layout before its memos are forgotten (containers are few a line).
    static let capacity = 32
    /// One place a layout. A line read without a layout (or without a container) finds its places
    /// afresh on every call (`unmemoized`).
    private static var placeCount: Int { ExportLineLayouts.capacity }

    /// Per place, the serial of the layout its memos are of (0: none yet); they are forgotten when
    /// another layout takes its place.
    private let serials: UnsafeMutablePointer<Int>
    /// Per place, how many memos it keeps.
    private let counts: UnsafeMutablePointer<Int>
    /// Per place, `capacity` slots: the first `counts[place]` hold a memo's key and its places, which
    /// the memo owns (allocated when kept, deallocated when forgotten).
    private let keys: UnsafeMutablePointer<Key>
    private let lists: UnsafeMutablePointer<UnsafeMutableBufferPointer<OtherFieldPlace>>
    /// The places found for a line read without a layout (or without a container), valid until the
    /// next call: memory reused from line to line, grown when a line has more.
    private var unmemoized = UnsafeMutableBufferPointer<OtherFieldPlace>.allocate(capacity: 16)

    init() {
        serials = .allocate(capacity: Self.placeCount)
        serials.initialize(repeating: 0, count: Self.placeCount)
        counts = .allocate(capacity: Self.placeCount)
        counts.initialize(repeating: 0, count: Self.placeCount)
        keys = .allocate(capacity: Self.placeCount * Self.capacity)
        lists = .allocate(capacity: Self.placeCount * Self.capacity)
    }

    deinit {
        for place in 0..<Self.placeCount { forget(place) }
        serials.deallocate()
        counts.deallocate()
        keys.deallocate()
        lists.deallocate()
        unmemoized.deallocate()
    }

    /// The places of `container`'s fields in lines of `layout`, or `find()`'s, kept for it: valid
    /// until the next call.
    func places(
        _ layout: ExportLineLayouts.LayoutID?, _ container: Int?, _ fields: ImportedFields, keepId: Bool,
        _ find: () -> [OtherFieldPlace]
    ) -> UnsafeBufferPointer<OtherFieldPlace> {
        var key = Key(container: container ?? -1, skipsDollar: false, attributes: false, keepId: keepId)
        guard let layout, container != nil else {
            let found = find()
            if found.count > unmemoized.count {
                unmemoized.deallocate()
                unmemoized = .allocate(capacity: found.count)
            }
            // Plain values (`OtherFieldPlace` holds no reference): written over, never deinitialised.
            let room = UnsafeMutableBufferPointer(rebasing: unmemoized[..<found.count])
            _ = room.initialize(from: found)
            return UnsafeBufferPointer(room)
        }
        switch fields {
        case .object(let skipDollar): key.skipsDollar = skipDollar
        case .attributes: key.attributes = true
        }
        let place = layout.index
        if serials[place] == layout.serial {
            let first = place * Self.capacity
            for slot in first..<(first + counts[place]) where keys[slot] == key { return UnsafeBufferPointer(lists[slot]) }
            if counts[place] >= Self.capacity { forget(place) }
        } else {
            forget(place)
            serials[place] = layout.serial
        }
        return keep(find(), key, at: place)
    }

    private func keep(_ found: [OtherFieldPlace], _ key: Key, at place: Int) -> UnsafeBufferPointer<OtherFieldPlace> {
        let list = UnsafeMutableBufferPointer<OtherFieldPlace>.allocate(capacity: found.count)
        _ = list.initialize(from: found)
        let slot = place * Self.capacity + counts[place]
        (keys + slot).initialize(to: key)
        (lists + slot).initialize(to: list)
        counts[place] += 1
        return UnsafeBufferPointer(list)
    }

    private func forget(_ place: Int) {
        let first = place * Self.capacity
        for slot in first..<(first + counts[place]) { lists[slot].deallocate() }
        counts[place] = 0
    }
}
