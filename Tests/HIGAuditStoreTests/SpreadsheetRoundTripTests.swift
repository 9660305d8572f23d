import Foundation
import HIGAuditCore
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `export --excel` opened by a real spreadsheet (LibreOffice Calc, headless): every cell reads back as
/// written, ids stay text, and nothing from the log data is evaluated as a formula (SPEC §1, §4).
@Suite struct SpreadsheetRoundTripTests {
    static let soffice: String? = ["/usr/bin/soffice", "/usr/local/bin/soffice", "/usr/lib/libreoffice/program/soffice"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// An id of digits longer than a formula's string literal may be (`StoreExport.constantFormula`).
    static let longDigits = String(repeating: "9876543210", count: 30)

    /// Sessions with ids and screens a spreadsheet would mangle or run.
    static let lines: [String] = {
        let sessions = ["00123", "12345678901234567890", "2026-11-20", "TRUE", "-5", "@home", longDigits]
        let screens = ["=1+1", "=cmd|' /C calc'!A0", "+SUM(A1:A2)", "5.10", "détail, \\\"quoted\\\"", "tab\\tscreen", "home"]
        var lines: [String] = []
        for (index, session) in sessions.enumerated() {
            let ts = 1_795_000_000_000 + Int64(index) * 10_000
            lines.append(#"{"ts":\#(ts),"session":"\#(session)","type":"session.start","app_version":"5.10","device":"0\#(index)"}"#)
            lines.append(#"{"ts":\#(ts + 100),"session":"\#(session)","type":"nav.tab_switch","from":"tab:A","to":"tab:B","screen":"\#(screens[index])"}"#)
            lines.append(#"{"ts":\#(ts + 2500),"session":"\#(session)","type":"nav.tab_switch","from":"tab:B","to":"tab:C","screen":"\#(screens[(index + 1) % screens.count])"}"#)
        }
        return lines
    }()

    /// CI installs LibreOffice (`.ci/run`), so there a missing `soffice` is a failure, not a skip.
    static let mustRun = ProcessInfo.processInfo.environment["CI"] != nil

    @Test(.enabled(if: soffice != nil || mustRun, "LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui"))
    func libreOfficeReadsTheExportBackCellForCell() throws {
        guard let soffice = Self.soffice else {
            Issue.record("LibreOffice (soffice) is not installed; .ci/run installs libreoffice-calc-nogui")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("log.ndjson").path
        try Data(LogFixtures.text(Self.lines).utf8).write(to: URL(fileURLWithPath: log))
        let storePath = directory.appendingPathComponent("store.sqlite").path
        try nightly(storePath, [log], closeOpen: true)
        let out = directory.appendingPathComponent("export").path
        try StoreExport.write(try ResultsStore(readingAt: storePath), to: out, formats: [.csv], spreadsheet: true)

        let exported = try Data(contentsOf: URL(fileURLWithPath: out + "/violations.csv"))
        #expect(exported.starts(with: [0xEF, 0xBB, 0xBF]))

        // Calc imports the CSV (comma, double quote, UTF-8, formulas evaluated as it does by default)
        // and saves it again as CSV with the cells as shown.
        let back = directory.appendingPathComponent("back")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: soffice)
        process.arguments = [
            "-env:UserInstallation=file://\(directory.path)/lo-profile", "--headless",
            "--infilter=CSV:44,34,76,1", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true",
            "--outdir", back.path, out + "/violations.csv",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOf: back.appendingPathComponent("violations.csv"), encoding: .utf8)
        let cells = Self.parseCSV(text)

        // What the cells must read: the table's values, log text that starts like a formula neutralised
        // with ', and nothing else changed.
        let stored = try ResultsStore(readingAt: storePath).read { try StoredTables.load($0) }.table(.violations)
        let expected = [stored.columnNames] + stored.materializedRows.map { row in
            row.map { cell -> String in
                if case .text(let text, true) = cell {
                    // Value-like ids are kept whole as ="…"; other log text is neutralised with '.
                    return StoreExport.spreadsheetWouldConvert(text) ? text : CSVWriter.neutralizingFormula(text)
                }
                return cell.plainText
            }
        }
        #expect(stored.rowCount == Self.lines.count / 3)
        #expect(cells.count == expected.count)
        for (got, want) in zip(cells, expected) { #expect(got == want) }
        // Ids that look like numbers, dates or booleans stayed as written.
        let sessions = Set(cells.dropFirst().map { $0[2] })
        #expect(sessions.isSuperset(of: ["00123", "12345678901234567890", "2026-11-20", "TRUE", "-5", "'@home", Self.longDigits]))
        #expect(cells.dropFirst().allSatisfy { $0[4] == "5.10" })
        // A formula from the log was not run: its text is there, its result (2) is not.
        let screens = cells.dropFirst().map { $0[5] }
        #expect(screens.contains("'=1+1") && !screens.contains("2"))
        #expect(screens.contains("'=cmd|' /C calc'!A0"))
    }

    /// A small RFC 4180 reader for the file Calc wrote.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.unicodeScalars)
        if characters.first == "\u{FEFF}" { characters.removeFirst() }
        var index = 0
        while index < characters.count {
            let c = characters[index]
            if quoted {
                if c == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        field.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" || c == "\r" {
                if c == "\r", index + 1 < characters.count, characters[index + 1] == "\n" { index += 1 }
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.unicodeScalars.append(c)
            }
            index += 1
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
