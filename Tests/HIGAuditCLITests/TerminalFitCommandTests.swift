import Foundation
import Testing
import HIGAuditIO

/// The commands' tables on an 80-column terminal (`script` gives the binary a terminal; `COLUMNS`
/// says how wide): no line is wider, the columns left out are named under the table, and a pipe still
/// gets every column whole.
@Suite(.serialized) struct TerminalFitCommandTests {
    static let logs = "SampleLogs/night-2026-11-20"
    static let every = ["violations", "summary", "by_version", "by_screen", "haptics", "ingest", "unknown_types", "worst_screens"]

    /// What `hig-audit ARGUMENTS` prints on a terminal `columns` wide (line ends as the terminal has them
    /// turned back into `\n`).
    static func onTerminal(_ arguments: [String], columns: Int = 80) throws -> String {
        // Standard error (progress, diagnostics) shares the terminal; only the tables are looked at.
        let command = ([HigAuditBinary.executable.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ") + " 2>/dev/null"
        let result = try HigAuditBinary.shell(["env", "COLUMNS=\(columns)", "TERM=dumb", "NO_COLOR=1", "script", "-qec", command, "/dev/null"])
        return result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    static func tooWide(_ text: String, columns: Int = 80) -> [String] {
        text.split(separator: "\n").map(String.init).filter { TerminalWidth.of($0) > columns }
    }

    /// The note under a table naming the columns left out, joined over its wrapped lines.
    static func notes(_ text: String) -> [String] {
        var notes: [String] = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Left out to fit") {
                if let current { notes.append(current) }
                current = String(line)
            } else if let note = current, !line.isEmpty, !note.hasSuffix("| less -S).") {
                current = note + " " + line
            } else if let note = current {
                notes.append(note)
                current = nil
            }
        }
        if let current { notes.append(current) }
        return notes
    }

    @Test func everyAnalyzeTableFitsEightyColumns() throws {
        let text = try Self.onTerminal(["analyze", Self.logs, "--quiet"] + Self.every.flatMap { ["--table", $0] })
        #expect(text.contains("forced-tab-switch"), "\(text.prefix(2000))")
        #expect(Self.tooWide(text).isEmpty, "\(Self.tooWide(text).prefix(5).joined(separator: "\n"))")
        // violations lose their lowest-ranked columns first, and say so.
        let notes = Self.notes(text)
        #expect(notes.contains { $0.contains("end_ts") && $0.contains("device") && $0.contains("--format csv") }, "\(notes)")
        #expect(text.contains("MB"), "byte counts in the ingest table")
        let overview = try Self.onTerminal(["analyze", Self.logs, "--quiet"])
        #expect(overview.contains("worst_screens") && Self.tooWide(overview).isEmpty, "\(Self.tooWide(overview))")
    }

    @Test func aPipeStillGetsEveryColumnWhole() throws {
        let piped = try HigAuditBinary.run(["analyze", Self.logs, "--quiet", "--table", "violations"], environment: ["COLUMNS": "80"])
        let header = piped.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(header.contains("end_ts") && header.contains("source") && header.count > 80)
        #expect(!piped.stdout.contains("Left out"))
    }

    @Test func showReadsAsAStoryAtEightyColumns() throws {
        let text = try Self.onTerminal(["show", "--session", "s-bravo", ShowCommandTests.fixture])
        #expect(Self.tooWide(text).isEmpty, "\(Self.tooWide(text).joined(separator: "\n"))")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The session, turned on its side; then the events: when, what, where, and what the rules said.
        #expect(lines.contains { $0.hasPrefix("session") && $0.contains("s-bravo") })
        let events = try #require(lines.firstIndex { $0 == "events" })
        let header = lines[events + 1]
        for column in ["ts", "type", "screen", "fields"] { #expect(header.contains(column), "\(header)") }
        // Each violation under the event that caused it: rule · severity · detail.
        #expect(lines.contains { $0.contains("↳ haptic-") && ($0.contains(" · warning · ") || $0.contains(" · error · ")) })
        #expect(text.contains("Under a row, after ↳: rule · severity · detail."))
        #expect(Self.notes(text).contains { $0.contains("source") }, "\(text)")
    }

    @Test func compareAndQueryFitEightyColumns() throws {
        let store = CompareCommandTests.store
        let compare = try Self.onTerminal(["compare", "--store", store, "--base", "5.1.0", "--head", "5.2.0"])
        #expect(Self.tooWide(compare).isEmpty, "\(Self.tooWide(compare).joined(separator: "\n"))")
        let header = compare.split(separator: "\n").first.map(String.init) ?? ""
        for kept in ["rule", "p_value", "verdict"] { #expect(header.contains(kept), "\(header)") }
        let note = try #require(Self.notes(compare).first, "\(compare)")
        #expect(note.contains("base_affected") && note.contains("test") && note.contains("z."), "\(note)")
        for kept in ["base_pct", "head_pct", "change_pct", "p_value"] { #expect(!note.contains(kept), "\(note)") }
        #expect(compare.contains("e-"), "small p-values in scientific notation")
        for arguments in [[], ["--group-by", "app_version", "--group-by", "rule"], ["--table", "violations"]] {
            let query = try Self.onTerminal(["query", "--store", store] + arguments)
            #expect(Self.tooWide(query).isEmpty, "\(arguments): \(Self.tooWide(query).prefix(5).joined(separator: "\n"))")
        }
    }

    /// `rules` too: each rule's parameters go under its row, whole, rather than cut mid-name.
    @Test func theRulesListingFitsWithItsParametersUnderTheirRule() throws {
        let text = try Self.onTerminal(["rules"])
        #expect(Self.tooWide(text).isEmpty, "\(Self.tooWide(text))")
        #expect(text.contains("↳ burst_count=5 burst_window_ms=2000"))
        #expect(text.contains("Apple Pencil and Scribble"))
    }
}
