import Foundation

/// What the examples of `--help` and the README name, made once per test run in a temporary
/// directory: `uploads/` (15 clean nights of `hig-audit sample`, 2026-11-06 to 2026-11-20, app versions
/// 5.1.0, 5.2.0 and 5.2.1), `logs/` (two small hand-written sessions, s-bravo and one whose id starts
/// 9F3A, beside a copy of one night of uploads), `archive/`, `upload.zst`, `rules.yml`,
/// `our-templates/` (the default style), `SampleLogs/` (the repository's), `baseline.json` (the night of
/// 2026-11-19's (rule, screen) pairs) and `results.sqlite`, a store of one nightly run
/// per night (runs 1 to 15) and one that closes the sessions left open and reads `logs/` (run 16).
enum ExampleFixtures {
    /// Two clean sessions: s-bravo (as in Fixtures/mixed.ndjson, without its late and malformed lines)
    /// and a session with a UUID id, as iOS writes them, for prefixes such as 9F3A.
    static let handWrittenSessions: String = {
        let bravo = """
            {"ts":1795208400000,"session":"s-bravo","type":"session.start","device":"ipad-0002","app_version":"5.1.0","haptics_enabled":false,"pencil_preferred_action":"show_color_palette","screen":"canvas"}
            {"ts":1795208401000,"session":"s-bravo","type":"haptic","kind":"impact.medium","duration_ms":2000}
            {"ts":1795208402000,"session":"s-bravo","type":"pencil.double_tap","action":"switch_eraser"}
            {"ts":1795208403000,"session":"s-bravo","type":"pencil.double_tap","action":"show_color_palette"}
            {"ts":1795208404000,"session":"s-bravo","type":"loading.start","id":"sync","indicator":"none","screen":"library"}
            {"ts":1795208406500,"session":"s-bravo","type":"loading.end","id":"sync"}
            {"ts":1795208408000,"session":"s-bravo","type":"outcome","result":"failure","task":"save"}
            {"ts":1795208408100,"session":"s-bravo","type":"haptic","kind":"notification.success"}
            {"ts":1795208410000,"session":"s-bravo","type":"session.end"}
            """
        let uuid = bravo.replacingOccurrences(of: "s-bravo", with: uuidSession)
            .replacingOccurrences(of: "ipad-0002", with: "ipad-0900")
            .replacingOccurrences(of: "\"ts\":17952084", with: "\"ts\":17952094")
        return bravo + "\n" + uuid + "\n"
    }()

    static let uuidSession = "9F3A2C71-4B0E-4D5B-9C1A-7E2F0B6D3A55"

    /// The directory holding every fixture, made on first use.
    static let directory: Result<URL, any Error> = Result { try make() }

    static func url() throws -> URL { try directory.get() }

    private static func make() throws -> URL {
        let root = try HigAuditBinary.temporaryDirectory()
        // Made once for the whole test run, so removed when the test process ends.
        exampleFixturesRoot = root.path
        atexit {
            if let root = exampleFixturesRoot { try? FileManager.default.removeItem(atPath: root) }
        }
        func run(_ arguments: [String], allowing statuses: Set<Int32> = [0]) throws {
            let result = try HigAuditBinary.shell([HigAuditBinary.executable.path] + arguments, workingDirectory: root)
            guard statuses.contains(result.status) else {
                throw FixtureError(description: "hig-audit \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            }
        }
        let files = FileManager.default
        try run([
            "sample", "--out", "uploads", "--sessions", "150", "--days", "15", "--start", "2026-11-06T18:00:00Z",
            "--no-noise", "--seed", "7", "--session-length", "short", "--move-sampling-ms", "250", "--quiet",
        ])
        try files.createDirectory(at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data(handWrittenSessions.utf8).write(to: root.appendingPathComponent("logs/sessions.ndjson"))
        try files.copyItem(at: root.appendingPathComponent("uploads/2026-11-20"), to: root.appendingPathComponent("logs/2026-11-20"))
        try files.createSymbolicLink(at: root.appendingPathComponent("archive"), withDestinationURL: root.appendingPathComponent("uploads"))
        let firstUpload = try files.subpathsOfDirectory(atPath: root.appendingPathComponent("uploads/2026-11-20").path)
            .filter { $0.hasSuffix(".zst") }.sorted()[0]
        try files.copyItem(
            at: root.appendingPathComponent("uploads/2026-11-20/\(firstUpload)"), to: root.appendingPathComponent("upload.zst"))
        let defaults = try HigAuditBinary.run(["rules", "--defaults"])
        try Data(defaults.stdout.utf8).write(to: root.appendingPathComponent("rules.yml"))
        try files.createDirectory(at: root.appendingPathComponent("our-templates"), withIntermediateDirectories: true)
        try files.copyItem(
            at: HigAuditBinary.packageRoot.appendingPathComponent("Dashboards/templates/style.mustache"),
            to: root.appendingPathComponent("our-templates/style.mustache"))
        try files.createSymbolicLink(
            at: root.appendingPathComponent("SampleLogs"), withDestinationURL: HigAuditBinary.packageRoot.appendingPathComponent("SampleLogs"))
        for day in 6...20 {
            try run(["nightly", "--store", "results.sqlite", "--quiet", "uploads/2026-11-\(day < 10 ? "0" : "")\(day)"])
        }
        try run(["nightly", "--store", "results.sqlite", "--close-open", "--quiet", "logs/sessions.ndjson"])
        try run(["baseline", "--out", "baseline.json", "--quiet", "uploads/2026-11-19"])
        // import's examples: a gzipped PostHog export, a folder of OTLP/JSON logs and the tab roots.
        let imports = HigAuditBinary.packageRoot.appendingPathComponent("Tests/HIGAuditCLITests/Fixtures/import")
        _ = try HigAuditBinary.shell(
            ["sh", "-c", "gzip -c '\(imports.path)/posthog.jsonl' > export.jsonl.gz"], workingDirectory: root)
        try files.createDirectory(at: root.appendingPathComponent("otel"), withIntermediateDirectories: true)
        try files.copyItem(at: imports.appendingPathComponent("otlp.jsonl"), to: root.appendingPathComponent("otel/day-1.jsonl"))
        try files.copyItem(at: imports.appendingPathComponent("import.yml"), to: root.appendingPathComponent("import.yml"))
        return root
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }
}

/// The fixtures' folder, for the exit handler (a C function, which captures nothing).
nonisolated(unsafe) private var exampleFixturesRoot: String?
