import HIGAuditCore

/// Prints a table as RFC 4180 CSV that Excel, LibreOffice and Google Sheets open cleanly (SPEC §4).
///
/// A header row, then one record per row, every record ended by CRLF. A field is quoted when it holds
/// `,`, `"`, CR or LF — a lone `"` included (SwiftLint's reporter forgets that case) — with quotes
/// doubled. A text cell from log data that begins with `=`, `+`, `-`, `@`, tab or CR gets a `'` in front
/// so that no spreadsheet runs it as a formula; numbers and timestamps are never touched, so `-3` stays a
/// number. UTF-8 without a byte order mark unless `byteOrderMark` asks for one (older Excel versions
/// need it to read non-ASCII text as UTF-8, but it breaks naive header matching).
public struct CSVWriter: TableWriter {
    public var byteOrderMark: Bool

    public init(byteOrderMark: Bool = false) {
        self.byteOrderMark = byteOrderMark
    }

    public func write(_ table: Table, to output: inout some TextOutputStream) {
        FileOutput.formatting(into: &output) { write(table, to: $0) }
    }

    /// Field by field into the output's buffer, with no string made for a record or a field.
    private func write(_ table: Table, to output: FileOutput) {
        if byteOrderMark { output.write("\u{FEFF}") }
        for (index, column) in table.columns.enumerated() {
            if index > 0 { output.write(byte: UInt8(ascii: ",")) }
            Self.writeText(column.name, fromInput: false, to: output)
        }
        Self.endRecord(output)
        for index in 0..<table.rowCount {
            var first = true
            table.forEachCell(ofRow: index) { cell in
                if !first { output.write(byte: UInt8(ascii: ",")) }
                first = false
                Self.write(cell, to: output)
            }
            Self.endRecord(output)
        }
    }

    @inline(__always)
    private static func endRecord(_ output: FileOutput) {
        output.write(byte: 0x0D)
        output.write(byte: 0x0A)
    }

    /// One cell as a CSV field (`field`).
    @inline(__always)
    static func write(_ cell: TableCell, to output: FileOutput) {
        switch cell {
        case .text(let text, let fromInput): writeText(text, fromInput: fromInput, to: output)
        case .integer(let value), .byteCount(let value): output.write(integer: value)
        case .timestamp(let ms): output.write(timestamp: ms)
        case .decimal, .real, .empty, .boolean: output.write(cell.plainText)
        case .source(let path, let location):
            // The text's first byte is the path's (or `:`), and only the path's bytes can need quotes.
            let written = ByteScan.withBytes(of: path) { bytes -> Bool in
                guard !needsQuotes(bytes) else { return false }
                if startsFormula(bytes.first) { output.write(byte: UInt8(ascii: "'")) }
                output.write(bytes: bytes)
                output.write(sourcePosition: location)
                return true
            }
            if !written { writeText(cell.plainText, fromInput: true, to: output) }
        }
    }

    /// A text field: as it is when nothing needs neutralising or quoting (the common case), else with
    /// `'` in front of a formula and in quotes, its quotes doubled, when a byte needs them.
    @inline(__always)
    private static func writeText(_ text: String, fromInput: Bool, to output: FileOutput) {
        ByteScan.withBytes(of: text) { bytes in
            let formula = fromInput && startsFormula(bytes.first)
            guard needsQuotes(bytes) else {
                if formula { output.write(byte: UInt8(ascii: "'")) }
                output.write(bytes: bytes)
                return
            }
            output.write(byte: UInt8(ascii: "\""))
            if formula { output.write(byte: UInt8(ascii: "'")) }
            // `"` is ASCII, so it never occurs inside a multi-byte character: each run up to and
            // including a quote, then the next run starts with that quote again, doubling it.
            var runStart = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") {
                output.write(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
                runStart = index
            }
            output.write(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            output.write(byte: UInt8(ascii: "\""))
        }
    }

    /// Tables one after the other, each with its header, separated by an empty record. Prefer one file
    /// per table: a spreadsheet reads only the first header as one.
    public func write(_ tables: [Table], to output: inout some TextOutputStream) {
        for (index, table) in tables.enumerated() {
            if index > 0 { output.write("\r\n") }
            CSVWriter(byteOrderMark: byteOrderMark && index == 0).write(table, to: &output)
        }
    }

    /// One cell as a CSV field: what `write(_:to:)` writes for it, so the two cannot disagree.
    public static func field(_ cell: TableCell) -> String {
        let output = FileOutput.memory()
        write(cell, to: output)
        return output.takeText()
    }

    /// `'` in front of text a spreadsheet would read as a formula.
    public static func neutralizingFormula(_ text: String) -> String {
        startsFormula(text) ? "'" + text : text
    }

    /// Whether the text begins with `=`, `+`, `-`, `@`, tab or CR: all ASCII, so its first byte says.
    private static func startsFormula(_ text: String) -> Bool { startsFormula(text.utf8.first) }

    @inline(__always)
    private static func startsFormula(_ first: UInt8?) -> Bool {
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: true
        default: false
        }
    }

    static func needsQuotes(_ text: String) -> Bool {
        ByteScan.withBytes(of: text) { needsQuotes($0) }
    }

    @inline(__always)
    static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteScan.contains(bytes) { lanes in
            ByteScan.any(
                (lanes .== ByteScan.Vector(repeating: UInt8(ascii: ","))) .| (lanes .== ByteScan.Vector(repeating: UInt8(ascii: "\"")))
                    .| (lanes .== ByteScan.Vector(repeating: 0x0D)) .| (lanes .== ByteScan.Vector(repeating: 0x0A)))
        }
    }
}
