import Foundation
import Testing

/// Pipelines/spark/hig_audit_spark.py on Spark `local[2,3]` (two cores, a failed task tried up to three
/// times) over generated logs with noise in the per-device, per-upload and time-first layouts, and in
/// files that mix every device uploading in a ten-minute slot: every table of the merged store equals
/// one `analyze` over the same files, byte for byte, also when a shard's first attempt is killed
/// mid-run. Files of one device are decompressed by one shard only.
@Suite(.serialized) struct SparkJobTests {
    static let packageRoot = KillRecoveryTests.packageRoot
    static let job = packageRoot.appendingPathComponent("Pipelines/spark/hig_audit_spark.py").path

    /// CI installs Java and PySpark (`.ci/run`): there a missing one is a failure, not a skip.
    static let mustRun = ProcessInfo.processInfo.environment["CI"] != nil
    static let sparkReady: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/java") else { return false }
        return (try? run("/usr/bin/env", ["python3", "-c", "import pyspark"]).status) == 0
    }()

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Every CSV file in `directory`, by name.
    static func csvFiles(_ directory: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".csv") {
            files[name] = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        }
        return files
    }

    /// The logs of a time-first layout, with the uploads of each ten-minute slot concatenated into one
    /// file (zstd frames concatenate): files that mix devices, each device's uploads still in order.
    static func mixDevices(from source: String, into target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let files = (FileManager.default.enumerator(atPath: source)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".zst") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var slots: [String: Data] = [:]
        var order: [String] = []
        for file in files {
            let slot = (file as NSString).deletingLastPathComponent
            if slots[slot] == nil { order.append(slot) }
            slots[slot, default: Data()].append(try Data(contentsOf: URL(fileURLWithPath: source + "/" + file)))
        }
        for (index, slot) in order.enumerated() {
            try slots[slot]!.write(to: URL(fileURLWithPath: target + String(format: "/slot-%04d.ndjson.zst", index)))
        }
    }

    /// One job over all four layouts (one Spark start; seeds differ, so the layouts are different logs),
    /// with shard 1's first attempt killed mid-run.
    @Test(.enabled(if: sparkReady || mustRun, "Java or PySpark missing: apt-get install default-jre-headless; pip install 'pyspark==4.*'"))
    func mergedStoreOfTheSparkJobEqualsOneAnalyze() throws {
        guard Self.sparkReady else {
            Issue.record("Java or PySpark is not installed; .ci/run installs default-jre-headless and pyspark")
            return
        }
        guard let executable = KillRecoveryTests.executable else {
            Issue.record("the hig-audit executable was not found under .build; build with `swift build --build-tests` first")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.path
        for (index, layout) in ["device", "uploads", "time"].enumerated() {
            let status = try Self.run(executable, [
                "sample", "--quiet", "--out", "\(root)/logs/\(layout)", "--layout", layout, "--sessions", "60",
                "--seed", String(31 + index), "--offline-devices", "0.2",
            ]).status
            #expect(status == 0)
        }
        try Self.run(executable, [
            "sample", "--quiet", "--out", "\(root)/time-4", "--layout", "time", "--sessions", "60", "--seed", "34",
        ])
        try Self.mixDevices(from: "\(root)/time-4", into: "\(root)/logs/mixed")
        let input = "\(root)/logs"
        let store = "\(root)/merged.sqlite"
        let report = "\(root)/report.json"

        let job = try Self.run("/usr/bin/env", [
            "python3", Self.job, "--master", "local[2,3]", "--hig-audit", executable, "--ship", "--shards", "3",
            "--store", store, "--report", report, "--simulate-kill-shard", "1", input,
        ])
        // 3: the noise's malformed lines were skipped (and counted), as analyze says too.
        #expect(job.status == 3, "\(job.errors.suffix(3000))")
        let analyzed = "\(root)/analyze"
        #expect(try Self.run(executable, ["analyze", "--quiet", "--out", analyzed, input]).status == 3)
        let exported = "\(root)/export"
        #expect(try Self.run(executable, ["export", "--store", store, "--out", exported]).status == 0)

        let expected = try Self.csvFiles(analyzed)
        var actual = try Self.csvFiles(exported)
        // The store's ingest table adds the sessions left open for a next run: none here.
        let ingest = actual["ingest.csv"] ?? ""
        #expect(ingest.hasSuffix(",0\r\n"))
        actual["ingest.csv"] = ingest.components(separatedBy: "\r\n")
            .map { $0.isEmpty ? $0 : String($0[..<($0.lastIndex(of: ",") ?? $0.endIndex)]) }.joined(separator: "\r\n")
        #expect(expected.count == 8)
        #expect(Set(actual.keys) == Set(expected.keys))
        for (name, text) in expected { #expect(actual[name] == text, "\(name)") }

        struct Report: Decodable {
            struct Result: Decodable { var shard: Int, status: Int, attempt: Int }
            var files: [String]
            var reads: [String: [Int]]
            var counted_by: [Int]
            var results: [Result]
        }
        let plan = try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: report)))
        var readers = Array(repeating: 0, count: plan.files.count)
        for files in plan.reads.values { for index in files { readers[index] += 1 } }
        for (index, file) in plan.files.enumerated() {
            #expect(readers[index] >= 1)
            #expect(plan.reads[String(plan.counted_by[index])]?.contains(index) == true)
            // A file of one device (per-device, per-upload, time-first layouts) is decompressed by one shard.
            if !file.contains("/logs/mixed/") { #expect(readers[index] == 1, "\(file)") }
        }
        #expect(plan.files.contains { $0.contains("/logs/mixed/") && readers[plan.files.firstIndex(of: $0)!] > 1 })
        #expect(plan.results.map(\.shard) == [0, 1, 2])
        #expect(plan.results.first { $0.shard == 1 }?.attempt == 1, "the killed attempt was retried")
        #expect(plan.results.filter { $0.shard != 1 }.allSatisfy { $0.attempt == 0 })
        // The job's own folder beside the store is gone; nothing else was made there but the store's
        // lock file, which stays as `merge` and the nightly wrapper leave it.
        let left = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("merged.sqlite.") }
        #expect(left == ["merged.sqlite.lock"], "\(left)")
    }

    /// `--work-dir` may name any folder, even the uploads themselves: the job works in a new folder of its
    /// own inside it and removes only that, so every file that was there stays, byte for byte.
    @Test(.enabled(if: sparkReady || mustRun, "Java or PySpark missing: apt-get install default-jre-headless; pip install 'pyspark==4.*'"))
    func aWorkDirHoldingTheInputsKeepsEveryInput() throws {
        guard Self.sparkReady, let executable = KillRecoveryTests.executable else {
            Issue.record("Java, PySpark or the built hig-audit executable is missing")
            return
        }
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uploads = directory.appendingPathComponent("uploads").path
        #expect(try Self.run(executable, ["sample", "--quiet", "--out", uploads, "--sessions", "20", "--seed", "5"]).status == 0)
        // Upload names with a line break and a tab (issue 45.4): the job's file lists carry them whole.
        for (index, name) in ["night\nupload.ndjson", "tab\there.ndjson"].enumerated() {
            try Data(#"{"ts":1795197600000,"session":"odd-\#(index)","type":"session.start","device":"odd"}"#.utf8 + [0x0A])
                .write(to: URL(fileURLWithPath: uploads + "/" + name))
        }
        func contents() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for case let name as String in FileManager.default.enumerator(atPath: uploads)?.allObjects ?? [] {
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: uploads + "/" + name, isDirectory: &isFolder)
                files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: uploads + "/" + name))
            }
            return files
        }
        let before = try contents()
        #expect(before.keys.contains { $0.hasSuffix(".zst") })
        let store = directory.appendingPathComponent("results.sqlite").path
        let job = try Self.run("/usr/bin/env", [
            "python3", Self.job, "--master", "local[2]", "--hig-audit", executable, "--shards", "2",
            "--work-dir", uploads, "--store", store, uploads,
        ])
        #expect(job.status == 0 || job.status == 3, "\(job.errors.suffix(3000))")
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(try contents() == before)
        // Every file was read: the merged store's tables are one analyze's.
        let exported = directory.appendingPathComponent("export").path
        #expect(try Self.run(executable, ["export", "--store", store, "--out", exported]).status == 0)
        let analyzed = directory.appendingPathComponent("analyze").path
        _ = try Self.run(executable, ["analyze", "--quiet", "--out", analyzed, uploads])
        let expected = try Self.csvFiles(analyzed), actual = try Self.csvFiles(exported)
        for name in ["summary.csv", "violations.csv", "by_screen.csv"] { #expect(actual[name] == expected[name], "\(name)") }
        #expect(actual["violations.csv"]?.isEmpty == false)
    }

    /// The job renamed its merged store over `--store` without `STORE.lock`: a `merge` into the same
    /// store, between reading it and renaming its result, put the old store back over the job's. Now the
    /// rename waits for the lock, says so, and happens once the lock is free.
    @Test func theMergedStoreReplacesTheStoreOnlyUnderItsLock() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("results.sqlite").path, merged = store + ".merge-1"
        try Data("old".utf8).write(to: URL(fileURLWithPath: store))
        try Data("new".utf8).write(to: URL(fileURLWithPath: merged))
        let lock = open(store + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys; sys.path.insert(0, sys.argv[1]); import hig_audit_spark as job; job.replace_store(sys.argv[2], sys.argv[3])",
            (Self.job as NSString).deletingLastPathComponent, merged, store,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var said = ""
        while !said.contains("waiting for") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        #expect(said.contains("hig-audit-spark: waiting for \(store).lock"), "\(said)")
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "old", "replaced while the lock was held")

        flock(lock, LOCK_UN)
        close(lock)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "new")
        #expect(!FileManager.default.fileExists(atPath: merged))
    }

    /// A mistake in an output is found before Spark starts, not after the shards have run.
    @Test func outputsThatCannotBeWrittenAreRefusedBeforeAnyWork() throws {
        let directory = try LogFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.path
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: root + "/a-file"))
        let cases: [(arguments: [String], message: String)] = [
            (["--store", root], "--store \(root) is a folder"),
            (["--store", root + "/no/such/folder/results.sqlite"], "does not exist"),
            (["--store", root + "/results.sqlite", "--report", root], "--report \(root) is a folder"),
            (["--store", root + "/results.sqlite", "--work-dir", root + "/a-file"], "is not a folder"),
        ]
        for (arguments, message) in cases {
            // No Spark is needed to refuse: the job stops before it imports PySpark.
            let job = try Self.run("/usr/bin/env", ["python3", Self.job, "--hig-audit", "/nonexistent"] + arguments + [root])
            #expect(job.status == 2, "\(arguments): \(job.errors)")
            #expect(job.errors.contains(message), "\(arguments): \(job.errors)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["a-file"])
    }
}
