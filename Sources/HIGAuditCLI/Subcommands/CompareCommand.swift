import ArgumentParser
import HIGAuditCore
import HIGAuditIO
import HIGAuditStore

/// What makes `compare --fail-on` end with its own exit status.
enum CompareFailure: String, ExpressibleByArgument, CaseIterable {
    /// Any rule's verdict is `worse`.
    case worse
}

/// `hig-audit compare`: two app versions, two periods or two runs side by side, rule by rule, with a
/// significance test.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two app versions, days, time ranges or runs rule by rule: percent of sessions affected and whether the change is beyond noise.",
        discussion: """
            Each side is one of: an app version (--base/--head, matched by whole components: 5.2 is 5.2, \
            5.2.0 and 5.2.1), a UTC day (--base-day/--head-day), a time range (--base-since/--base-until, \
            --head-since/--head-until: half-open, since ≤ t < until, RFC 3339, a date meaning midnight UTC or \
            milliseconds since the epoch; a missing bound leaves that end open), or a nightly run \
            (--base-run/--head-run: the sessions that run closed). Both sides are of the same kind: versions, \
            times (a day and a range mix) or runs. A session belongs to a day or range when its events overlap \
            it, and only its violations starting inside count, as with query's --since/--until; a session \
            spanning midnight counts on both days. Standard error names the app versions each side holds. \
            Sides that share sessions by their definition are refused: version sides that share a version \
            (--base 5.2 --head 5.2.1), the same run twice, periods with time in common.

            For each rule: the sessions of each side, the sessions with at least one violation of the rule, \
            the percent of sessions affected (base_pct, head_pct), the change in percentage points (change_pct, head − base), and a two-sided test of whether the two \
            shares of sessions affected differ: a pooled two-proportion z-test, or Fisher's exact test when an \
            expected count is below 5. The verdict is worse or better when p < --alpha (default 0.01, strict \
            because every rule is tested at once), else noise; untested, with the percent, change and test left \
            empty, when the rule judged no session of a side (sessions without every touch, SPEC §7). Sessions, not violations, are the unit: one \
            session's violations are not independent of each other. p_value is text in the table and \
            markdown (0.0123; below 0.001 in scientific notation, 4.4e-16; below 10⁻¹⁶ the bound <1e-16) and a \
            plain decimal number in csv and json (below 10⁻¹⁶, 0 to 16 places).

            --fail-on worse prints the table, then exits with status 5 when any rule's verdict is worse, so \
            that a scheduled job can alert.

            Examples:
              hig-audit compare --store results.sqlite --base 5.1 --head 5.2
              hig-audit compare --store results.sqlite --base 5.1 --head 5.2 --format csv \\
                  > compare.csv
              hig-audit compare --store results.sqlite \\
                  --base-day 2026-11-19 --head-day 2026-11-20 --fail-on worse
              hig-audit compare --store results.sqlite --base-since 2026-11-01 \\
                  --base-until 2026-11-08 --head-since 2026-11-08 --head-until 2026-11-15
              hig-audit compare --store results.sqlite --base-run 14 --head-run 15

            Exit status: 0 on success; 1 when the store cannot be read or a side has no sessions; 5 with \
            --fail-on worse when a rule's verdict is worse (the table is printed first); 64 on a usage error \
            (sides that overlap included).
            """
    )

    @Option(help: ArgumentHelp("The results store written by `hig-audit nightly` (opened read-only).", valueName: "file"))
    var store: String

    @OptionGroup(title: "Base side (one of)") var base: BaseSideOptions
    @OptionGroup(title: "Head side (one of, of the base's kind)") var head: HeadSideOptions
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<CompareMessages>

    @Option(help: ArgumentHelp("Significance level for the verdict.", valueName: "p"))
    var alpha: Double = ReleaseComparison.defaultAlpha

    @Option(help: ArgumentHelp("After printing, exit with status 5 when any rule's verdict is worse.", valueName: "verdict"))
    var failOn: CompareFailure?

    @Option(help: "Output format: table, csv, json or markdown.")
    var format: OutputFormat = .table

    @Option(help: "Colour in terminal tables: auto, always or never.")
    var color: ColorChoice = .auto

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1, not \(alpha).") }
        let base = try baseSide(), head = try headSide()
        if base.kind != head.kind {
            throw ValidationError(
                "\(base.option) compares \(base.kind.rawValue) but \(head.option) compares \(head.kind.rawValue): both sides must be of the same kind (versions, times or runs).")
        }
        if base.side.overlaps(head.side) {
            throw ValidationError(
                "The base side (\(base.side)) and the head side (\(head.side)) overlap: their common sessions would count on both sides. Choose sides that do not overlap.")
        }
    }

    func run() throws {
        try reportingCommandErrors {
            let compared: Table?
            let base = try baseSide().side, head = try headSide().side
            let pValues: ReleaseComparison.PValueStyle = format == .csv || format == .json ? .number : .readable
            var versions: (base: [SideVersion], head: [SideVersion]) = ([], [])
            var overlap: String?
            do {
                let opened = try ResultsStore(readingAt: store)
                ShardCoverageWarning.check(opened, path: store, verbosity: verbosity.level)
                // No table when the sides share a version: that is said instead.
                compared = try opened.read { db -> Table? in
                    versions = (try base.versions(db), try head.versions(db))
                    if case .version(let baseVersion) = base, case .version(let headVersion) = head {
                        overlap = CompareSideVersions.overlap(base: baseVersion, head: headVersion, versions.base, versions.head)
                        if overlap != nil { return nil }
                    }
                    return try ReleaseComparison.table(db, base: base, head: head, alpha: alpha, pValues: pValues)
                }
            } catch {
                throw FatalError("\(error)")
            }
            guard let table = compared else { throw UsageError(overlap ?? "the sides overlap") }
            if verbosity.level.saysNotes {
                StandardError.write("hig-audit: note: \(CompareSideVersions.note(side: "base", base, versions.base))\n")
                StandardError.write("hig-audit: note: \(CompareSideVersions.note(side: "head", head, versions.head))\n")
            }
            var stdout = FileOutput.standardOutput()
            format.writer(colors: color.isEnabledForStandardOutput, screen: .standardOutput()).write(table, to: &stdout)
            do {
                try stdout.close()
            } catch {
                throw FatalError("cannot write to standard output: \(error)")
            }
            if failOn == .worse {
                let worse = ReleaseComparison.worseRules(in: table)
                if !worse.isEmpty {
                    if verbosity.level.saysNotes {
                        StandardError.write("hig-audit: worse (--fail-on worse): \(worse.joined(separator: ", "))\n")
                    }
                    throw ExitCode(ExitStatus.worseVerdict)
                }
            }
        }
    }

    private func baseSide() throws -> ChosenSide {
        try ChosenSide.from(
            name: "base", version: base.version, day: base.day, since: base.since, until: base.until, run: base.run)
    }

    private func headSide() throws -> ChosenSide {
        try ChosenSide.from(
            name: "head", version: head.version, day: head.day, since: head.since, until: head.until, run: head.run)
    }
}

/// `compare`'s base side: the population the head is measured against.
struct BaseSideOptions: ParsableArguments {
    @Option(name: .customLong("base"), help: ArgumentHelp("This app version or one extending it (the earlier release).", valueName: "version"))
    var version: String?

    @Option(name: .customLong("base-day"), help: ArgumentHelp("The sessions overlapping this UTC day (YYYY-MM-DD).", valueName: "date"))
    var day: String?

    @Option(name: .customLong("base-since"), help: ArgumentHelp("The sessions overlapping the range from this time on (with or without --base-until).", valueName: "time"))
    var since: String?

    @Option(name: .customLong("base-until"), help: ArgumentHelp("The sessions overlapping the range before this time (with or without --base-since).", valueName: "time"))
    var until: String?

    @Option(name: .customLong("base-run"), help: ArgumentHelp("The sessions closed by this nightly run (`runs` in query --sql lists them).", valueName: "id"))
    var run: Int64?
}

/// `compare`'s head side: the population under test.
struct HeadSideOptions: ParsableArguments {
    @Option(name: .customLong("head"), help: ArgumentHelp("This app version or one extending it (the release under test).", valueName: "version"))
    var version: String?

    @Option(name: .customLong("head-day"), help: ArgumentHelp("The sessions overlapping this UTC day (YYYY-MM-DD).", valueName: "date"))
    var day: String?

    @Option(name: .customLong("head-since"), help: ArgumentHelp("The sessions overlapping the range from this time on (with or without --head-until).", valueName: "time"))
    var since: String?

    @Option(name: .customLong("head-until"), help: ArgumentHelp("The sessions overlapping the range before this time (with or without --head-since).", valueName: "time"))
    var until: String?

    @Option(name: .customLong("head-run"), help: ArgumentHelp("The sessions closed by this nightly run.", valueName: "id"))
    var run: Int64?
}

/// One side of `compare` as its options gave it: the side, its kind and the option that named it.
private struct ChosenSide {
    enum Kind: String {
        case versions, times, runs
    }

    var side: ComparisonSide
    var kind: Kind
    var option: String

    /// The side given by exactly one of `--NAME`, `--NAME-day`, `--NAME-since`/`--NAME-until` or
    /// `--NAME-run`; anything else is a usage error that lists the choices.
    static func from(name: String, version: String?, day: String?, since: String?, until: String?, run: Int64?) throws -> ChosenSide {
        var given: [String] = []
        if version != nil { given.append("--\(name)") }
        if day != nil { given.append("--\(name)-day") }
        if since != nil || until != nil {
            given.append([since.map { _ in "--\(name)-since" }, until.map { _ in "--\(name)-until" }].compactMap { $0 }.joined(separator: "/"))
        }
        if run != nil { given.append("--\(name)-run") }
        guard given.count == 1 else {
            let choices = "--\(name) VERSION, --\(name)-day DATE, --\(name)-since/--\(name)-until TIME or --\(name)-run ID"
            if given.isEmpty { throw ValidationError("Missing the \(name) side: give one of \(choices).") }
            throw ValidationError("\(given.joined(separator: " and ")) cannot be combined: the \(name) side is one of \(choices).")
        }
        let option = given[0]
        if let version { return ChosenSide(side: .version(version), kind: .versions, option: option) }
        if let run { return ChosenSide(side: .run(run), kind: .runs, option: option) }
        if let day {
            guard day.utf8.count == 10, day.wholeMatch(of: /\d{4}-\d\d-\d\d/) != nil,
                let midnight = try? FilterOptions.parsedTime(day, option: option)
            else { throw ValidationError("\(option) takes a UTC date (2026-11-20), not '\(day)'.") }
            return ChosenSide(side: .day(startingAt: midnight), kind: .times, option: option)
        }
        let start = try FilterOptions.parsedTime(since, option: "--\(name)-since")
        let end = try FilterOptions.parsedTime(until, option: "--\(name)-until")
        if let start, let end, start >= end {
            throw ValidationError("--\(name)-since (\(since ?? "")) must be before --\(name)-until (\(until ?? "")): the range is since ≤ t < until.")
        }
        return ChosenSide(side: .period(since: start, until: end), kind: .times, option: option)
    }
}
