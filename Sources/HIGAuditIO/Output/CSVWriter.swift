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
        output.write(table.columns.map { Self.quoted($0.name) }.joined(separator: ",") + "\r\n")
        for row in table.rows {
            output.write(row.map(Self.field).joined(separator: ",") + "\r\n")
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

    /// One cell as a CSV field.
    public static func field(_ cell: TableCell) -> String {
        switch cell {
        case .text(let text, let fromInput):
            return quoted(fromInput ? neutralizingFormula(text) : text)
        case .integer, .decimal, .timestamp, .empty:
            return cell.plainText
        }
    }

    /// `'` in front of text a spreadsheet would read as a formula.
    public static func neutralizingFormula(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// The text quoted if RFC 4180 requires it.
    public static func quoted(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
        guard needsQuotes else { return text }
        var result = "\""
        for character in text.unicodeScalars {
            if character == "\"" { result += "\"\"" } else { result.unicodeScalars.append(character) }
        }
        return result + "\""
    }
}
