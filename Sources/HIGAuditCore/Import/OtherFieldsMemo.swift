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
struct OtherFieldsMemo {
    private struct Key: Hashable {
        var serial: Int
        var container: Int
        var skipsDollar: Bool
        var attributes: Bool
        var keepId: Bool
    }

    private var kept: [Key: [OtherFieldPlace]] = [:]
    /// Memos kept before all are forgotten (layouts are replaced, containers are few a layout).
    static let capacity = 256

    mutating func places(
        _ layout: ExportLineLayouts.LayoutID?, _ container: Int?, _ fields: ImportedFields, keepId: Bool,
        _ find: () -> [OtherFieldPlace]
    ) -> [OtherFieldPlace] {
        guard let layout, let container else { return find() }
        var key = Key(serial: layout.serial, container: container, skipsDollar: false, attributes: false, keepId: keepId)
        switch fields {
        case .object(let skipDollar): key.skipsDollar = skipDollar
        case .attributes: key.attributes = true
        }
        if let places = kept[key] { return places }
        let places = find()
        if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
        kept[key] = places
        return places
    }
}
