/// The `ingest` table (SPEC §4) and its per-type breakdown of unknown event types.
///
/// `ingest` is a single row with one column per counter, so that nightly runs append one comparable line
/// each to a CSV time series; `Table.transposed` turns it into metric/value lines for a terminal.
public enum IngestTables {
    public static func ingestTable(_ statistics: IngestStatistics) -> Table {
        let values = IngestStatistics.counters.map { ($0.name, $0.value(in: statistics)) }
        return Table(
            name: "ingest", columns: values.map { .integer($0.0) },
            rows: [values.map { name, value in Self.countsBytes(name) ? .byteCount(value) : .integer(value) }]
        )
    }

    /// Whether the counter `name` is a number of bytes (`compressed_bytes`, `skipped_bytes`, …), which a
    /// terminal prints in KB or MB.
    static func countsBytes(_ name: String) -> Bool {
        name.hasSuffix("_bytes")
    }

    /// `unknown_types`: events of each unknown `type`, by type name.
    public static func unknownTypesTable(_ statistics: IngestStatistics) -> Table {
        let rows = statistics.unknownTypes.sorted { $0.key < $1.key }.map { [TableCell.input($0.key), .integer($0.value)] }
        return Table(name: "unknown_types", columns: [.text("type"), .integer("events")], rows: rows)
    }
}

extension Table {
    /// The table turned on its side: one `metric,value` row per column of its first row (for one-row
    /// tables such as `ingest` on a terminal).
    public func transposed(name: String) -> Table {
        let first = rowCount > 0 ? row(0) : []
        let rows = columns.enumerated().map { index, column -> [TableCell] in
            [.label(column.name), index < first.count ? first[index] : .empty]
        }
        let valueKind = columns.allSatisfy { $0.kind == .integer } ? TableColumn.Kind.integer : .text
        return Table(name: name, columns: [.text("metric"), TableColumn("value", kind: valueKind, alignment: .right)], rows: rows)
    }
}
