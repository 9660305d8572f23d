import Foundation
import Testing

/// The easy mistakes around a results store: the store (or any SQLite file) named as a log, and a store
/// path that is missing, a folder, or not a store at all. Each is refused with the path and what it is,
/// never read as malformed lines or reported as SQLite's error codes or as a damaged store.
@Suite struct StorePathMistakeTests {
    private static let log = "SampleLogs/damaged/malformed-lines.ndjson"

    /// A store made by one nightly run in a new folder, and the folder.
    private static func store() throws -> (directory: URL, store: String) {
        let directory = try HigAuditBinary.temporaryDirectory()
        let store = directory.appendingPathComponent("results.sqlite").path
        let made = try HigAuditBinary.run(["nightly", "--store", store, "--close-open", log, "--quiet"])
        #expect(made.status == 3, "\(made.stderr)")
        return (directory, store)
    }

    @Test func nightlyRefusesItsOwnStoreAsAnInput() throws {
        let (_, store) = try Self.store()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try HigAuditBinary.run(["nightly", "--store", store, store, "--quiet"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("input \(store) is the store of this run (--store), not a log; nothing was read"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "no run was committed")
    }

    @Test func anySQLiteFileAsAnInputIsAUsageError() throws {
        let (directory, store) = try Self.store()
        let other = directory.appendingPathComponent("other.sqlite").path
        let commands: [[String]] = [
            ["nightly", "--store", other, Self.log, store],
            ["analyze", store],
            ["analyze", Self.log, store, "--out", directory.appendingPathComponent("tables").path],
            ["show", "--session", "s1", store],
        ]
        for command in commands {
            let result = try HigAuditBinary.run(command)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("input \(store) is an SQLite file and looks like a results store, not a log; nothing was read. "
                    + "Read a store with `hig-audit query --store \(store)`"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: other), "no store was made")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tables").path), "no --out was made")
    }

    @Test func aStorePathThatIsMissingAFolderOrNotAStoreSaysSo() throws {
        let (directory, store) = try Self.store()
        let missing = directory.appendingPathComponent("typo.sqlite").path
        let folder = directory.path
        let log = HigAuditBinary.packageRoot.appendingPathComponent(Self.log).path
        let out = directory.appendingPathComponent("out").path
        let readers: [(String) -> [String]] = [
            { ["query", "--store", $0] },
            { ["compare", "--store", $0, "--base", "5.1", "--head", "5.2"] },
            { ["export", "--store", $0, "--out", out] },
            { ["dashboard", "--store", $0, "--out", out] },
            { ["merge", "--store", store + ".merged", $0] },
        ]
        for reader in readers {
            for (path, said) in [(missing, "\(missing) does not exist"), (folder, "\(folder) is a folder, not a store"),
                                 (log, "\(log) is not a hig-audit store")] {
                let result = try HigAuditBinary.run(reader(path))
                #expect(result.status == 1, "\(reader(path)): \(result.stderr)")
                #expect(result.stderr.contains(said), "\(reader(path)): \(result.stderr)")
                #expect(!result.stderr.contains("SQLite error") && !result.stderr.contains("is damaged"), "\(result.stderr)")
            }
        }
        for (path, said) in [(folder, "\(folder) is a folder, not a store"), (log, "\(log) is not a hig-audit store"),
                             (directory.appendingPathComponent("nowhere/results.sqlite").path,
                              "the folder \(directory.path)/nowhere of the new store \(directory.path)/nowhere/results.sqlite does not exist")] {
            let result = try HigAuditBinary.run(["nightly", "--store", path, Self.log, "--quiet"])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains(said), "\(result.stderr)")
            #expect(!result.stderr.contains("SQLite error") && !result.stderr.contains("is damaged"), "\(result.stderr)")
        }
        // The store itself still reads.
        #expect(try HigAuditBinary.run(["query", "--store", store, "--format", "csv"]).status == 0)
    }

    /// A FIFO given as the store blocked every reader in SQLite's open (issue 45.8); nightly refused it
    /// already. Each command now says what it is, before opening it.
    @Test func aFifoAsTheStoreIsRefusedByEveryCommand() throws {
        let directory = try HigAuditBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("results.sqlite").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let commands: [[String]] = [
            ["query", "--store", fifo], ["export", "--store", fifo, "--out", directory.appendingPathComponent("x").path],
            ["dashboard", "--store", fifo, "--out", directory.appendingPathComponent("page").path],
            ["compare", "--store", fifo, "--base", "5.1", "--head", "5.2"],
            ["nightly", "--store", fifo, Self.log], ["merge", "--store", fifo, Self.log],
        ]
        for command in commands {
            let result = try HigAuditBinary.run(command)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(fifo) is a FIFO, not a store file"), "\(command): \(result.stderr)")
        }
    }
}
