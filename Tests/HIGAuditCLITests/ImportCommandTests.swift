import Foundation
import Testing
@testable import HIGAuditCLI
import HIGAuditIO

/// `import` and `--from` (SPEC §7) on fixtures written by hand from the public schemas: posthog-ios's
/// event properties, Datadog's `rum-events-format` and OTLP/JSON logs requests. Each fixture holds every
/// automatic event of its format, `hig.*` events, a duplicate or a session split, and events of names
/// that map to nothing; its `.expected.ndjson` is what `import` must write.
@Suite struct ImportCommandTests {
    static let directory = "Tests/HIGAuditCLITests/Fixtures/import"
    static let config = "\(directory)/import.yml"
    static let formats = ["posthog", "datadog-rum", "otlp"]

    static func fixture(_ name: String) -> String { "\(directory)/\(name)" }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: HigAuditBinary.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    private func imported(_ format: String, _ inputs: [String], extra: [String] = []) throws -> (HigAuditBinary.Result, String) {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.ndjson").path
        let result = try HigAuditBinary.run(["import", "--from", format, "--config", Self.config] + extra + inputs + ["-o", output])
        let written = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (result, written)
    }

    @Test(arguments: formats)
    func importWritesTheDocumentedMapping(format: String) throws {
        let (result, written) = try imported(format, [Self.fixture("\(format).jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(written == (try Self.read(Self.fixture("\(format).expected.ndjson"))))
    }

    /// Events of names that map to nothing are counted under their own names, never malformed.
    @Test func unknownNamesAreCountedUnderTheirNames() throws {
        let expectations: [String: [String]] = [
            "posthog": ["$pageview,1", "$autocapture:value_changed,1"],
            "datadog-rum": ["action.scroll,1", "resource,1", "vital.app_launch.prewarmed,1", "vital.app_launch.ttfd,1"],
            "otlp": ["device.app.lifecycle:inactive,1", "http.client.request,1"],
        ]
        for (format, rows) in expectations {
            let result = try HigAuditBinary.run([
                "analyze", "--from", format, "--config", Self.config, Self.fixture("\(format).jsonl"),
                "--table", "unknown_types", "--format", "csv",
            ])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let lines = result.stdout.split(separator: "\r\n").map(String.init)
            #expect(lines == ["type,events"] + rows.sorted(), "\(format)")
        }
    }

    /// SPEC §7: results on imported data equal those on the NDJSON `import` writes (sources aside).
    @Test(arguments: formats)
    func analyzeFromEqualsImportThenAnalyze(format: String) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("imported.ndjson.zst").path
        let importing = try HigAuditBinary.run(["import", "--from", format, "--config", Self.config, Self.fixture("\(format).jsonl"), "-o", output])
        #expect(importing.status == 0, "\(importing.stderr)")
        for table in ["summary", "violations", "by_screen", "by_version", "haptics"] {
            let direct = try HigAuditBinary.run([
                "analyze", "--from", format, "--config", Self.config, Self.fixture("\(format).jsonl"), "--table", table, "--format", "csv",
            ])
            let viaImport = try HigAuditBinary.run(["analyze", "--config", Self.config, output, "--table", table, "--format", "csv"])
            #expect(direct.status == viaImport.status)
            #expect(Self.withoutSources(direct.stdout) == Self.withoutSources(viaImport.stdout), "\(format) \(table)")
        }
    }

    /// The last CSV column of `violations` names the source line; the rest must be equal.
    static func withoutSources(_ csv: String) -> [String] {
        // A detail may name another event's source (`double-tap at FILE:LINE`), which differs too.
        let csv = csv.replacing(/at [^ )]+:[0-9]+(#[0-9]+)?\)/) { _ in "at SOURCE)" }
        return csv.split(separator: "\r\n").map { row in
            guard row.hasPrefix("rule,") == false, row.contains(".jsonl:") || row.contains(".zst:") || row.contains(".ndjson:") else {
                return String(row)
            }
            return String(row[..<row.lastIndex(of: ",")!])
        }
    }

    /// Each kind of bad line, per format: counted and reported at file:line (file:line#record for OTLP).
    @Test func malformedCatalogues() throws {
        let expectations: [String: (count: Int, places: [String])] = [
            "posthog": (16, [
                ":2: ", ":3: the line is not a JSON object", ":4: missing event", ":5: event is not a string",
                ":6: missing timestamp", ":7: timestamp is not an RFC 3339 time", ":8: missing properties.$session_id",
                ":9: properties.$session_id is not a string", ":10: properties is not an object",
                ":11: properties.$device_id is not a string", ":12: ", ":13: ",
                ":14: properties.$touch_x is not a finite number", ":15: missing properties.$screen_name",
                ":17: ", ":18: ",
            ]),
            "datadog-rum": (10, [
                ":2: missing type", ":3: date is not an integer of milliseconds", ":4: date is not an integer of milliseconds",
                ":5: missing session.id", ":6: missing view.name", ":7: missing action.target.name",
                ":8: vital.duration is not a finite number", ":9: ", ":11: context is not an object",
                ":12: the events-API item holds no RUM event",
            ]),
            // Line 9's lists are null, which OTLP/JSON reads as empty: no record, nothing malformed.
            "otlp": (14, [
                ":1#2: missing eventName", ":1#3: eventName and the attribute event.name differ",
                ":1#5: timeUnixNano is not an integer of nanoseconds", ":1#6: missing the attribute session.id",
                ":1#7: the attribute duration_ms is not a finite number", ":1#8: the attribute screen.name is not a string",
                ":2: missing resourceLogs", ":3: resourceLogs is not an array", ":4: ",
                ":5: scopeLogs is not an array", ":6: logRecords is not an array",
                ":7: element 1 of resourceLogs is not an object", ":8: element 1 of scopeLogs is not an object",
            ]),
        ]
        for (format, expected) in expectations {
            let file = Self.fixture("\(format)-malformed.jsonl")
            let result = try HigAuditBinary.run([
                "analyze", "--from", format, file, "--table", "ingest", "--format", "csv",
            ])
            #expect(result.status == 3, "\(format): \(result.stderr)")
            for place in expected.places {
                let parts = place.split(separator: " ", maxSplits: 1)
                let said = file + parts[0] + " malformed line: " + (parts.count > 1 ? parts[1] : "")
                #expect(result.stderr.contains(said), "\(format): \(said)\n\(result.stderr)")
            }
            let counted = try HigAuditBinary.run(["analyze", "--from", format, file, "--table", "ingest", "--format", "json"])
            #expect(counted.stdout.contains("\"malformed_lines\":\(expected.count)") || counted.stdout.contains("\"malformed_lines\": \(expected.count)"),
                    "\(format): \(counted.stdout)")
        }
    }

    /// A tap's `x` and `y` are each optional (SPEC §2): one coordinate alone is kept, and a mistyped
    /// one alone is malformed.
    @Test func aTapWithOneCoordinateKeepsIt() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("taps.jsonl")
        func tap(_ uuid: String, _ coordinates: String) -> String {
            #"{"uuid":"\#(uuid)","event":"$autocapture","timestamp":"2026-11-20T10:00:00Z","properties":{"$session_id":"S1","$device_id":"d1","$event_type":"touch","$elements":[{"tag_name":"UIButton","text":"Delete"}]\#(coordinates)}}"#
        }
        try [tap("t1", #","$touch_x":12"#), tap("t2", #","$touch_y":4.5"#), tap("t3", #","$touch_x":"12""#)]
            .joined(separator: "\n").appending("\n").write(to: export, atomically: true, encoding: .utf8)
        let (result, written) = try imported("posthog", [export.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("taps.jsonl:3: malformed line: properties.$touch_x is not a number"), "\(result.stderr)")
        let touches = written.split(separator: "\n").filter { $0.contains("\"type\":\"touch\"") }
        #expect(touches.count == 2, "\(written)")
        #expect(touches.first?.contains("\"x\":12") == true && touches.first?.contains("\"y\"") == false, "\(touches)")
        #expect(touches.last?.contains("\"y\":4.5") == true && touches.last?.contains("\"x\"") == false, "\(touches)")
    }

    /// The OTLP record whose time is 0 or absent is dated by `observedTimeUnixNano`.
    @Test func otlpFallsBackToTheObservedTime() throws {
        let (result, written) = try imported("otlp", [Self.fixture("otlp.jsonl")])
        #expect(result.status == 0)
        #expect(written.contains("{\"ts\":1795168806000,\"session\":\"otel-session-0001\",\"type\":\"widget.display\""))
    }

    /// A second launch in one SDK session starts `<id>#2`; a retried launch (same event id) does not.
    @Test func sessionsSplitAtEachLaunchAfterTheFirst() throws {
        let (_, written) = try imported("posthog", [Self.fixture("posthog.jsonl")])
        let starts = written.split(separator: "\n").filter { $0.contains("\"type\":\"session.start\"") }
        #expect(starts.count == 4, "\(starts)")
        #expect(written.contains("\"session\":\"0193a1ef-ffff-7000-8000-00000000a001#2\",\"type\":\"session.start\""))
        #expect(!written.contains("#3"))
        let (_, otlp) = try imported("otlp", [Self.fixture("otlp.jsonl")])
        #expect(otlp.contains("\"session\":\"otel-session-0001#2\",\"type\":\"rating.prompt\""))
    }

    /// Exports come compressed: gzip (several members too) and zstd read as the plain file does.
    @Test func gzipAndZstdInputsReadAsPlain() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = HigAuditBinary.packageRoot.appendingPathComponent(Self.fixture("posthog.jsonl")).path
        let head = directory.appendingPathComponent("head.jsonl").path
        let tail = directory.appendingPathComponent("tail.jsonl").path
        let gzip = directory.appendingPathComponent("export.jsonl.gz").path
        let zstd = directory.appendingPathComponent("export.jsonl.zst").path
        _ = try HigAuditBinary.shell(["sh", "-c", "head -n 7 '\(plain)' > '\(head)' && tail -n +8 '\(plain)' > '\(tail)'"])
        _ = try HigAuditBinary.shell(["sh", "-c", "(gzip -c '\(head)'; gzip -c '\(tail)') > '\(gzip)' && zstd -q -c '\(plain)' > '\(zstd)'"])
        let (_, expected) = try imported("posthog", [Self.fixture("posthog.jsonl")])
        for input in [gzip, zstd] {
            let (result, written) = try imported("posthog", [input])
            #expect(result.status == 0, "\(input): \(result.stderr)")
            #expect(written == expected, "\(input)")
        }
        // A directory of exports takes .gz files.
        let folder = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: gzip, toPath: folder.appendingPathComponent("day-1.jsonl.gz").path)
        let (result, written) = try imported("posthog", [folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(written == expected)
    }

    /// A directory of exports reads none of its `.json` files (a manifest is as likely as an export)
    /// but names them in a note, so that an export saved as `.json` is never left out without a word;
    /// the note changes no exit status and `--quiet` silences it.
    @Test func aDirectorysJSONFilesAreNamedNotRead() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = HigAuditBinary.packageRoot.appendingPathComponent(Self.fixture("posthog.jsonl")).path
        let folder = directory.appendingPathComponent("exports").path
        _ = try HigAuditBinary.shell(["sh", "-c", """
            mkdir -p '\(folder)/later' && cp '\(plain)' '\(folder)/day-1.jsonl' && cp '\(plain)' '\(folder)/page-1.json' \
            && cp '\(plain)' '\(folder)/later/page-2.json'
            """])
        let (result, written) = try imported("posthog", [folder])
        let (_, expected) = try imported("posthog", [Self.fixture("posthog.jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(written == expected)
        #expect(result.stderr.contains(
            "hig-audit: note: \(folder): 2 .json files not read (a directory's exports are its .zst, .ndjson, .jsonl and .gz "
                + "files): \(folder)/later/page-2.json, \(folder)/page-1.json; name a .json file as an input to read it\n"),
            "\(result.stderr)")
        let (quiet, _) = try imported("posthog", [folder], extra: ["--quiet"])
        #expect(quiet.status == 0)
        #expect(!quiet.stderr.contains("note:"), "\(quiet.stderr)")
        // Named, a `.json` file is read.
        let (named, both) = try imported("posthog", [folder + "/day-1.jsonl", folder + "/page-1.json"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(both.count > expected.count)
        let analysed = try HigAuditBinary.run(["analyze", "--from", "posthog", folder, "--table", "summary", "--format", "csv"])
        #expect(analysed.stderr.contains("2 .json files not read"), "\(analysed.stderr)")
    }

    /// Past three files the note counts the rest rather than naming them.
    @Test func theNoteNamesThreeFilesAndCountsTheRest() {
        let paths = (1...5).map { "rum/page-\($0).json" }
        let note = ResolvedInputs.note(InputResolver.PassedOver(directory: "rum", paths: paths))
        #expect(note == "hig-audit: note: rum: 5 .json files not read (a directory's exports are its .zst, .ndjson, .jsonl "
            + "and .gz files): rum/page-1.json, rum/page-2.json, rum/page-3.json and 2 more; name a .json file as an input "
            + "to read it\n")
        #expect(ResolvedInputs.note(InputResolver.PassedOver(directory: "rum", paths: ["rum/a.json"])).contains(": 1 .json file not read"))
    }

    /// A gzip export cut off in the middle (an upload in progress) is a truncated file: its complete
    /// lines are kept; a corrupt member is skipped and said with its offset.
    @Test func truncatedAndCorruptGzip() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = HigAuditBinary.packageRoot.appendingPathComponent(Self.fixture("posthog.jsonl")).path
        let whole = directory.appendingPathComponent("whole.gz").path
        let cut = directory.appendingPathComponent("cut.gz").path
        let corrupt = directory.appendingPathComponent("corrupt.gz").path
        _ = try HigAuditBinary.shell(["sh", "-c", """
            gzip -c '\(plain)' > '\(whole)' && size=$(wc -c < '\(whole)') && head -c $((size - 40)) '\(whole)' > '\(cut)' \
            && (head -c 30 '\(whole)'; printf 'garbage-garbage-garbage-garbage'; gzip -c '\(plain)') > '\(corrupt)'
            """])
        let truncated = try HigAuditBinary.run(["analyze", "--from", "posthog", cut, "--table", "ingest", "--format", "csv"])
        #expect(truncated.status == 3)
        #expect(truncated.stderr.contains("\(cut)@0: truncated file: gzip member 1 is cut off"), "\(truncated.stderr)")
        let counters = truncated.stdout.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let truncatedFiles = counters[0].firstIndex(of: "truncated_files")!
        #expect(counters[1][truncatedFiles] == "1")
        let damaged = try HigAuditBinary.run(["analyze", "--from", "posthog", corrupt, "--table", "summary", "--format", "csv"])
        #expect(damaged.status == 3)
        #expect(damaged.stderr.contains("\(corrupt)@0: corrupt frame: gzip member 1:"), "\(damaged.stderr)")
        // The member after the damage is read whole: the same sessions as the plain file.
        let clean = try HigAuditBinary.run(["analyze", "--from", "posthog", plain, "--table", "summary", "--format", "csv"])
        #expect(damaged.stdout == clean.stdout)
    }

    /// Zero bytes after the last member (block padding) are skipped input, said once where they begin.
    @Test func zeroPaddingAfterGzipIsSaidWhereItBegins() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = HigAuditBinary.packageRoot.appendingPathComponent(Self.fixture("posthog.jsonl")).path
        let padded = directory.appendingPathComponent("padded.gz").path
        _ = try HigAuditBinary.shell(["sh", "-c", "(gzip -c '\(plain)'; head -c 300000 /dev/zero) > '\(padded)'"])
        let size = try HigAuditBinary.shell(["sh", "-c", "gzip -c '\(plain)' | wc -c"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try HigAuditBinary.run(["analyze", "--from", "posthog", padded, "--table", "summary", "--format", "csv"])
        #expect(result.status == 3)
        let said = result.stderr.components(separatedBy: "zero bytes after gzip member 1 (padding, not a member); skipped")
        #expect(said.count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(padded)@\(size): "), "\(result.stderr)")
        let clean = try HigAuditBinary.run(["analyze", "--from", "posthog", plain, "--table", "summary", "--format", "csv"])
        #expect(result.stdout == clean.stdout)
    }

    /// Without --from, gzip stays a format hig-audit's own logs are not read in.
    @Test func gzipIsReadOnlyForExports() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gzip = directory.appendingPathComponent("log.ndjson.gz").path
        _ = try HigAuditBinary.shell(["sh", "-c", "gzip -c '\(Self.fixture("posthog.expected.ndjson"))' > '\(gzip)'"])
        let result = try HigAuditBinary.run(["analyze", gzip, "--table", "ingest"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("starts like gzip data, which hig-audit does not read"), "\(result.stderr)")
        let imported = try HigAuditBinary.run(["analyze", "--from", "posthog", gzip, "--table", "ingest"])
        #expect(imported.stderr.contains("gzip data") == false)
    }

    @Test func importSettingsAreValidatedWithTheirPlace() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("bad.yml").path
        try "import:\n  tab_roots: [Library]\n  touches: maybe\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try HigAuditBinary.run(["analyze", "--from", "posthog", "--config", config, Self.fixture("posthog.jsonl")])
        #expect(result.status == 64 || result.status == 1)
        #expect(result.stderr.contains("\(config):3:12"), "\(result.stderr)")
        #expect(result.stderr.contains("import.touches"))
        try "import:\n  tab_root: [Library]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let typo = try HigAuditBinary.run(["analyze", "--from", "posthog", "--config", config, Self.fixture("posthog.jsonl")])
        #expect(typo.stderr.contains("\(config):2:3"), "\(typo.stderr)")
    }

    /// `import.touches` overrides the format's coverage on the starts an importer writes.
    @Test func importTouchesOverridesTheCoverage() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("all.yml").path
        try "import:\n  touches: all\n".write(toFile: config, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out.ndjson").path
        let result = try HigAuditBinary.run(["import", "--from", "posthog", "--config", config, Self.fixture("posthog.jsonl"), "-o", output])
        #expect(result.status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!written.contains("\"touches\":\"sampled\""))
        #expect(written.contains("\"touches\":\"all\",\"synthetic\":true"))
    }

    /// `nightly --from` stores the violations `analyze --from` finds (the store keeps `PATH:LINE`:
    /// an OTLP record's `#K` is not a column of it).
    @Test(arguments: formats)
    func nightlyFromStoresWhatAnalyzeFromFinds(format: String) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("results.sqlite").path
        let input = Self.fixture("\(format).jsonl")
        let nightly = try HigAuditBinary.run(["nightly", "--from", format, "--config", Self.config, "--store", store, "--close-open", "--quiet", input])
        #expect(nightly.status == 0, "\(nightly.stderr)")
        let stored = try HigAuditBinary.run(["query", "--store", store, "--table", "summary", "--format", "csv"])
        let direct = try HigAuditBinary.run(["analyze", "--from", format, "--config", Self.config, input, "--table", "summary", "--format", "csv"])
        // Rule, severity, violations, sessions affected: the store's sessions_not_judged is not this
        // change's (the store does not keep touch coverage yet).
        func counts(_ csv: String) -> [String] { csv.split(separator: "\r\n").map { $0.split(separator: ",").prefix(4).joined(separator: ",") } }
        #expect(counts(stored.stdout) == counts(direct.stdout), "\(format)")
    }

    /// Issue 47's test: a corpus re-encoded into each format under the convention (`sample --format`)
    /// gives, through `analyze --from` and through `import` then `analyze`, the violations of the
    /// NDJSON it came from (sources aside).
    @Test(arguments: formats)
    func sampleCorpusRoundTrips(format: String) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        for (out, extra) in [("native", [String]()), ("export", ["--format", format])] {
            let made = try HigAuditBinary.run(["sample", "--out", path(out), "--sessions", "80", "--seed", "47", "--no-noise", "--quiet"] + extra)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let imported = try HigAuditBinary.run(["import", "--from", format, path("export"), "-o", path("imported.ndjson.zst"), "--quiet"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Each reading once: `--out` writes every table as `--table T --format csv` prints it.
        for (out, reading) in [
            ("native-tables", [path("native")]), ("direct-tables", ["--from", format, path("export")]),
            ("imported-tables", [path("imported.ndjson.zst")]),
        ] {
            let result = try HigAuditBinary.run(["analyze"] + reading + ["--out", path(out), "--quiet"])
            #expect(result.status == 0, "\(format) \(out): \(result.stderr)")
        }
        for table in ["summary", "violations", "by_screen", "by_version", "haptics"] {
            func csv(_ out: String) throws -> [String] {
                Self.withoutSources(try String(contentsOfFile: path("\(out)/\(table).csv"), encoding: .utf8))
            }
            let native = try csv("native-tables")
            #expect(native.count > 1, "\(table): no rows to compare")
            #expect(try csv("direct-tables") == native, "\(format) \(table)")
            #expect(try csv("imported-tables") == native, "\(format) \(table)")
        }
    }

    /// `--jobs` changes nothing in what `--from` writes, sources and diagnostics included: an export
    /// read on a reader thread (whole, or in two stages: `HIG_AUDIT_TWO_STAGE_BYTES=0`) gives every
    /// table one thread gives.
    @Test(arguments: formats)
    func readingThreadsChangeNoOutput(format: String) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let made = try HigAuditBinary.run(["sample", "--out", path("export"), "--sessions", "40", "--seed", "48", "--no-noise", "--format", format, "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        // A damaged line among the export's, reported at its place whatever reads it.
        let damaged = path("export/damaged.jsonl")
        try Data("{\"broken\":\n".utf8).write(to: URL(fileURLWithPath: damaged))
        func tables(_ name: String, jobs: String, environment: [String: String] = [:]) throws -> [String: String] {
            let result = try HigAuditBinary.run(
                ["analyze", "--from", format, path("export"), "--jobs", jobs, "--out", path(name)], environment: environment)
            #expect(result.status == 3, "\(format) --jobs \(jobs): \(result.stderr)")
            var written = ["standard error": result.stderr]
            for file in try FileManager.default.contentsOfDirectory(atPath: path(name)) {
                written[file] = try String(contentsOfFile: path("\(name)/\(file)"), encoding: .utf8)
            }
            return written
        }
        let one = try tables("one", jobs: "1")
        #expect(one.count > 3 && one["standard error"]?.contains("damaged.jsonl:1") == true, "\(one["standard error"] ?? "")")
        #expect(try tables("two", jobs: "2") == one, "\(format)")
        #expect(try tables("staged", jobs: "2", environment: ["HIG_AUDIT_TWO_STAGE_BYTES": "0"]) == one, "\(format)")
    }

    @Test func importNeedsAFormat() throws {
        let result = try HigAuditBinary.run(["import", Self.fixture("posthog.jsonl"), "-o", "/tmp/never.ndjson"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--from"))
    }
}
