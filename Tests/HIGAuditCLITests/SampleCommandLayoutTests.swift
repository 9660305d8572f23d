import Foundation
import Testing

/// `hig-audit sample --layout` and `--offline-devices` as a user types them.
@Suite struct SampleCommandLayoutTests {
    static let small = ["--sessions", "24", "--devices", "4", "--seed", "8", "--session-length", "short", "--move-sampling-ms", "500"]

    /// Relative path → bytes of every log the command wrote below `directory`.
    static func logs(in directory: URL) throws -> [String: Data] {
        var logs: [String: Data] = [:]
        let prefix = directory.standardizedFileURL.path + "/"
        for case let url as URL in FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)!
        where url.pathExtension == "zst" {
            logs[String(url.standardizedFileURL.path.dropFirst(prefix.count))] = try Data(contentsOf: url)
        }
        return logs
    }

    static func sample(_ arguments: [String]) throws -> [String: Data] {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run(["sample", "--out", directory.path] + small + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try logs(in: directory)
    }

    @Test func hourDeviceIsTheOldNameOfTheDefaultTimeLayout() throws {
        let time = try Self.sample(["--layout", "time"])
        #expect(!time.isEmpty)
        #expect(try Self.sample(["--layout", "hour-device"]) == time)
        #expect(try Self.sample([]) == time)
        let pattern = try Regex(#"^\d{4}-\d{2}-\d{2}/\d{4}/ipad-000[1-4]\.ndjson\.zst$"#)
        #expect(time.keys.allSatisfy { $0.wholeMatch(of: pattern) != nil })
    }

    @Test func deviceLayoutWritesOneFilePerDevice() throws {
        let logs = try Self.sample(["--layout", "device"])
        #expect(logs.keys.sorted() == (1...4).map { "devices/ipad-000\($0).ndjson.zst" })
    }

    @Test func uploadsLayoutWithOfflineDevicesPutsHalfTheDevicesBelowLateUploads() throws {
        let time = try Self.sample(["--offline-devices", "0.5"])
        let late = time.keys.filter { $0.hasPrefix("late-uploads/") }
        #expect(Set(late.map { $0.split(separator: "/").last! }).count == 2, "\(late)")

        let uploads = try Self.sample(["--layout", "uploads", "--offline-devices", "0.5"])
        let pattern = try Regex(#"^(late-uploads/)?inbox/[0-9a-f]{32}\.ndjson\.zst$"#)
        #expect(uploads.keys.allSatisfy { $0.wholeMatch(of: pattern) != nil })
        #expect(uploads.count == time.count, "one file per upload in both")
        #expect(uploads.keys.filter { $0.hasPrefix("late-uploads/") }.count == late.count)
        #expect(Set(uploads.values) == Set(time.values), "the same uploads, byte for byte")
    }

    @Test(arguments: [["--layout", "sideways"], ["--offline-devices", "1.5"], ["--offline-devices", "-0.1"]])
    func badLayoutOrOfflineShareIsAUsageError(arguments: [String]) throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try HigAuditBinary.run(["sample", "--out", directory.path] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(arguments[0]))
    }

    @Test func helpExplainsEveryLayoutAndTheOfflineShare() throws {
        // Words as printed, whatever the terminal width wrapped.
        let help = try HigAuditBinary.run(["sample", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for text in ["--layout time", "--layout device", "--layout uploads", "device-hour", "hour-device", "late-uploads/", "--offline-devices"] {
            #expect(help.contains(text), "\(text)")
        }
    }
}
