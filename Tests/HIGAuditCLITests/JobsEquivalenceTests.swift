import Foundation
import HIGAuditSample
import Testing

/// `--jobs N` reads several inputs at a time, and the engine still gets one stream in input order, so
/// every output must be the same for any N, byte for byte: the tables on standard output, every file
/// of `--out`, the malformed-line report and every diagnostic on standard error in its place; for
/// `nightly`, the store's rows. Checked on noisy mixed-writer samples in every layout, over several
/// seeds, with every input read in two stages (`HIG_AUDIT_TWO_STAGE_BYTES=0`: one thread
/// decompresses and splits, another decodes), which the default saves for large inputs read alone,
/// and with a read-ahead budget of one batch (`HIG_AUDIT_READ_AHEAD_BATCHES=1`), so that the readers
/// ahead wait for it all the time while the front's reader does not.
@Suite struct JobsEquivalenceTests {
    static let jobCounts = [1, 2, 3, 8]
    /// The runs compared with `--jobs 1`: each job count above 1 reading as it chooses, and once more
    /// in two stages (2 jobs), with the budget of one batch (3), or both (8).
    static let variants: [(jobs: Int, environment: [String: String])] = jobCounts.dropFirst().flatMap { jobs in
        let twoStages = ["HIG_AUDIT_TWO_STAGE_BYTES": "0"]
        let starved = ["HIG_AUDIT_READ_AHEAD_BATCHES": "1"]
        let other = switch jobs {
        case 2: twoStages
        case 3: starved
        default: twoStages.merging(starved) { first, _ in first }
        }
        return [(jobs, [:]), (jobs, other)]
    }

    /// A noisy sample night on disk, each device's lines written the way one of the SDK writers
    /// would; `copyFirstUpload` adds a copy of one upload right after it in path order (a file the
    /// nightly job must find already counted, even when read ahead).
    static func sample(seed: UInt64, layout: SampleConfiguration.Layout, copyFirstUpload: Bool = false) throws -> URL {
        let configuration = SampleConfiguration(
            size: .sessions(120), seed: seed, days: 2, devices: 16, noise: .heavy, layout: layout, fileMinutes: 10,
            moveSamplingMs: 250, sessionLength: .short, encoders: .mixed)
        var memory = InMemorySampleLogSink()
        _ = try SampleGenerator(configuration: configuration).generate(into: &memory)
        let directory = try HigAuditBinary.temporaryDirectory()
        var disk = try ZstdDirectorySink(directory: directory, level: 1)
        for file in memory.files { try disk.write(file) }
        if copyFirstUpload, let first = memory.files.map(\.path).sorted().first {
            let original = directory.appendingPathComponent(first)
            try FileManager.default.copyItem(at: original, to: original.appendingPathExtension("copy.zst"))
        }
        return directory
    }

    /// Everything `analyze` writes, with `--jobs jobs`.
    static func analyzeOutputs(_ input: URL, jobs: Int, environment: [String: String] = [:]) throws -> [String: String] {
        let out = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let report = out.appendingPathComponent("malformed.txt")
        let tables = out.appendingPathComponent("tables")
        let result = try HigAuditBinary.run([
            "analyze", input.path, "--jobs", "\(jobs)", "--out", tables.path, "--malformed-report", report.path,
            "--table", "violations", "--format", "csv",
        ], environment: environment)
        var outputs = ["status": "\(result.status)", "stdout": result.stdout, "stderr": result.stderr]
        #expect(result.status == 3, "analyze --jobs \(jobs): \(result.stderr.suffix(600))")
        outputs["malformed-report"] = try String(contentsOf: report, encoding: .utf8)
        for name in try FileManager.default.contentsOfDirectory(atPath: tables.path) {
            outputs[name] = try String(contentsOf: tables.appendingPathComponent(name), encoding: .utf8)
        }
        return outputs
    }

    @Test(arguments: [(UInt64(41), SampleConfiguration.Layout.time), (42, .device), (43, .uploads), (44, .deviceHour)])
    func analyzeWritesTheSameForEveryJobCount(seed: UInt64, layout: SampleConfiguration.Layout) throws {
        let input = try Self.sample(seed: seed, layout: layout)
        defer { try? FileManager.default.removeItem(at: input) }
        let reference = try Self.analyzeOutputs(input, jobs: 1)
        #expect(reference["status"] == "3", "the noisy sample has skipped input")
        #expect(reference["violations.csv"]?.isEmpty == false)
        #expect(reference["stderr"]?.contains("late event") == true)
        for (jobs, environment) in Self.variants {
            let outputs = try Self.analyzeOutputs(input, jobs: jobs, environment: environment)
            #expect(outputs.keys.sorted() == reference.keys.sorted())
            for (name, text) in reference {
                #expect(outputs[name] == text, "\(name) differs with --jobs \(jobs) \(environment) (\(layout), seed \(seed))")
            }
        }
    }

    /// The store's rows after two nightly runs (the first day, then both), with `--jobs jobs`, and
    /// what the runs said with `--verbose`.
    static func nightlyStore(_ input: URL, jobs: Int, environment: [String: String] = [:]) throws -> [String: String] {
        let work = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let store = work.appendingPathComponent("store.sqlite").path
        var outputs: [String: String] = [:]
        let days = try FileManager.default.contentsOfDirectory(atPath: input.path).sorted()
        let firstNight = days.count > 1 ? input.appendingPathComponent(days[0]).path : input.path
        for (night, path) in [firstNight, input.path].enumerated() {
            let run = try HigAuditBinary.run(
                ["nightly", path, "--store", store, "--jobs", "\(jobs)", "--verbose"], environment: environment)
            outputs["night \(night) status"] = "\(run.status)"
            // The summary line names the run id and counts, all of which must agree.
            outputs["night \(night) stderr"] = run.stderr
        }
        for (name, sql) in [
            ("violations", "SELECT * FROM violations ORDER BY id"),
            ("sessions", "SELECT * FROM sessions ORDER BY session"),
            ("input_files", "SELECT id, display_path, head_length, head_sha256, size, content_sha256, resume_stored_offset, resume_decompressed_offset, resume_lines_before, counted_lines, held_back FROM input_files ORDER BY id"),
            ("runs", "SELECT files, files_skipped, files_changed, compressed_bytes, decompressed_bytes, frames, lines, events, sessions, sessions_closed, open_sessions, malformed_lines, late_events, duplicate_events, unknown_types, skipped_bytes, truncated_files, unbalanced_dismisses, faults, violations FROM runs ORDER BY id"),
            ("checkpoint", "SELECT state FROM engine_checkpoint"),
            ("input_file_leads", "SELECT id, lead_sha256 FROM input_files ORDER BY id"),
        ] {
            let query = try HigAuditBinary.run(["query", "--store", store, "--sql", sql, "--format", "csv"])
            #expect(query.status == 0, "\(query.stderr)")
            outputs[name] = query.stdout
        }
        return outputs
    }

    @Test(arguments: [(UInt64(51), SampleConfiguration.Layout.time), (52, .uploads)])
    func nightlyStoresTheSameForEveryJobCount(seed: UInt64, layout: SampleConfiguration.Layout) throws {
        let input = try Self.sample(seed: seed, layout: layout, copyFirstUpload: true)
        defer { try? FileManager.default.removeItem(at: input) }
        let reference = try Self.nightlyStore(input, jobs: 1)
        #expect(reference["night 1 stderr"]?.contains("already counted as") == true, "the copy is found counted")
        // CSV lines end in "\r\n", one `Character`: count the bytes.
        #expect(reference["violations"]?.utf8.count(where: { $0 == UInt8(ascii: "\n") }) ?? 0 > 10)
        for (jobs, environment) in Self.variants {
            let outputs = try Self.nightlyStore(input, jobs: jobs, environment: environment)
            for (name, text) in reference {
                #expect(outputs[name] == text, "\(name) differs with --jobs \(jobs) \(environment) (\(layout), seed \(seed))")
            }
        }
    }

    /// `--strict` stops at the first input that skipped something: the threads reading ahead are
    /// stopped, the run ends with status 1 having said the same, and nothing hangs.
    @Test func strictStopsTheSameWayForEveryJobCount() throws {
        let input = try Self.sample(seed: 61, layout: .time)
        defer { try? FileManager.default.removeItem(at: input) }
        var reference: HigAuditBinary.Result?
        for (jobs, environment) in [(1, [:])] + Self.variants {
            let result = try HigAuditBinary.run(["analyze", input.path, "--strict", "--jobs", "\(jobs)"], environment: environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains("--strict makes that fatal"))
            if let reference {
                #expect(result.stderr == reference.stderr, "--jobs \(jobs) \(environment)")
            } else {
                reference = result
            }
        }
    }
}
