import Testing
import HIGAuditCore
@testable import HIGAuditIO

/// `TerminalTableWriter` on a terminal (`TerminalScreen`): every line within the width, columns left
/// out as their table declares and named below it, text wrapped, paths and ids elided, byte counts in
/// KB/MB; without a screen, the table as it always was.
@Suite struct TerminalFitTests {
    static let violations = Table(
        name: "violations",
        columns: [
            .text("rule"), TableColumn.text("session").narrowed(.identifier).droppable(8), TableColumn.text("device").droppable(1),
            TableColumn.timestamp("start_ts").droppable(6), TableColumn.timestamp("end_ts").droppable(0),
            TableColumn.text("detail").narrowed(.wrap), TableColumn.text("source").narrowed(.path).droppable(5),
        ],
        rows: [
            [
                .label("forced-tab-switch"), .input("00237b515bc80a49f00d"), .input("ipad-0002"), .timestamp(1_763_672_400_000),
                .timestamp(1_763_672_401_500), .input("the app switched from the Brushes tab to the Layers tab with no user action in 1200 ms"),
                .input("logs/2026-11-20/ipad-0002/part-0003.ndjson.zst:4812"),
            ],
            [
                .label("modal-depth"), .input("s-2"), .input("ipad-0003"), .timestamp(1_763_672_460_000),
                .timestamp(1_763_672_461_000), .input("3 modals deep"), .input("logs/2026-11-20/ipad-0003/part-0001.ndjson.zst:7"),
            ],
        ])

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    @Test(arguments: [80, 60, 40, 20])
    func everyLineFitsTheWidth(width: Int) {
        let text = TerminalTableWriter(screen: TerminalScreen(width: width, pathBases: ["logs"])).render(Self.violations)
        for line in Self.lines(text) { #expect(TerminalWidth.of(String(line)) <= width, "\(width): \(line)") }
        #expect(text.contains("forced-tab-switch") && text.contains("modal-depth"), "the kept first column")
    }

    @Test func droppedColumnsAreNamedBelowTheTableWithHowToSeeThem() {
        let text = TerminalTableWriter(screen: TerminalScreen(width: 80, pathBases: ["logs"])).render(Self.violations)
        let lines = Self.lines(text)
        let header = String(lines[0])
        #expect(!header.contains("end_ts") && !header.contains("device"), "the lowest ranks go first: \(header)")
        #expect(header.contains("rule") && header.contains("detail"))
        let note = lines.drop { !$0.hasPrefix("Left out to fit 80 columns:") }.joined(separator: " ")
        #expect(note.contains("device, end_ts"), "\(text)")
        #expect(note.contains("--format csv") && note.contains("--format json"))
        #expect(text.contains("Times are on 2025-11-20 (UTC)."), "one day: times of day, the day said once")
        #expect(text.contains("21:00:00.000") && !text.contains("2025-11-20T21"))
    }

    @Test func freeTextWrapsWithinItsRowAndPathsKeepTheirEnd() {
        let text = TerminalTableWriter(screen: TerminalScreen(width: 120, pathBases: ["logs"])).render(Self.violations)
        for line in Self.lines(text) { #expect(line.count <= 120) }
        #expect(text.contains("Layers tab"), "wrapped, not cut")
        #expect(!text.contains("logs/2026-11-20"), "relative to the input named")
        #expect(text.contains("…") && text.contains("part-0003.ndjson.zst:4812"), "the file and line stay: \(text)")
    }

    @Test func idsKeepTheirStart() {
        #expect(TerminalCellText.elidingEnd("00237b515bc80a49f00d", width: 9) == "00237b51…")
        #expect(TerminalCellText.elidingStart("a/b/part-0003.ndjson.zst:4812", width: 16) == "…ndjson.zst:4812")
        #expect(TerminalCellText.wrapped("one two three", width: 7) == ["one two", "three"])
        #expect(TerminalCellText.wrapped("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TerminalCellText.header("pct_sessions_affected", width: 12) == ["pct_", "sessions_", "affected"])
    }

    @Test func aTableThatFitsIsPrintedAsOffATerminal() {
        let table = Table(name: "t", columns: [.text("rule"), .integer("n")], rows: [[.label("a"), .integer(5)]])
        #expect(TerminalTableWriter(screen: TerminalScreen(width: 80)).render(table) == TerminalTableWriter().render(table))
    }

    @Test func withoutAScreenEveryColumnIsWhole() {
        let text = TerminalTableWriter().render(Self.violations)
        #expect(text.contains("end_ts") && text.contains("logs/2026-11-20/ipad-0002/part-0003.ndjson.zst:4812"))
        #expect(!text.contains("Left out"))
        #expect(Self.lines(text).contains { $0.count > 150 })
    }

    @Test func aWideOneRowTableIsTurnedOnItsSide() {
        let table = Table(
            name: "session",
            columns: [.text("session"), .text("device"), .text("app_version"), .timestamp("first_ts"), .timestamp("last_ts"), .integer("events")],
            rows: [[.input("00237b515bc80a49"), .input("ipad-0002"), .input("5.2.0"), .timestamp(0), .timestamp(60_000), .integer(12)]])
        let text = TerminalTableWriter(screen: TerminalScreen(width: 60)).render(table)
        let lines = Self.lines(text)
        #expect(lines[0].hasPrefix("field") && lines[0].contains("value"))
        #expect(lines.contains { $0.hasPrefix("first_ts") && $0.contains("1970-01-01T00:00:00.000Z") })
        for line in lines { #expect(line.count <= 60) }
    }

    @Test func byteCountsAreInKilobytesAndMegabytesOnATerminalOnly() {
        #expect(TerminalCellText.byteCount(512) == "512 B")
        #expect(TerminalCellText.byteCount(1_500) == "1.5 KB")
        #expect(TerminalCellText.byteCount(34_210_000) == "34.2 MB")
        #expect(TerminalCellText.byteCount(999_999) == "1 MB")
        #expect(TerminalCellText.byteCount(2_000_000_000) == "2 GB")
        let table = Table(name: "ingest", columns: [.text("metric"), .integer("value")], rows: [[.label("compressed_bytes"), .byteCount(9_830_000)]])
        #expect(TerminalTableWriter(screen: TerminalScreen(width: 80)).render(table).contains("9.8 MB"))
        #expect(TerminalTableWriter().render(table).contains("9830000"))
        #expect(CSVWriter().render(table).contains("9830000"))
        #expect(JSONWriter().render(table).contains("9830000"))
    }

    @Test func theWidthComesFromColumnsElseTheTerminalElseEighty() {
        #expect(TerminalScreen.width(columnsVariable: "100") == 100)
        #expect(TerminalScreen.width(columnsVariable: " 72 ") == 72)
        // Tests do not run on a terminal: without a usable COLUMNS the default applies.
        #expect(TerminalScreen.width(columnsVariable: "wide") == TerminalScreen.defaultWidth)
        #expect(TerminalScreen.width(columnsVariable: nil) == TerminalScreen.defaultWidth)
    }

    @Test func pathsAreShownRelativeToTheInputNamed() {
        let screen = TerminalScreen(width: 80, pathBases: ["SampleLogs/night-2026-11-20/", "other.ndjson"])
        #expect(screen.relativePath("SampleLogs/night-2026-11-20/2026-11-20/1800/a.zst:3") == "2026-11-20/1800/a.zst:3")
        #expect(screen.relativePath("other.ndjson:12") == "other.ndjson:12")
        #expect(screen.relativePath("/abs/x.zst:1") == "/abs/x.zst:1")
    }
}
