import Foundation

/// What `query` and `compare` print for a store, set against what a page shows: the list of numbers
/// that differ (empty when the page agrees with the commands).
enum CommandNumbers {
    static func mismatches(page html: String, store: String) throws -> [String] {
        var problems: [String] = []
        func csv(_ arguments: [String]) throws -> [[String: String]] {
            let result = try HigAudit.run(arguments + ["--format", "csv"])
            guard result.status == 0 else { throw Failure("\(arguments.joined(separator: " ")) failed: \(result.stderr)") }
            return SimpleCSV.rows(result.stdout)
        }
        func expect(_ shown: String?, _ expected: String?, _ what: String) {
            if shown != expected { problems.append("\(what): page shows \(shown ?? "nothing"), the command \(expected ?? "nothing")") }
        }

        // Last night: the day most sessions of the latest run that closed any started on.
        let lastDay = try csv([
            "query", "--store", store, "--sql",
            "SELECT date(first_ts / 1000, 'unixepoch') AS day, COUNT(*) AS n FROM sessions WHERE run_id = (SELECT MAX(run_id) FROM sessions) GROUP BY day ORDER BY n DESC, day DESC LIMIT 1",
        ]).first?["day"] ?? ""
        expect(PageText.first(#"id="last-day">([^<]*)<"#, in: html), lastDay, "last night")
        let day = try DateParts(lastDay)
        let windows: [(String, [String])] = [
            ("all", []),
            ("last-night", ["--since", day.plus(0), "--until", day.plus(1)]),
            ("last-7", ["--since", day.plus(-6), "--until", day.plus(1)]),
            ("last-30", ["--since", day.plus(-29), "--until", day.plus(1)]),
        ]
        for (window, filters) in windows {
            let rows = try csv(["query", "--store", store, "--group-by", "rule"] + filters)
            guard !rows.isEmpty else { problems.append("query printed no rule for \(window)"); continue }
            for row in rows {
                let rule = row["rule"] ?? ""
                let shown = PageText.first(#"<tr data-rule="\#(rule)">.*?data-window="\#(window)">([^<]*)</td>"#, in: html)
                expect(shown, row["pct_sessions_affected"], "\(rule) \(window)")
            }
        }

        let versions = try csv(["query", "--store", store, "--group-by", "app_version", "--group-by", "rule"])
        for row in versions {
            let version = row["app_version"].flatMap { $0.isEmpty ? "(none)" : $0 } ?? ""
            let rule = row["rule"] ?? ""
            let tableRow = PageText.first(#"(<tr data-rule="\#(rule)"><td><code>[^<]*</code></td><td class="num" data-version=.*?</tr>)"#, in: html) ?? ""
            let shown = PageText.first(#"data-version="\#(NSRegularExpression.escapedPattern(for: version))">([^<]*)</td>"#, in: tableRow)
            expect(shown, row["pct_sessions_affected"], "\(rule) version \(version)")
        }

        let named = Array(Set(versions.compactMap { $0["app_version"] }.filter { !$0.isEmpty })).sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        if named.count < 2 { problems.append("the store holds fewer than two app versions") }
        for (base, head) in zip(named, named.dropFirst()) {
            for row in try csv(["compare", "--store", store, "--base", base, "--head", head]) {
                let rule = row["rule"] ?? ""
                let shown = PageText.first(
                    #"<tr data-base="\#(base)" data-head="\#(head)" data-rule="\#(rule)">(.*?)</tr>"#, in: html) ?? ""
                let cells = PageText.all(#"<td[^>]*>([^<]*(?:<code>[^<]*</code>)?)</td>"#, in: shown)
                // base → head, rule, base rate, head rate, change, test, p, verdict (with its arrow).
                guard cells.count == 8 else { problems.append("no comparison row for \(rule) \(base) → \(head)"); continue }
                expect(cells[2], row["base_pct"], "\(rule) \(base) → \(head) base rate")
                expect(cells[3], row["head_pct"], "\(rule) \(base) → \(head) head rate")
                expect(cells[4], row["change_pct"], "\(rule) \(base) → \(head) change")
                expect(cells[7].split(separator: " ").last.map(String.init), row["verdict"], "\(rule) \(base) → \(head) verdict")
            }
        }

        // The overall worst screens, row for row as `query --table worst_screens` prints them.
        let screens = try csv(["query", "--store", store, "--table", "worst_screens"])
        let table = PageText.first(#"(<table id="worst-screens">.*?</table>)"#, in: html) ?? ""
        let shownRows = PageText.all(#"(<tr><td class="mono">.*?</tr>)"#, in: table).map {
            PageText.all(#"<td[^>]*>(?:<code>)?([^<]*)(?:</code>)?</td>"#, in: $0)
        }
        if shownRows.count != screens.count { problems.append("worst screens: page shows \(shownRows.count) rows, query \(screens.count)") }
        for (shown, row) in zip(shownRows, screens) {
            let screen = row["screen"].flatMap { $0.isEmpty ? "(no screen)" : $0 } ?? ""
            let expected = [screen, row["violations"], row["sessions_affected"], row["top_rule"], row["top_rule_violations"]].map { $0 ?? "" }
            expect(shown.joined(separator: " | "), expected.joined(separator: " | "), "worst screen \(screen)")
        }

        let runs = try csv(["query", "--store", store, "--sql", "SELECT id FROM runs ORDER BY id"]).compactMap { $0["id"] }
        for run in runs {
            guard let ingest = try csv(["query", "--store", store, "--run", run, "--table", "ingest"]).first else { continue }
            let shown = PageText.first(#"(<tr><td>run \#(run)</td>.*?</tr>)"#, in: html) ?? ""
            let cells = PageText.all(#"<td[^>]*>([^<]*)</td>"#, in: shown)
            guard cells.count == 8 else { problems.append("no health row for run \(run)"); continue }
            expect(cells[2], ingest["files"], "run \(run) files")
            expect(cells[3], ingest["events"], "run \(run) events")
            expect(cells[4], ingest["malformed_lines"], "run \(run) malformed lines")
            expect(cells[5], ingest["late_events"], "run \(run) late events")
            expect(cells[6], ingest["duplicate_events"], "run \(run) duplicate events")
            expect(cells[7], ingest["faults"], "run \(run) faults")
        }
        return problems
    }
}

/// Regular-expression look-ups in page text (dot matches newlines).
enum PageText {
    static func first(_ pattern: String, in text: String) -> String? { all(pattern, in: text).first }

    static func all(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

/// A UTC day and the days around it, as `YYYY-MM-DD`.
struct DateParts {
    let midnight: Date

    init(_ day: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        guard let date = formatter.date(from: day) else { throw Failure("not a day: \(day)") }
        midnight = date
    }

    func plus(_ days: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: midnight.addingTimeInterval(Double(days) * 86_400))
    }
}
