import Foundation
import HIGAuditCore
import HIGAuditIO
import HIGAuditSample
import Testing

/// SPEC §2 (v2): "any reading order that keeps each device's uploads in order gives the same tables
/// (the `files` and `source` paths aside)". One noisy sample night over two days is read whole through
/// the real pipeline (reader, decoder, engine, rules, tables) in many orders: the time-first layout,
/// one file per device, one file per upload with random names, offline devices read last, random
/// interleavings of the devices' uploads, and a device's newer day read before its older one. Every
/// table must be the same as for the time-first directory, strictly: every violation with the same
/// session, times, count and detail, its source (and the source named in its detail) the same line of
/// the same upload; summary, by_version, by_screen and haptics byte for byte; ingest but for `files`;
/// and the same diagnostics at the same lines.
@Suite struct DeviceOrderIndependenceTests {
    /// A few hundred short, noisy sessions on 24 devices over two days, in ten-minute uploads.
    static func configuration(_ layout: SampleConfiguration.Layout, offline: Double = 0) -> SampleConfiguration {
        let noise = NoiseProfile.heavy
        return SampleConfiguration(
            size: .sessions(180), seed: 2_611, days: 2, devices: 24, noise: noise, layout: layout, fileMinutes: 10,
            moveSamplingMs: 250, sessionLength: .short, offlineDeviceFraction: offline)
    }

    /// A generated night on disk, with a layout-independent name for every line of every file.
    struct WrittenSample: Sendable {
        var directory: URL
        /// By path relative to `directory`.
        var files: [String: SampleLogFile]
        /// By path relative to `directory`, then line number − 1: the line's text and how many identical
        /// lines its device sent before it, so that an upload's line has the same name in every layout.
        var lineNames: [String: [String]]

        init(_ configuration: SampleConfiguration) throws {
            var memory = InMemorySampleLogSink()
            _ = try SampleGenerator(configuration: configuration).generate(into: &memory)
            directory = try HigAuditBinary.temporaryDirectory()
            var disk = try ZstdDirectorySink(directory: directory, level: 1)
            for file in memory.files { try disk.write(file) }
            files = Dictionary(uniqueKeysWithValues: memory.files.map { ($0.path, $0) })
            lineNames = [:]
            // A line is named by its text and how many identical lines its device sent before it, in
            // upload order, so that the name does not depend on how uploads are split into files.
            // Split as bytes: as a `String`, "\r\n" is one `Character` and would not split at "\n".
            for (_, deviceFiles) in uploadsByDevice {
                var seen: [String: Int] = [:]
                for file in deviceFiles {
                    lineNames[file.path] = file.contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { bytes in
                        let line = String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes, as: UTF8.self)
                        defer { seen[line, default: 0] += 1 }
                        return "«\(line)»#\(seen[line] ?? 0)"
                    }
                }
            }
        }

        /// The directory's files in the order `hig-audit analyze DIRECTORY` reads them.
        var directoryOrder: [SampleLogFile] {
            let (sources, problems) = InputResolver.resolve([directory.path])
            precondition(problems.isEmpty)
            let prefix = directory.path + "/"
            return sources.map { files[String($0.displayPath.dropFirst(prefix.count))]! }
        }

        /// Each device's files in upload order (directory order keeps it in every layout).
        var uploadsByDevice: [String: [SampleLogFile]] {
            Dictionary(grouping: directoryOrder, by: \.device)
        }
    }

    /// The tables of one reading, with every file location replaced by the line it names.
    struct Tables: Equatable {
        var violations: [String]
        var summary, byVersion, byScreen, haptics, ingest: String
        var diagnostics: [String]
    }

    /// Reads `files` (of `sample`), in this order, as one run with the default configuration.
    static func tables(reading files: [SampleLogFile], of sample: WrittenSample) throws -> Tables {
        var diagnostics: [Diagnostic] = []
        let run = AuditRun(configuration: AuditConfiguration(), reader: try InputReader(), onDiagnostic: { diagnostics.append($0) })
        for file in files {
            run.read(InputSource(path: sample.directory.appendingPathComponent(file.path).path, displayPath: file.path))
        }
        let accumulator = run.finish()
        var ingest = run.statistics
        // The one number that depends on how the uploads are split into files.
        ingest.files = 0

        let names = LineNames(sample)
        let violationsTable = accumulator.violationsTable(sources: run.sources)
        let sourceColumn = violationsTable.columnIndex(named: "source")!
        let violations = violationsTable.materializedRows.map { row in
            row.enumerated().map { index, cell in
                index == sourceColumn ? names.line(at: cell.plainText) : names.replacingLocations(in: cell.plainText)
            }.joined(separator: "\t")
        }
        return Tables(
            violations: violations,
            summary: csv(accumulator.summaryTable()), byVersion: csv(accumulator.byVersionTable()),
            byScreen: csv(accumulator.byScreenTable()), haptics: csv(accumulator.hapticsTable()),
            ingest: csv(IngestTables.ingestTable(ingest)) + csv(IngestTables.unknownTypesTable(ingest)),
            diagnostics: diagnostics.map {
                "\($0.category.rawValue) at \(names.line(at: $0.location)): \(names.replacingLocations(in: $0.message))"
            }.sorted())
    }

    static func csv(_ table: Table) -> String {
        var text = ""
        CSVWriter().write(table, to: &text)
        return text
    }

    /// Replaces file locations by the names of the lines they point at (see `WrittenSample.lineNames`).
    struct LineNames {
        let sample: WrittenSample

        init(_ sample: WrittenSample) { self.sample = sample }

        /// `PATH:LINE` → the line's name; anything else is kept as it is.
        func line(at location: String) -> String {
            guard let colon = location.lastIndex(of: ":"), let number = Int(location[location.index(after: colon)...]),
                  let names = sample.lineNames[String(location[..<colon])], number >= 1, number <= names.count
            else { return location }
            return names[number - 1]
        }

        /// Every `PATH:LINE` of a generated file inside `text` replaced by the line's name.
        func replacingLocations(in text: String) -> String {
            guard text.contains(".ndjson.zst:") else { return text }
            return text.replacing(#/[^\s()]+\.ndjson\.zst:\d+/#) { line(at: String($0.output)) }
        }
    }

    // One sample per layout and offline share, each written once for the whole suite when a test first
    // needs it (each static is initialised on its own, so tests running in parallel generate in parallel).
    private static let timeSample = Result { try WrittenSample(configuration(.time)) }
    private static let deviceSample = Result { try WrittenSample(configuration(.device)) }
    private static let uploadsSample = Result { try WrittenSample(configuration(.uploads)) }
    private static let offlineTimeSample = Result { try WrittenSample(configuration(.time, offline: 0.15)) }
    private static let offlineDeviceSample = Result { try WrittenSample(configuration(.device, offline: 0.15)) }
    private static let offlineUploadsSample = Result { try WrittenSample(configuration(.uploads, offline: 0.15)) }

    static func sample(_ layout: SampleConfiguration.Layout, offline: Bool = false) throws -> WrittenSample {
        switch (layout, offline) {
        case (.time, false): try timeSample.get()
        case (.device, false): try deviceSample.get()
        case (.uploads, false): try uploadsSample.get()
        case (.time, true): try offlineTimeSample.get()
        case (.device, true): try offlineDeviceSample.get()
        case (.uploads, true): try offlineUploadsSample.get()
        case (.deviceHour, _), (.stream, _): try WrittenSample(configuration(layout, offline: offline ? 0.15 : 0))
        }
    }

    /// The reference: the time-first directory, read in path order.
    static let reference: Result<Tables, any Error> = Result {
        let timeFirst = try DeviceOrderIndependenceTests.sample(.time)
        return try tables(reading: timeFirst.directoryOrder, of: timeFirst)
    }

    /// Compares with the reference table by table; a failure names the table and its first difference.
    static func expectSameTables(_ actual: Tables, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let expected = try reference.get()
        #expect(expected.violations.count > 100, "the night plants problems, so there is something to compare")
        #expect(expected.diagnostics.contains { $0.hasPrefix("late event") }, "the night has late events")
        let comparisons: [(String, String?)] = [
            ("ingest", difference(expected.ingest, actual.ingest)),
            ("summary", difference(expected.summary, actual.summary)),
            ("by_version", difference(expected.byVersion, actual.byVersion)),
            ("by_screen", difference(expected.byScreen, actual.byScreen)),
            ("haptics", difference(expected.haptics, actual.haptics)),
            ("violations", difference(expected.violations, actual.violations)),
            ("diagnostics", difference(expected.diagnostics, actual.diagnostics)),
        ]
        for (table, difference) in comparisons {
            #expect(difference == nil, "\(what): \(table): \(difference ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// nil when equal, else the first differing line of two texts.
    static func difference(_ expected: String, _ actual: String) -> String? {
        difference(expected.split(whereSeparator: \.isNewline).map(String.init), actual.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// nil when equal, else the counts and the first differing row of two row lists.
    static func difference(_ expected: [String], _ actual: [String]) -> String? {
        guard expected != actual else { return nil }
        func cut(_ text: String?) -> String { text.map { String($0.prefix(300)) } ?? "(none)" }
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, actual.count)
        let missing = Set(expected).subtracting(actual).count
        let extra = Set(actual).subtracting(expected).count
        return "\(expected.count) rows expected, \(actual.count) read (\(missing) missing, \(extra) extra); first difference at row "
            + "\(first + 1): expected \(cut(first < expected.count ? expected[first] : nil)), read \(cut(first < actual.count ? actual[first] : nil))"
    }

    /// A random interleaving of the devices' upload lists that keeps each list's order: each step takes
    /// the next upload of a device drawn with weight = its uploads left.
    static func interleaving(_ lists: [[SampleLogFile]], seed: UInt64) -> [SampleLogFile] {
        var random = SampleRandom(seed: seed)
        var lists = lists.filter { !$0.isEmpty }.map { ArraySlice($0) }
        var order: [SampleLogFile] = []
        while !lists.isEmpty {
            let pick = random.pick(weights: lists.map { Double($0.count) })
            order.append(lists[pick].removeFirst())
            if lists[pick].isEmpty { lists.remove(at: pick) }
        }
        return order
    }

    // MARK: - Readings that keep time order (pass with SPEC v1's single clock too)

    /// Within each ten-minute folder of the time-first layout, devices in random order: the reading
    /// stays within one upload period of time order.
    @Test func timeFirstLayoutWithDevicesShuffledWithinEachPeriodGivesTheSameTables() throws {
        let sample = try Self.sample(.time)
        var random = SampleRandom(seed: 77)
        let periods = Dictionary(grouping: sample.directoryOrder) { $0.path.split(separator: "/").dropLast().joined(separator: "/") }
        var order: [SampleLogFile] = []
        for period in periods.keys.sorted() {
            var files = periods[period]!
            for index in files.indices.reversed() { files.swapAt(index, random.below(index + 1)) }
            order += files
        }
        #expect(order.map(\.path) != sample.directoryOrder.map(\.path), "the shuffle must move something")
        try Self.expectSameTables(try Self.tables(reading: order, of: sample), "time-first, devices shuffled per period")
    }

    // MARK: - Readings that keep only each device's order (need SPEC v2's per-device clocks)

    @Test func perDeviceLayoutGivesTheTablesOfTheTimeFirstLayout() throws {
        let sample = try Self.sample(.device)
        #expect(sample.files.count == 24)
        try Self.expectSameTables(try Self.tables(reading: sample.directoryOrder, of: sample), "devices/DEVICE directory")
    }

    @Test func perUploadLayoutWithRandomNamesGivesTheTablesOfTheTimeFirstLayout() throws {
        let sample = try Self.sample(.uploads)
        try Self.expectSameTables(try Self.tables(reading: sample.directoryOrder, of: sample), "inbox/UPLOAD-ID directory")
    }

    @Test(arguments: [SampleConfiguration.Layout.time, .device, .uploads])
    func offlineDevicesReadAfterEveryoneElseLoseNothing(layout: SampleConfiguration.Layout) throws {
        let sample = try Self.sample(layout, offline: true)
        let order = sample.directoryOrder
        #expect(order.last?.path.hasPrefix(SampleConfiguration.lateUploadsFolder + "/") == true)
        try Self.expectSameTables(try Self.tables(reading: order, of: sample), "\(layout) directory, 15 % of devices offline")
    }

    /// The per-upload files as explicit arguments in random interleavings of the devices.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomInterleavingsThatKeepEachDevicesOrderGiveTheSameTables(seed: UInt64) throws {
        let sample = try Self.sample(.uploads)
        let order = Self.interleaving(Array(sample.uploadsByDevice.values).sorted { $0[0].device < $1[0].device }, seed: seed)
        #expect(order.map(\.path) != sample.directoryOrder.map(\.path))
        try Self.expectSameTables(try Self.tables(reading: order, of: sample), "interleaving \(seed)")
    }

    /// SPEC §2: a device's clock is the `ts` of its latest accepted event, not the largest, so an older
    /// upload read after a newer one is still read whole. Each device's second day (its uploads after
    /// the longest pause, no session on both sides) is read before its first, devices interleaved.
    @Test func aDevicesOlderUploadsReadAfterItsNewerOnesAreReadWhole() throws {
        let sample = try Self.sample(.uploads)
        var swappedDevices = 0
        var lists: [[SampleLogFile]] = []
        for (_, uploads) in sample.uploadsByDevice.sorted(by: { $0.key < $1.key }) {
            let sessions = uploads.map(Self.sessions(in:))
            let earliest = uploads.map(Self.earliestTs(in:))
            // The split with the longest pause before it that no session spans.
            let splits = uploads.indices.dropFirst().filter { split in
                Set(sessions[..<split].joined()).isDisjoint(with: sessions[split...].joined())
            }
            guard let split = splits.max(by: { earliest[$0] - earliest[$0 - 1] < earliest[$1] - earliest[$1 - 1] }),
                  earliest[split] - earliest[split - 1] > 2 * 3_600_000 else {
                lists.append(uploads)
                continue
            }
            swappedDevices += 1
            lists.append(Array(uploads[split...] + uploads[..<split]))
        }
        #expect(swappedDevices * 3 >= 2 * sample.uploadsByDevice.count, "most devices have two days of uploads")
        let order = Self.interleaving(lists, seed: 5)
        try Self.expectSameTables(try Self.tables(reading: order, of: sample), "newer day before older day")
    }

    static func sessions(in file: SampleLogFile) -> Set<String> {
        Set(String(decoding: file.contents, as: UTF8.self).matches(of: #/"session":"([^"]+)"/#).map { String($0.output.1) })
    }

    /// The upload's earliest RFC 3339 UTC `ts`, in ms (other timestamp styles skipped).
    static func earliestTs(in file: SampleLogFile) -> Int64 {
        let text = String(decoding: file.contents, as: UTF8.self)
        return text.matches(of: #/"ts":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/#).compactMap {
            TimestampParser.parse(rfc3339: String($0.output.1))
        }.min() ?? 0
    }
}
