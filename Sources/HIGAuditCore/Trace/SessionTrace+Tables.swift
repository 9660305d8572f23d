/// The tables `show` prints (SPEC §4 conventions: RFC 3339 UTC times, `PATH:LINE` sources).
extension SessionTrace {
    /// One row: the session's labels and counts.
    public func sessionTable() -> Table {
        let accepted = entries.lazy.filter { $0.disposition == .accepted }
        let duplicates = entries.lazy.filter { $0.disposition == .duplicate }.count
        let all = report?.violations ?? entries.flatMap(\.violations)
        let suppressed = all.lazy.filter(isSuppressed).count
        var row: [TableCell] = [
            .input(session), .input(report?.device ?? ""), .input(report?.appVersion ?? ""),
            report.map { .timestamp($0.firstTs) } ?? .empty, report.map { .timestamp($0.lastTs) } ?? .empty,
            .int(accepted.count), .int(all.count - suppressed), .int(duplicates), .int(entries.count - accepted.count - duplicates),
        ]
        var columns: [TableColumn] = [
            .text("session"), .text("device"), .text("app_version"), .timestamp("first_ts"), .timestamp("last_ts"),
            .integer("events"), .integer("violations"), .integer("duplicates"), .integer("late"),
        ]
        // As `summary` (SPEC §6): the column is there when the config has exclusions.
        if suppression.hasEntries {
            row.append(.int(suppressed))
            columns.append(.integer("suppressed"))
        }
        return Table(name: "session", columns: columns, rows: [row])
    }

    /// The accepted events in the rules' order, each violation beside its source event: an event with
    /// several violations takes one row per violation, the event's cells left blank after the first.
    public func eventsTable(sources: SourceFileTable) -> Table {
        var rows: [[TableCell]] = []
        for entry in accepted {
            let eventCells = Self.eventCells(entry.event, sources: sources)
            guard !entry.violations.isEmpty else {
                rows.append(eventCells + noViolationCells)
                continue
            }
            for (index, violation) in entry.violations.enumerated() {
                let cells = index == 0 ? eventCells : Array(repeating: TableCell.empty, count: eventCells.count)
                rows.append(cells + violationCells(violation))
            }
        }
        return Table(name: "events", columns: Self.eventColumns + violationColumns, rows: rows)
    }

    /// Late and duplicate events of the session, in input order, with why they were not accepted.
    public func notAcceptedTable(sources: SourceFileTable) -> Table {
        let rows = notAccepted.map { entry in
            Self.eventCells(entry.event, sources: sources)
                + [.label(entry.disposition.label), .input(reason(for: entry, sources: sources) ?? "")]
        }
        return Table(name: "not_accepted", columns: Self.eventColumns + [.text("disposition"), TableColumn.text("reason").narrowed(.below)], rows: rows)
    }

    /// Every event of the session in one table, for formats that print one table (CSV): the accepted
    /// events in the rules' order, then the late and duplicate ones in input order. An event with several
    /// violations takes one row per violation, its cells repeated.
    public func flatTable(sources: SourceFileTable) -> Table {
        var rows: [[TableCell]] = []
        for entry in accepted + notAccepted {
            let cells = Self.eventCells(entry.event, sources: sources)
                + [.label(entry.disposition.label), .input(reason(for: entry, sources: sources) ?? "")]
            if entry.violations.isEmpty {
                rows.append(cells + noViolationCells)
            }
            for violation in entry.violations { rows.append(cells + violationCells(violation)) }
        }
        return Table(
            name: "events",
            columns: Self.eventColumns + [.text("disposition"), .text("reason")] + violationColumns, rows: rows)
    }

    /// On a narrow terminal (`TerminalFit`) the table reads as a story: when, what, where, with what
    /// the rules said under the event that caused it; the source line goes first.
    static let eventColumns: [TableColumn] = [
        .timestamp("ts"), .text("type"), TableColumn.text("screen").narrowed(.wrap), TableColumn.text("fields").narrowed(.wrap),
        TableColumn.text("source").narrowed(.path).droppable(0),
    ]
    /// The rule's columns, with `suppressed` after the severity when the config has exclusions.
    var violationColumns: [TableColumn] {
        [TableColumn.text("rule").narrowed(.below), TableColumn.text("severity").narrowed(.below)]
            + (suppression.hasEntries ? [TableColumn.boolean("suppressed").narrowed(.below)] : [])
            + [TableColumn.text("detail").narrowed(.below)]
    }

    private var noViolationCells: [TableCell] {
        Array(repeating: .empty, count: suppression.hasEntries ? 4 : 3)
    }

    static func eventCells(_ event: Event, sources: SourceFileTable) -> [TableCell] {
        [
            .timestamp(event.ts), .label(event.kind.wireName), .input(event.screen ?? ""), .input(event.typeFieldsText),
            .input(sources.describe(event.source)),
        ]
    }

    func violationCells(_ violation: Violation) -> [TableCell] {
        [.label(violation.rule), .label(violation.severity.rawValue)]
            + (suppression.hasEntries ? [.boolean(isSuppressed(violation))] : [])
            + [.input(violation.detail)]
    }
}
