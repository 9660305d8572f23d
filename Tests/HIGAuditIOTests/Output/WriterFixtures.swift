import HIGAuditCore

enum WriterFixtures {
    /// A small table with every cell kind.
    static let mixed = Table(
        name: "mixed",
        columns: [.text("name"), .integer("n"), .decimal("pct"), .timestamp("at"), .text("note")],
        rows: [
            [.input("home"), .integer(3), .decimal(FixedDecimal(units: 6667, places: 2)), .timestamp(1_795_208_645_123), .empty],
            [.label("x"), .integer(-5), .decimal(FixedDecimal(units: -5, places: 2)), .timestamp(-1), .input("a,b")],
        ]
    )

    static func single(_ cell: TableCell, column: TableColumn = .text("v")) -> Table {
        Table(name: "t", columns: [column], rows: [[cell]])
    }
}
