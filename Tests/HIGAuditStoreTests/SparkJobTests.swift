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
        for layout in ["device", "uploads", "time"] {
            let status = try Self.run(executable, [
                "sample", "--quiet", "--out", "\(root)/\(layout)", "--layout", layout, "--sessions", "80",
                "--seed", "31", "--offline-devices", "0.2",
            ]).status
            #expect(status == 0)
        }
        try Self.mixDevices(from: "\(root)/time", into: "\(root)/mixed")

        // (layout, shard whose first attempt is killed)
        for (layout, killed) in [("device", nil), ("uploads", 1), ("time", nil), ("mixed", 2)] as [(String, Int?)] {
            let input = "\(root)/\(layout)"
            let store = "\(root)/\(layout).sqlite"
            var arguments = [
                Self.job, "--master", "local[2,3]", "--hig-audit", executable, "--ship", "--shards", "3",
                "--store", store, input,
            ]
            if let killed { arguments += ["--simulate-kill-shard", String(killed)] }
            let job = try Self.run("/usr/bin/env", ["python3"] + arguments)
            // 3: the noise's malformed lines were skipped (and counted), as analyze says too.
            #expect(job.status == 3, "\(layout): \(job.errors.suffix(3000))")
            let analyzed = "\(root)/\(layout)-analyze"
            #expect(try Self.run(executable, ["analyze", "--quiet", "--out", analyzed, input]).status == 3)
            let exported = "\(root)/\(layout)-export"
            #expect(try Self.run(executable, ["export", "--store", store, "--out", exported]).status == 0)

            let expected = try Self.csvFiles(analyzed)
            var actual = try Self.csvFiles(exported)
            // The store's ingest table adds the sessions left open for a next run: none here.
            let ingest = actual["ingest.csv"] ?? ""
            #expect(ingest.hasPrefix(expected["ingest.csv"]?.components(separatedBy: "\r\n")[0] ?? "?"))
            #expect(ingest.hasSuffix(",0\r\n"))
            actual["ingest.csv"] = ingest.components(separatedBy: "\r\n")
                .map { $0.isEmpty ? $0 : String($0[..<($0.lastIndex(of: ",") ?? $0.endIndex)]) }.joined(separator: "\r\n")
            #expect(expected.count == 8)
            #expect(Set(actual.keys) == Set(expected.keys))
            for (name, text) in expected { #expect(actual[name] == text, "\(layout): \(name)") }

            let summary = job.errors.split(separator: "\n").first { $0.contains(" file reads by ") } ?? ""
            let numbers = summary.split(separator: " ").compactMap { Int($0) }
            #expect(numbers.count >= 2, "\(layout): \(summary)")
            if layout != "mixed", numbers.count >= 2 {
                // A file of one device is decompressed by its shard only.
                #expect(numbers[0] == numbers[1], "\(layout): \(summary)")
            }
            if let killed {
                #expect(job.errors.contains("shard \(killed)/3: status 3, attempt 1"), "\(layout): \(job.errors.suffix(2000))")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).allSatisfy { !$0.hasSuffix(".parts") })
        }
    }
}
