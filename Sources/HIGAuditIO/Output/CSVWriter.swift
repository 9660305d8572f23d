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
        if byteOrderMark { output.write("\u{FEFF}") }
        // Field by field into the output: joining each record from per-field strings first cost ~8,500
        // instructions a record on top of the fields themselves.
        for (index, column) in table.columns.enumerated() {
            if index > 0 { output.write(",") }
            Self.writeText(column.name, fromInput: false, to: &output)
        }
        output.write("\r\n")
        for row in table.rows {
            for (index, cell) in row.enumerated() {
                if index > 0 { output.write(",") }
                Self.write(cell, to: &output)
            }
            output.write("\r\n")
        }
    }

    /// One cell as a CSV field (`field`), written to `output`. Inlined (as `writeText`), so that it is
    /// specialised with its caller for the output's type instead of reaching it through the protocol.
    @inline(__always)
    static func write(_ cell: TableCell, to output: inout some TextOutputStream) {
        switch cell {
        case .text(let text, let fromInput): writeText(text, fromInput: fromInput, to: &output)
        case .integer, .decimal, .timestamp, .empty: output.write(cell.plainText)
        }
    }

    /// A text field as `field` makes it; the common case, nothing to neutralise or quote, as it is.
    @inline(__always)
    private static func writeText(_ text: String, fromInput: Bool, to output: inout some TextOutputStream) {
        if (fromInput && startsFormula(text)) || needsQuotes(text) {
            output.write(quoted(fromInput ? neutralizingFormula(text) : text))
        } else {
            output.write(text)
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
        var text = ""
        write(cell, to: &text)
        return text
    }

    /// `'` in front of text a spreadsheet would read as a formula.
    public static func neutralizingFormula(_ text: String) -> String {
        startsFormula(text) ? "'" + text : text
    }

    /// Whether the text begins with `=`, `+`, `-`, `@`, tab or CR: all ASCII, so its first byte says.
    private static func startsFormula(_ text: String) -> Bool {
        switch text.utf8.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: true
        default: false
        }
    }

    static func needsQuotes(_ text: String) -> Bool {
        ByteScan.contains(
            text,
            word: {
                ByteScan.has($0, byte: UInt8(ascii: ",")) || ByteScan.has($0, byte: UInt8(ascii: "\""))
                    || ByteScan.has($0, byte: 0x0D) || ByteScan.has($0, byte: 0x0A)
            },
            byte: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A })
    }

    /// The text quoted if RFC 4180 requires it.
    public static func quoted(_ text: String) -> String {
        guard needsQuotes(text) else { return text }
        // Byte by byte: `"` is ASCII, so it never occurs inside a multi-byte character. Appending
        // scalar by scalar to a `String` cost ~380 instructions a character (~38,000 for a violation's
        // detail with a comma).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
}
