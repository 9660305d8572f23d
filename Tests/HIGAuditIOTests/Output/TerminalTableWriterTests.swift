import Testing
import HIGAuditCore
@testable import HIGAuditIO

@Suite struct TerminalWidthTests {
    @Test(arguments: [
        ("", 0), ("abc", 3), ("é", 1), ("e\u{301}", 1), ("漢字", 4), ("ｈｏｍｅ", 8), ("한국어", 6), ("👍", 2),
        ("👨‍👩‍👧", 2), ("🇩🇪", 2), ("❤️", 2), ("a\u{200B}b", 2), ("カタカナ", 8),
    ])
    func measuresVisibleColumns(text: String, width: Int) {
        #expect(TerminalWidth.of(text) == width)
    }
}

@Suite struct TerminalTableWriterTests {
    @Test func alignsByVisibleWidthAndRightAlignsNumbers() {
        let table = Table(name: "t", columns: [.text("screen"), .integer("n"), .text("rule")], rows: [
            [.input("設定"), .integer(5), .label("a")],
            [.input("home"), .integer(12345), .label("b")],
        ])
        #expect(TerminalTableWriter().render(table) == """
            screen      n  rule
            ------  -----  ----
            設定        5  a
            home    12345  b

            """)
    }

    @Test func linesHaveNoTrailingSpaces() {
        let table = Table(name: "t", columns: [.text("a"), .decimal("p")], rows: [[.label("x"), .empty], [.label("long"), .decimal(FixedDecimal(units: 1, places: 2))]])
        #expect(TerminalTableWriter().render(table) == "a        p\n----  ----\nx\nlong  0.01\n")
    }

    @Test func controlCharactersAndEscapesAreShownNotSent() {
        #expect(TerminalTableWriter.visible("a\nb\tc\u{1B}[31m\u{202E}") == "a\\nb\\tc\\u{1B}[31m\\u{202E}")
        let output = TerminalTableWriter().render(WriterFixtures.single(.input("x\u{1B}]0;pwn\u{07}")))
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func coloursOnlyWhenAsked() {
        let table = Table(name: "t", columns: [.text("severity")], rows: [[.label("error")], [.label("warning")]])
        #expect(!TerminalTableWriter(colors: false).render(table).contains("\u{1B}"))
        let coloured = TerminalTableWriter(colors: true).render(table)
        #expect(coloured.contains("\u{1B}[1mseverity"))
        #expect(coloured.contains("\u{1B}[31merror"))
        #expect(coloured.contains("\u{1B}[33mwarning"))
    }

    @Test func severalTablesAreTitled() {
        let text = TerminalTableWriter().render([WriterFixtures.single(.label("a")), WriterFixtures.single(.label("b"))])
        #expect(text == "t\nv\n-\na\n\nt\nv\n-\nb\n")
    }
}

@Suite struct OutputFormatTests {
    @Test func everyFormatHasAWriterAndExtension() {
        #expect(OutputFormat.allCases.map(\.rawValue) == ["table", "csv", "json", "markdown"])
        #expect(OutputFormat.allCases.map(\.fileExtension) == ["txt", "csv", "json", "md"])
        #expect(OutputFormat.csv.writer() is CSVWriter)
        #expect((OutputFormat.table.writer(colors: true) as? TerminalTableWriter)?.colors == true)
        let table = WriterFixtures.single(.input("=x"))
        #expect(OutputFormat.csv.writer().render(table) == "v\r\n'=x\r\n")
        #expect(OutputFormat.json.writer().render(table) == "[\n{\"v\":\"=x\"}\n]\n")
        #expect(OutputFormat.markdown.writer().render(table) == "| v |\n| --- |\n| =x |\n")
    }
}
