import Testing
import HIGAuditCore
@testable import HIGAuditIO

/// Text cells around the byte scan's lengths (1 to 16 bytes in one vector of two loads that overlap, 17
/// past it): a byte that needs quoting or escaping at either end, or nowhere, and the writers' output
/// against a plain reference of RFC 4180 and RFC 8259.
@Suite struct ShortTextCellTests {
    static let specials: [String] = ["\"", ",", "\r", "\n", "\u{0}", "\u{1F}", "\\", "\u{7F}", "\u{2028}", "é", "="]

    static func csvReference(_ text: String, fromInput: Bool) -> String {
        let formula = fromInput && ["=", "+", "-", "@", "\t", "\r"].contains { text.unicodeScalars.first == $0.unicodeScalars.first }
        let body = (formula ? "'" : "") + text
        let quoted = text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
        return quoted ? "\"" + body.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : body
    }

    static func jsonReference(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test func cellsOfOneToSeventeenBytesWithASpecialAtEitherEnd() {
        for length in 1...17 {
            let plain = String(repeating: "a", count: length)
            var texts = [plain]
            for special in Self.specials where special.utf8.count <= length {
                let rest = String(repeating: "a", count: length - special.utf8.count)
                texts += [special + rest, rest + special]
            }
            for text in texts {
                for fromInput in [false, true] {
                    let cell = TableCell.text(text, fromInput: fromInput)
                    #expect(CSVWriter.field(cell) == Self.csvReference(text, fromInput: fromInput), "\(Array(text.utf8))")
                    #expect(JSONWriter.value(cell) == Self.jsonReference(text), "\(Array(text.utf8))")
                }
            }
        }
    }

    @Test func nonASCIIAndFormulaCells() {
        for text in ["é", "日本", "ｈｏｍｅ", "👨‍👩‍👧", "=1", "-é", "@日本語の画面", "+12345678901234567", "é\"", "\u{2029}x"] {
            #expect(CSVWriter.field(.input(text)) == Self.csvReference(text, fromInput: true), "\(text)")
            #expect(JSONWriter.value(.input(text)) == Self.jsonReference(text), "\(text)")
        }
    }
}
