import Foundation
import HIGAuditCore
import HIGAuditIO
import HIGAuditSample
@testable import HIGAuditStore

/// Interaction logs written by the tests: one stream of interleaved sessions cut into files, so that
/// sessions cross file (and batch) boundaries, with events that trigger most rules, some out of order
/// within the lateness bound, some duplicates, a few late events and a malformed line.
enum LogFixtures {
    static let base: Int64 = 1_795_000_000_000

    /// The lines of the whole stream, in input order.
    static func stream(seed: UInt64, sessions: Int = 40, eventsPerSession: ClosedRange<Int> = 10...60) -> [String] {
        var rng = SampleRandom(seed: seed)
        var timed: [(ts: Int64, order: Int, line: String)] = []
        var order = 0
        for index in 0..<sessions {
            let session = "s\(index)-\(seed)"
            var ts = base + Int64.random(in: 0...3_600_000, using: &rng)
            let version = ["5.1", "5.2", "5.10"].randomElement(using: &rng)!
            let device = "iPad\(index % 4)"
            func add(_ fields: String, screen: String? = nil, id: String? = nil) {
                var line = #"{"ts":\#(ts),"session":"\#(session)""#
                if let screen { line += #","screen":"\#(screen)""# }
                if let id { line += #","id":"\#(id)""# }
                line += "," + fields + "}"
                // Up to 3 s of jitter: out of order within the default 10 s lateness bound.
                timed.append((ts + Int64.random(in: 0...3000, using: &rng), order, line))
                order += 1
            }
            add(#""type":"session.start","device":"\#(device)","app_version":"\#(version)","haptics_enabled":\#(Bool.random(using: &rng))"#)
            for step in 0..<Int.random(in: eventsPerSession, using: &rng) {
                ts += Int64.random(in: 50...900, using: &rng)
                let screen = ["home", "=cmd|' /C calc'!A0", "list", "détail, \\\"quoted\\\""].randomElement(using: &rng)!
                let id = "e\(step)"
                switch Int.random(in: 0..<10, using: &rng) {
                case 0, 1: add(#""type":"haptic","kind":"\#(["impact.light", "selection", "notification.success"].randomElement(using: &rng)!)""#, id: id)
                case 2: add(#""type":"nav.tab_switch","from":"tab:A","to":"tab:\#(["A", "B", "C"].randomElement(using: &rng)!)""#, screen: screen, id: id)
                case 3: add(#""type":"touch","phase":"ended","target":"tab:B""#, id: id)
                case 4: add(#""type":"modal.present","modal":"m\#(Int.random(in: 0..<4, using: &rng))","style":"\#(["popover", "page_sheet", "alert"].randomElement(using: &rng)!)""#, screen: screen, id: id)
                case 5: add(#""type":"modal.dismiss","modal":"m\#(Int.random(in: 0..<4, using: &rng))""#, id: id)
                case 6: add(#""type":"pencil.double_tap","action":"\#(["switch_eraser", "custom:lasso", "show_color_palette"].randomElement(using: &rng)!)""#, id: id)
                case 7: add(#""type":"content.mutation","action":"delete","undoable":\#(Bool.random(using: &rng))"#, screen: screen, id: id)
                case 8: add(#""type":"outcome","result":"\#(["success", "failure"].randomElement(using: &rng)!)""#, id: id)
                default: add(#""type":"loading.start","indicator":"none""#, id: "l\(step)")
                }
                // A retried upload: the same event again.
                if Int.random(in: 0..<25, using: &rng) == 0 { timed.append(timed[timed.count - 1]) }
            }
            if index % 3 == 0 {
                // Silence longer than the session gap: the next event finds the session closed (late),
                // and one much later finds it closed too, possibly in a later batch.
                ts += 200_000
                add(#""type":"haptic","kind":"selection""#)
                ts += 900_000
                add(#""type":"haptic","kind":"selection""#)
            } else if Bool.random(using: &rng) {
                ts += 100
                add(#""type":"session.end""#)
            }
        }
        timed.sort { ($0.ts, $0.order) < ($1.ts, $1.order) }
        var lines = timed.map(\.line)
        // A malformed line and an event of a long-closed session (late across batches).
        lines.insert(#"{"ts":"not a time","session":"x","type":"touch"}"#, at: lines.count / 3)
        lines.append(#"{"ts":\#(base),"session":"s0-\#(seed)","type":"haptic","kind":"selection"}"#)
        return lines
    }

    /// Splits `lines` into `count` consecutive chunks.
    static func chunks(_ lines: [String], count: Int) -> [[String]] {
        let size = (lines.count + count - 1) / count
        return stride(from: 0, to: lines.count, by: size).map { Array(lines[$0..<min($0 + size, lines.count)]) }
    }

    /// zstd-compresses `text` with the zstd CLI (one frame), with `flags` added.
    static func zstd(_ text: String, _ flags: [String] = []) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zstd", "-q", "-c", "-3"] + flags
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread { 
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// Lines as NDJSON text, every line ended.
    static func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }

    /// Writes `chunks` as `dir/part-NN.zst` files, `framesPerFile` frames each; returns the paths.
    static func writeZstdFiles(_ chunks: [[String]], in directory: URL, framesPerFile: Int = 2) throws -> [String] {
        var paths: [String] = []
        for (index, chunk) in chunks.enumerated() {
            var data = Data()
            for frame in Self.chunks(chunk, count: max(1, min(framesPerFile, chunk.count))) {
                data.append(try zstd(text(frame)))
            }
            let path = directory.appendingPathComponent(String(format: "part-%02d.zst", index)).path
            try data.write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return paths
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs `analyze`'s pipeline over `paths` as one stream (an export of `format`, with `--from`): the
/// reference the store must equal.
func analyzeTables(_ paths: [String], _ configuration: AuditConfiguration, from format: ImportFormat? = nil) throws -> [TableName: String] {
    let run = AuditRun(configuration: configuration, reader: try InputReader(), onDiagnostic: { _ in })
    if let format { run.pipeline.importer = EventImporter(format: format, settings: configuration.importSettings) }
    for path in paths { run.read(InputSource(path: path)) }
    let accumulator = run.finish()
    var tables: [TableName: String] = [:]
    for name in [TableName.violations, .summary, .byVersion, .byScreen, .haptics] {
        tables[name] = CSVWriter().render(accumulator.table(name, ingest: run.statistics, sources: run.sources))
    }
    return tables
}

/// The same tables over the store.
func storeTables(_ storePath: String, selection: StoreSelection = .everything) throws -> [TableName: String] {
    let store = try ResultsStore(readingAt: storePath)
    let tables = try store.read { try StoredTables.load($0, selection: selection) }
    var out: [TableName: String] = [:]
    for name in [TableName.violations, .summary, .byVersion, .byScreen, .haptics] {
        out[name] = CSVWriter().render(tables.table(name))
    }
    return out
}

/// One nightly run over `paths`.
@discardableResult
func nightly(
    _ storePath: String, _ paths: [String], closeOpen: Bool = false,
    _ configuration: AuditConfiguration = StoreTestConfiguration.standard, checkpointDeleteBatch: Int? = nil
) throws -> (NightlyOutcome, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let run = NightlyRun(
        store: try ResultsStore(writingAt: storePath), configuration: configuration, reader: try InputReader(),
        closeOpen: closeOpen, onDiagnostic: { diagnostics.append($0) })
    if let checkpointDeleteBatch { run.checkpointDeleteBatch = checkpointDeleteBatch }
    let outcome = try run.run(paths.map { InputSource(path: $0) })
    return (outcome, diagnostics)
}

/// A store made in `directory` by one nightly run over `lines` (one log file) that closes every
/// session; returns its path.
func closedStore(of lines: [String], in directory: URL) throws -> String {
    let log = directory.appendingPathComponent("log.ndjson").path
    try LogFixtures.text(lines).write(toFile: log, atomically: true, encoding: .utf8)
    let path = directory.appendingPathComponent("results.sqlite").path
    try nightly(path, [log], closeOpen: true)
    return path
}

enum StoreTestConfiguration {
    /// A short session gap, so sessions close by gap mid-stream and across batches too.
    static let standard = AuditConfiguration(sessionGapMs: 120_000)
}
