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
        FileOutput.formatting(into: &output) { file in
            writeArray(table, to: file)
            file.write(byte: 0x0A)
        }
    }

    /// One object whose keys are the table names, in order, each holding that table's array.
    public func write(_ tables: [Table], to output: inout some TextOutputStream) {
        FileOutput.formatting(into: &output) { file in
            file.write(byte: UInt8(ascii: "{"))
            for (index, table) in tables.enumerated() {
                file.write(index == 0 ? "\n" : ",\n")
                file.write(Self.string(table.name) + ": ")
                writeArray(table, to: file)
            }
            file.write(tables.isEmpty ? "}\n" : "\n}\n")
        }
    }

    /// Piece by piece into the output's buffer, with no string made for an object or a cell.
    private func writeArray(_ table: Table, to output: FileOutput) {
        guard table.rowCount > 0 else {
            output.write("[]")
            return
        }
        // Every key as its bytes, `"name":`, one after the other in one array, and where each ends:
        // a row copies its keys from that memory, with no array per key to retain and release per cell.
        var keyBytes: [UInt8] = []
        var keyEnds: [Int] = []
        for column in table.columns {
            keyBytes.append(contentsOf: (Self.string(column.name) + ":").utf8)
            keyEnds.append(keyBytes.count)
        }
        output.write("[\n")
        keyBytes.withUnsafeBufferPointer { keyBytes in
            keyEnds.withUnsafeBufferPointer { keyEnds in
                @inline(__always)
                func writeKey(_ column: Int) {
                    let start = column == 0 ? 0 : keyEnds[column &- 1]
                    output.write(bytes: UnsafeBufferPointer(rebasing: keyBytes[start..<keyEnds[column]]))
                }
                for index in 0..<table.rowCount {
                    output.write(byte: UInt8(ascii: "{"))
                    // A cell past the last column has no key and is left out; a column past the last
                    // cell is null.
                    var column = 0
                    table.forEachCell(ofRow: index) { cell in
                        guard column < keyEnds.count else { return }
                        if column > 0 { output.write(byte: UInt8(ascii: ",")) }
                        writeKey(column)
                        Self.write(cell, to: output)
                        column &+= 1
                    }
                    while column < keyEnds.count {
                        if column > 0 { output.write(byte: UInt8(ascii: ",")) }
                        writeKey(column)
                        output.write("null")
                        column &+= 1
                    }
                    output.write(index == table.rowCount - 1 ? "}\n" : "},\n")
                }
            }
        }
        output.write(byte: UInt8(ascii: "]"))
    }

    /// One cell as a JSON value (`value`).
    @inline(__always)
    private static func write(_ cell: TableCell, to output: FileOutput) {
        switch cell {
        case .text(let text, _):
            ByteScan.withBytes(of: text) { bytes in
                if needsEscaping(bytes) {
                    output.write(string(text))
                } else {
                    output.write(byte: UInt8(ascii: "\""))
                    output.write(bytes: bytes)
                    output.write(byte: UInt8(ascii: "\""))
                }
            }
        case .integer(let value), .byteCount(let value): output.write(integer: value)
        case .decimal: output.write(cell.plainText)
        case .real(let value): output.write(value.isFinite ? cell.plainText : "null")
        case .timestamp(let ms):
            output.write(byte: UInt8(ascii: "\""))
            output.write(timestamp: ms)
            output.write(byte: UInt8(ascii: "\""))
        case .empty: output.write("null")
        case .boolean(let value): output.write(value ? "true" : "false")
        case .source(let path, let location):
            // Only the path's bytes can need escaping: the rest is `:`, `#`, `-` and digits.
            let written = ByteScan.withBytes(of: path) { bytes -> Bool in
                guard !needsEscaping(bytes) else { return false }
                output.write(byte: UInt8(ascii: "\""))
                output.write(bytes: bytes)
                output.write(sourcePosition: location)
                output.write(byte: UInt8(ascii: "\""))
                return true
            }
            if !written { output.write(string(cell.plainText)) }
        }
    }

    /// Whether a string needs more than its quotes: a control character, `"`, `\`, DEL, or 0xE2, which
    /// leads U+2028 and U+2029 (a string with it takes the careful path).
    static func needsEscaping(_ text: String) -> Bool {
        ByteScan.withBytes(of: text) { needsEscaping($0) }
    }

    @inline(__always)
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteScan.contains(bytes) { lanes in
            ByteScan.any(
                (lanes .== ByteScan.Vector(repeating: 0x22)) .| (lanes .== ByteScan.Vector(repeating: 0x5C))
                    .| (lanes .== ByteScan.Vector(repeating: 0x7F)) .| (lanes .== ByteScan.Vector(repeating: 0xE2))
                    .| (lanes .< ByteScan.Vector(repeating: 0x20)))
        }
    }

    /// One cell as a JSON value: what `write(_:to:)` writes for it, so the two cannot disagree.
    public static func value(_ cell: TableCell) -> String {
        let output = FileOutput.memory()
        write(cell, to: output)
        return output.takeText()
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
