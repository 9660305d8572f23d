#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HIGAuditCore
import HIGAuditIO

/// Writes the store's tables as files (`nightly --out`, `export`): all from one read transaction, so
/// the files describe one consistent state even while a nightly run commits, and each file written to
/// a temporary name and renamed over the old one, so a reader never sees half a file (SPEC §5).
public enum StoreExport {
    /// Writes `<dir>/<table>.<ext>` for every exported table and format; returns the paths written.
    /// CSV is RFC 4180, formula-safe (cells from log data beginning with `= + - @` tab or CR get a `'`),
    /// UTF-8, with a byte order mark when `byteOrderMark` (what Excel needs to read UTF-8).
    ///
    /// `spreadsheet` (`export --excel`) also adds the byte order mark and keeps text from log data that a
    /// spreadsheet would turn into a number, date or boolean (`5.10` → 5.1, `00123` → 123, long ids →
    /// 1.2E+19) as text, by writing it as the constant string formula `="5.10"`: the only spelling
    /// that Excel, LibreOffice and Google Sheets all open as text (`constantFormula`). The log data is inside a string
    /// literal (quotes doubled), so nothing from the log is ever evaluated.
    ///
    /// With a `baseline` (SPEC §6), `summary` has `new_violations` and `violations` a `new` column, as
    /// `analyze --baseline` writes them.
    @discardableResult
    public static func write(
        _ store: ResultsStore, to directory: String, formats: [OutputFormat] = [.csv, .json],
        spreadsheet: Bool = false, selection: StoreSelection = .everything, baseline: Baseline? = nil
    ) throws -> [String] {
        try export(store, to: directory, formats: formats, spreadsheet: spreadsheet, selection: selection, baseline: baseline).paths
    }

    /// `write`, which also returns the tables the files were made from (one snapshot), for a gate
    /// over the same numbers (`export --fail-on new`).
    public static func export(
        _ store: ResultsStore, to directory: String, formats: [OutputFormat] = [.csv, .json],
        spreadsheet: Bool = false, selection: StoreSelection = .everything, baseline: Baseline? = nil
    ) throws -> (paths: [String], tables: StoredTables) {
        let failure = OutputPaths.makeDirectory(directory)
        if failure != 0 { throw ExportError(path: directory, message: String(cString: strerror(failure))) }
        let tables = try StoredTables.load(store, selection: selection)
        let byScreen = baseline.map { _ in tables.table(.byScreen) }
        let files = TableName.exported.flatMap { name in
            var table = tables.table(name)
            if let baseline, let byScreen { table = baseline.marking(table, byScreen: byScreen) }
            if spreadsheet { table = keepingTextAsText(table) }
            return formats.map { format in
                TableFile(
                    path: "\(directory)/\(name.rawValue).\(format.fileExtension)", table: table,
                    writer: format == .csv ? CSVWriter(byteOrderMark: spreadsheet) : format.writer())
            }
        }
        do {
            try TableFiles.write(files)
        } catch {
            throw ExportError(path: error.path, message: "\(error.underlying)")
        }
        return (files.map(\.path), tables)
    }
}

extension StoreExport {
    /// The table with every log-data text cell that a spreadsheet would read as a value wrapped as
    /// `="…"`; other cells unchanged.
    static func keepingTextAsText(_ table: HIGAuditCore.Table) -> HIGAuditCore.Table {
        HIGAuditCore.Table(name: table.name, columns: table.columns, rowCount: table.rowCount) { index in
            table.row(index).map { cell in
                let text: String
                switch cell {
                case .text(let input, true): text = input
                case .source: text = cell.plainText
                default: return cell
                }
                guard spreadsheetWouldConvert(text), let formula = constantFormula(text) else { return cell }
                return .text(formula, fromInput: false)
            }
        }
    }

    /// Excel refuses a string literal of more than 255 characters in a formula, and a formula of more
    /// than 8,192.
    static let formulaLiteralCharacters = 255
    static let formulaCharacters = 8_192

    /// `text` as a formula whose value is that text: `="…"`, or for text longer than one string
    /// literal may be, literals joined by `&`, which Excel, LibreOffice and Google Sheets all
    /// evaluate; nil when even that is longer than a formula may be (the text is then written as it
    /// stands).
    static func constantFormula(_ text: String) -> String? {
        let characters = Array(text)
        var literals: [String] = []
        var start = 0
        repeat {
            let end = min(start + formulaLiteralCharacters, characters.count)
            literals.append("\"" + String(characters[start..<end]).replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            start = end
        } while start < characters.count
        let formula = "=" + literals.joined(separator: "&")
        return formula.count <= formulaCharacters ? formula : nil
    }

    /// Whether a spreadsheet's CSV import would take `text` for a number, date, time, percentage or
    /// boolean: digits with only number and date punctuation around them, or TRUE/FALSE.
    static func spreadsheetWouldConvert(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["true", "false"].contains(trimmed.lowercased()) { return true }
        guard !trimmed.isEmpty, trimmed.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) else { return false }
        let allowed = Set("0123456789.,+-eE/:% ".unicodeScalars)
        return trimmed.unicodeScalars.allSatisfy { allowed.contains($0) }
    }
}

/// An export file or directory that could not be written.
public struct ExportError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "cannot write \(path): \(message)" }
}
