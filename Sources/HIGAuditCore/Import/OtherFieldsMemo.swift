/// One of an imported event's own fields as `EventImporter.forEachOtherField` finds it: the field of
/// ours its key names, its key's entry and its value's.
struct OtherFieldPlace {
    var field: EventField
    var key: Int
    var value: EventImporter.OtherFieldValue
}

/// The event's own fields of lines of one layout (`ExportLineLayouts`): which members of a container
/// are fields of ours, and of which, depends on keys (and OTLP's attribute names, constant in a
/// layout) and on the shape of values only, so it is found once a layout, container and kind of
/// mapping, instead of every key being compared with our envelope's and our fields' names on every line.
///
/// Kept beside the layouts, by a layout's place: a few memos a place (one a container and kind of
/// mapping, so one a record), compared by their key, not hashed (a hash of the key cost more than the
/// comparisons it spared).
struct OtherFieldsMemo {
    private struct Key: Equatable {
        var container: Int
        var skipsDollar: Bool
        var attributes: Bool
        var keepId: Bool
    }

    private struct Place {
        /// The layout the memos are of: they are forgotten when another takes its place.
        var serial = 0
        var kept: [(key: Key, places: [OtherFieldPlace])] = []
    }

    private var byLayout = [Place](repeating: Place(), count: ExportLineLayouts.capacity)
    /// Memos kept a layout before its memos are forgotten (containers are few a line).
    static let capacity = 32

    mutating func places(
        _ layout: ExportLineLayouts.LayoutID?, _ container: Int?, _ fields: ImportedFields, keepId: Bool,
        _ find: () -> [OtherFieldPlace]
    ) -> [OtherFieldPlace] {
        guard let layout, let container else { return find() }
        var key = Key(container: container, skipsDollar: false, attributes: false, keepId: keepId)
        switch fields {
        case .object(let skipDollar): key.skipsDollar = skipDollar
        case .attributes: key.attributes = true
        }
        if byLayout[layout.index].serial == layout.serial {
            for memo in byLayout[layout.index].kept where memo.key == key { return memo.places }
        } else {
            byLayout[layout.index].serial = layout.serial
            byLayout[layout.index].kept.removeAll(keepingCapacity: true)
        }
        let places = find()
        if byLayout[layout.index].kept.count >= Self.capacity { byLayout[layout.index].kept.removeAll(keepingCapacity: true) }
        byLayout[layout.index].kept.append((key, places))
        return places
    }
}
