import Testing
import HIGAuditCore
@testable import HIGAuditIO

@Suite struct CSVWriterTests {
    @Test(arguments: [
        (TableCell.label("plain"), "plain"),
        (.label(""), ""),
        (.label("a,b"), "\"a,b\""),
        (.label("\""), "\"\"\"\""),  // a lone quote must be quoted (SwiftLint's bug)
        (.label("say \"hi\""), "\"say \"\"hi\"\"\""),
        (.label("line\nbreak"), "\"line\nbreak\""),
        (.label("cr\rx"), "\"cr\rx\""),
        (.label("crlf\r\nx"), "\"crlf\r\nx\""),
        (.label("=SUM(A1)"), "=SUM(A1)"),  // the tool's own text is not log data
        (.input("=SUM(A1)"), "'=SUM(A1)"),
        (.input("+1"), "'+1"),
        (.input("-1"), "'-1"),
        (.input("@cmd"), "'@cmd"),
        (.input("\tx"), "'\tx"),
        (.input("\rx"), "\"'\rx\""),
        (.input("-:12"), "'-:12"),
        (.input("=a,b"), "\"'=a,b\""),
        (.input("a=b"), "a=b"),
        (.input("ｈｏｍｅ画面"), "ｈｏｍｅ画面"),
        (.input("é,\"👨‍👩‍👧\""), "\"é,\"\"👨‍👩‍👧\"\"\""),  // quotes doubled beside multi-byte characters
        (.integer(-3), "-3"),  // numbers are never prefixed
        (.decimal(FixedDecimal(units: -250, places: 2)), "-2.50"),
        (.real(-2.5), "-2.5"),
        (.timestamp(-1), "1969-12-31T23:59:59.999Z"),
        (.empty, ""),
    ])
    func field(cell: TableCell, expected: String) {
        #expect(CSVWriter.field(cell) == expected)
    }

    /// A field longer than the writer's buffer, with quotes to double all along it and a formula start:
    /// its runs between quotes cross the buffer's flushes whole.
    @Test func aLongQuotedFieldCrossesTheBuffer() {
        let text = "=" + String(repeating: "a\"b,é", count: 30_000)
        let expected = "\"'=" + String(repeating: "a\"\"b,é", count: 30_000) + "\""
        #expect(CSVWriter.field(.input(text)) == expected)
        #expect(CSVWriter.field(.label(text)) == "\"=" + expected.dropFirst(3))
    }

    @Test func writesHeaderAndCRLFRecords() {
        let csv = CSVWriter().render(WriterFixtures.mixed)
        #expect(csv == """
            name,n,pct,at,note\r
            home,3,66.67,2026-11-20T21:04:05.123Z,\r
            x,-5,-0.05,1969-12-31T23:59:59.999Z,"a,b"\r

            """)
    }

    @Test func emptyTableIsTheHeaderOnly() {
        let table = Table(name: "t", columns: [.text("a"), .integer("b")], rows: [])
        #expect(CSVWriter().render(table) == "a,b\r\n")
    }

    @Test func byteOrderMarkOnlyWhenAsked() {
        #expect(CSVWriter(byteOrderMark: true).render(WriterFixtures.single(.label("x"))) == "\u{FEFF}v\r\nx\r\n")
        #expect(CSVWriter().render(WriterFixtures.single(.label("x"))).utf8.first == UInt8(ascii: "v"))
    }

    /// Parses the output back with a strict RFC 4180 reader: every record has every field, unchanged.
    @Test func roundTripsThroughAnRFC4180Reader() {
        let nasty = ["\"", "\"\"", ",", "\r\n", "a\"b,c\nd", " lead", "trail ", "é", "👨‍👩‍👧"]
        let table = Table(name: "t", columns: [.text("v"), .integer("n")], rows: nasty.enumerated().map { [.label($1), .int($0)] })
        let records = Self.parse(CSVWriter().render(table))
        #expect(records == [["v", "n"]] + nasty.enumerated().map { [$1, String($0)] })
    }

    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { field.unicodeScalars.append("\""); scalars.removeFirst() } else { quoted = false }
                } else {
                    field.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                quoted = true
            } else if scalar == "," {
                record.append(field); field = ""
            } else if scalar == "\r", scalars.first == "\n" {
                scalars.removeFirst()
                record.append(field); field = ""
                records.append(record); record = []
            } else {
                field.unicodeScalars.append(scalar)
            }
        }
        return records
    }
}
