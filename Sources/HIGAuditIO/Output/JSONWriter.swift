import HIGAuditCore

/// Prints a table as a JSON array of objects, one per row, keys in column order (SPEC §4).
///
/// Integers and decimals are JSON numbers, timestamps RFC 3339 strings, empty cells `null`. Strings are
/// escaped per RFC 8259, and U+2028/U+2029 too so the output is also valid JavaScript. One object per
/// line keeps large outputs greppable and diffable. Text is written as is: formula neutralising is a
/// CSV concern.
public struct JSONWriter: TableWriter {
    public init() {}

    public func write(_ table: Table, to output: inout some TextOutputStream) {
        writeArray(table, to: &output)
        output.write("\n")
    }

    /// One object whose keys are the table names, in order, each holding that table's array.
    public func write(_ tables: [Table], to output: inout some TextOutputStream) {
        output.write("{")
        for (index, table) in tables.enumerated() {
            output.write(index == 0 ? "\n" : ",\n")
            output.write(Self.string(table.name) + ": ")
            writeArray(table, to: &output)
        }
        output.write(tables.isEmpty ? "}\n" : "\n}\n")
    }

    private func writeArray(_ table: Table, to output: inout some TextOutputStream) {
        guard table.rowCount > 0 else {
            output.write("[]")
            return
        }
        let keys = table.columns.map { Self.string($0.name) + ":" }
        output.write("[\n")
        // Piece by piece into the output: building each object as one string from per-cell strings cost
        // ~44,000 instructions a row of the violations table, time stamps aside.
        for (index, row) in table.rows.enumerated() {
            output.write("{")
            for (column, key) in keys.enumerated() {
                if column > 0 { output.write(",") }
                output.write(key)
                if column < row.count {
                    Self.write(row[column], to: &output)
                } else {
                    output.write("null")
                }
            }
            output.write(index == table.rowCount - 1 ? "}\n" : "},\n")
        }
        output.write("]")
    }

    /// One cell as a JSON value (`value`), written to `output`. Inlined, so that it is specialised with
    /// its caller for the output's type instead of reaching it through the protocol.
    @inline(__always)
    private static func write(_ cell: TableCell, to output: inout some TextOutputStream) {
        switch cell {
        case .text(let text, _):
            if needsEscaping(text) {
                output.write(string(text))
            } else {
                output.write("\"")
                output.write(text)
                output.write("\"")
            }
        case .integer, .decimal: output.write(cell.plainText)
        case .timestamp:
            output.write("\"")
            output.write(cell.plainText)
            output.write("\"")
        case .empty: output.write("null")
        }
    }

    /// Whether a string needs more than its quotes: a control character, `"`, `\`, DEL, or 0xE2, which
    /// leads U+2028 and U+2029 (a string with it takes the careful path).
    static func needsEscaping(_ text: String) -> Bool {
        ByteScan.contains(
            text,
            word: {
                ByteScan.has($0, below: 0x20) || ByteScan.has($0, byte: 0x22) || ByteScan.has($0, byte: 0x5C)
                    || ByteScan.has($0, byte: 0x7F) || ByteScan.has($0, byte: 0xE2)
            },
            byte: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 })
    }

    /// One cell as a JSON value: what `write(_:to:)` writes for it, so the two cannot disagree.
    public static func value(_ cell: TableCell) -> String {
        var text = ""
        write(cell, to: &text)
        return text
    }

    /// A JSON string literal.
    public static func string(_ text: String) -> String {
        // Most cells need no escaping: check the bytes once and copy them as they are. 0xE2 leads
        // U+2028/U+2029, so any string that has it takes the careful path.
        if !needsEscaping(text) { return "\"" + text + "\"" }
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
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
