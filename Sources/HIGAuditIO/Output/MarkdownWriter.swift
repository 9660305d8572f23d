import HIGAuditCore

/// Prints a table as a GitHub-flavoured Markdown pipe table, for pasting into issues and wikis.
///
/// `|` and `\` are escaped in every cell; line breaks inside a cell become `<br>`; text from log data
/// also has Markdown and HTML punctuation escaped (`` ` * _ [ ] < > & ~``) so a screen name cannot turn
/// into a link, emphasis or markup. Control characters (an escape sequence, a carriage return) and
/// bidirectional controls from any cell are written out as `\u{…}` (`TerminalText`), since Markdown is
/// read in terminals too. Numbers are right-aligned (`---:`).
public struct MarkdownWriter: TableWriter {
    public init() {}

    public func write(_ table: Table, to output: inout some TextOutputStream) {
        output.write("| " + table.columns.map { Self.escaped($0.name, fromInput: false) }.joined(separator: " | ") + " |\n")
        output.write("|" + table.columns.map { $0.alignment == .right ? " ---: " : " --- " }.joined(separator: "|") + "|\n")
        for row in table.rows {
            output.write("| " + row.map(Self.cell).joined(separator: " | ") + " |\n")
        }
    }

    /// Each table under a `##` heading with its name.
    public func write(_ tables: [Table], to output: inout some TextOutputStream) {
        for (index, table) in tables.enumerated() {
            if index > 0 { output.write("\n") }
            output.write("## " + Self.escaped(table.name, fromInput: true) + "\n\n")
            write(table, to: &output)
        }
    }

    public static func cell(_ cell: TableCell) -> String {
        switch cell {
        case .text(let text, let fromInput): escaped(text, fromInput: fromInput)
        case .source: escaped(cell.plainText, fromInput: true)
        default: cell.plainText
        }
    }

    public static func escaped(_ text: String, fromInput: Bool) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\r":
                result += "<br>"
                if pending == "\n" { pending = scalars.next() }
            case "\n":
                result += "<br>"
            case "|", "\\":
                result += "\\" + String(scalar)
            case _ where fromInput && punctuation.contains(scalar):
                result += "\\" + String(scalar)
            case _ where TerminalText.isHidden(scalar):
                // Markdown is read in terminals too (`cat`, a pager): an escape must not reach one.
                result += TerminalText.visible(String(scalar))
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static let punctuation: Set<Unicode.Scalar> = ["`", "*", "_", "[", "]", "<", ">", "&", "~"]
}
