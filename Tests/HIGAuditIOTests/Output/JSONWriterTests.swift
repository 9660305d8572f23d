import Foundation
import Testing
import HIGAuditCore
@testable import HIGAuditIO

@Suite struct JSONWriterTests {
    @Test(arguments: [
        ("plain", "\"plain\""),
        ("q\"b\\s", "\"q\\\"b\\\\s\""),
        ("\n\r\t\u{08}\u{0C}", "\"\\n\\r\\t\\b\\f\""),
        ("\u{0}\u{1F}\u{7F}", "\"\\u0000\\u001f\\u007f\""),
        ("\u{2028}\u{2029}", "\"\\u2028\\u2029\""),
        ("é漢👍", "\"é漢👍\""),
        ("/", "\"/\""),
    ])
    func escapesStrings(text: String, expected: String) {
        #expect(JSONWriter.string(text) == expected)
    }

    @Test(arguments: [
        (TableCell.input("=a\"b"), "\"=a\\\"b\""),  // escaped, never formula-prefixed
        (.label("home"), "\"home\""),
        (.integer(-3), "-3"),
        (.decimal(FixedDecimal(units: -250, places: 2)), "-2.50"),
        (.real(-2.5), "-2.5"),
        (.real(-.infinity), "null"),
        (.timestamp(-1), "\"1969-12-31T23:59:59.999Z\""),
        (.empty, "null"),
    ])
    func value(cell: TableCell, expected: String) {
        #expect(JSONWriter.value(cell) == expected)
    }

    /// Strings longer than the writer's buffer, with and without escapes.
    @Test func longStringsCrossTheBuffer() {
        let plain = String(repeating: "é-x", count: 30_000)
        #expect(JSONWriter.value(.input(plain)) == "\"" + plain + "\"")
        let escaped = String(repeating: "a\"\n", count: 30_000)
        #expect(JSONWriter.value(.input(escaped)) == "\"" + String(repeating: "a\\\"\\n", count: 30_000) + "\"")
    }

    @Test func writesObjectsInColumnOrderWithTypedValues() {
        #expect(JSONWriter().render(WriterFixtures.mixed) == """
            [
            {"name":"home","n":3,"pct":66.67,"at":"2026-11-20T21:04:05.123Z","note":null},
            {"name":"x","n":-5,"pct":-0.05,"at":"1969-12-31T23:59:59.999Z","note":"a,b"}
            ]

            """)
    }

    @Test func emptyTableIsAnEmptyArray() {
        #expect(JSONWriter().render(Table(name: "t", columns: [.text("a")], rows: [])) == "[]\n")
    }

    @Test func formulaTextIsNotPrefixed() {
        #expect(JSONWriter().render(WriterFixtures.single(.input("=1"))) == "[\n{\"v\":\"=1\"}\n]\n")
    }

    /// Foundation's parser accepts the output and reads back every value.
    @Test func parsesBack() throws {
        let strings = ["\u{0}", "\u{2028}", "\"\\", "漢字", "\u{1B}[31m"]
        let table = Table(name: "t", columns: [.text("s"), .decimal("d")], rows: strings.map {
            [.input($0), .decimal(FixedDecimal(units: 1234, places: 2))]
        })
        let data = Data(JSONWriter().render(table).utf8)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.map { $0["s"] as? String } == strings)
        #expect(objects.allSatisfy { ($0["d"] as? NSNumber)?.doubleValue == 12.34 })
    }

    @Test func severalTablesAreOneObjectByName() throws {
        let text = JSONWriter().render([WriterFixtures.single(.label("a")), Table(name: "u", columns: [.text("v")], rows: [])])
        #expect(text == "{\n\"t\": [\n{\"v\":\"a\"}\n],\n\"u\": []\n}\n")
        _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
    }
}
