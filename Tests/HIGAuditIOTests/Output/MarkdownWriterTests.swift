import Testing
import HIGAuditCore
@testable import HIGAuditIO

@Suite struct MarkdownWriterTests {
    @Test(arguments: [
        (TableCell.input("a|b"), "a\\|b"),
        (.input("back\\slash"), "back\\\\slash"),
        (.input("two\nlines"), "two<br>lines"),
        (.input("crlf\r\nx"), "crlf<br>x"),
        (.input("*bold* _it_ [l](u) <b>&"), "\\*bold\\* \\_it\\_ \\[l\\](u) \\<b\\>\\&"),
        (.label("sessions_total"), "sessions_total"),
        (.label("a|b"), "a\\|b"),
        (.integer(-4), "-4"),
        (.empty, ""),
    ])
    func escapesCells(cell: TableCell, expected: String) {
        #expect(MarkdownWriter.cell(cell) == expected)
    }

    @Test func writesAPipeTableWithNumbersRightAligned() {
        #expect(MarkdownWriter().render(WriterFixtures.mixed) == """
            | name | n | pct | at | note |
            | --- | ---: | ---: | --- | --- |
            | home | 3 | 66.67 | 2026-11-20T21:04:05.123Z |  |
            | x | -5 | -0.05 | 1969-12-31T23:59:59.999Z | a,b |

            """)
    }

    @Test func severalTablesHaveHeadings() {
        let text = MarkdownWriter().render([WriterFixtures.single(.label("a")), WriterFixtures.single(.label("b"))])
        #expect(text == "## t\n\n| v |\n| --- |\n| a |\n\n## t\n\n| v |\n| --- |\n| b |\n")
    }
}
