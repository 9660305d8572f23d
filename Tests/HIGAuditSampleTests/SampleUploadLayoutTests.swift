import Foundation
import Testing
@testable import HIGAuditSample

/// `--layout time|device|uploads|device-hour` and `--offline-devices`: every layout holds the same
/// uploads, byte for byte and frame for frame, in the same order per device; only the files they go to
/// and their paths differ.
@Suite struct SampleUploadLayoutTests {
    /// The noisy fixture on ten devices in the time-first layout with ten-minute uploads, as
    /// `hig-audit sample` writes.
    static let timeFirst: SampleConfiguration = {
        var configuration = SampleFixtures.noisy
        configuration.devices = 10
        configuration.layout = .time
        configuration.fileMinutes = 10
        return configuration
    }()

    static func configuration(_ layout: SampleConfiguration.Layout, offline: Double = 0) -> SampleConfiguration {
        var configuration = timeFirst
        configuration.layout = layout
        configuration.offlineDeviceFraction = offline
        return configuration
    }

    /// The layouts that keep each device's uploads whole (not `stream`, which merges devices line by
    /// line: `SampleStreamLayoutTests`).
    static let layoutsAndOfflineShares: [(SampleConfiguration.Layout, Double)] =
        SampleConfiguration.Layout.allCases.filter { $0 != .stream }.flatMap { [($0, 0.0), ($0, 0.15)] }

    /// Every configuration of `layoutsAndOfflineShares`, generated once for the whole suite.
    private static let generated: [String: Result<(files: [SampleLogFile], manifest: SampleManifest), any Error>] = {
        var generated: [String: Result<(files: [SampleLogFile], manifest: SampleManifest), any Error>] = [:]
        for (layout, offline) in layoutsAndOfflineShares {
            generated["\(layout.rawValue) \(offline)"] = Result { try SampleFixtures.generate(configuration(layout, offline: offline)) }
        }
        return generated
    }()

    static func generate(_ layout: SampleConfiguration.Layout, offline: Double = 0) throws -> (files: [SampleLogFile], manifest: SampleManifest) {
        guard let result = generated["\(layout.rawValue) \(offline)"] else { return try SampleFixtures.generate(configuration(layout, offline: offline)) }
        return try result.get()
    }

    /// One device's uploads as it sent them: its files in directory order, joined, and their data
    /// frames as ranges of that joined text (with the frames' flags), skippable frames in place.
    struct DeviceStream: Equatable {
        var contents: [UInt8] = []
        var chunks: [UploadChunk] = []
    }

    static func deviceStreams(_ files: [SampleLogFile]) -> [String: DeviceStream] {
        var streams: [String: DeviceStream] = [:]
        for file in SampleFixtures.inReadingOrder(files) {
            var stream = streams[file.device, default: DeviceStream()]
            let base = stream.contents.count
            stream.contents += file.contents
            for chunk in file.chunks {
                switch chunk {
                case .frame(let range, let checksum, let contentSize):
                    stream.chunks.append(.frame(
                        range: (range.lowerBound + base)..<(range.upperBound + base), checksum: checksum, contentSize: contentSize))
                case .skippable:
                    stream.chunks.append(chunk)
                }
            }
            streams[file.device] = stream
        }
        return streams
    }

    /// Read per device in directory order, every layout (with and without offline devices) gives the
    /// time-first layout's bytes and frames, and the same manifest but for the number of files.
    @Test(arguments: layoutsAndOfflineShares)
    func everyLayoutHoldsTheSameUploadsInTheSameOrderPerDevice(layout: SampleConfiguration.Layout, offline: Double) throws {
        let reference = try Self.generate(.time)
        let other = try Self.generate(layout, offline: offline)
        let expected = Self.deviceStreams(reference.files)
        let actual = Self.deviceStreams(other.files)
        #expect(expected.count == reference.manifest.devices && expected.count > 5)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (device, stream) in expected {
            #expect(actual[device] == stream, "\(layout) \(offline): \(device)")
        }
        var manifest = other.manifest
        #expect(manifest.files == other.files.count)
        manifest.files = reference.manifest.files
        #expect(manifest == reference.manifest)

        // Each file holds the lines of the device it names, and nothing is split inside a line.
        for file in other.files {
            #expect(file.contents.last == UInt8(ascii: "\n"), "\(file.path)")
            for line in SampleFixtures.lines(of: file.contents) where line.contains(#""device":""#) {
                #expect(line.contains(#""device":"\#(file.device)""#), "\(file.path): \(line)")
            }
        }
    }

    @Test func deviceLayoutWritesOneFilePerDeviceWithItsUploadsAsConsecutiveFrames() throws {
        let reference = try Self.generate(.time)
        let (files, manifest) = try Self.generate(.device)
        let pattern = try Regex(#"^devices/(ipad-\d{4})\.ndjson\.zst$"#)
        #expect(files.count == manifest.devices)
        for file in files {
            let match = try #require(file.path.wholeMatch(of: pattern), "\(file.path)")
            #expect(String(match.output[1].substring ?? "") == file.device)
            let uploads = reference.files.filter { $0.device == file.device }
            #expect(uploads.count > 1, "a device file holds several uploads")
            #expect(file.chunks.count == uploads.reduce(0) { $0 + $1.chunks.count })
        }
        #expect(files.count < reference.files.count)
    }

    /// Upload ids look random: path order is neither time order nor device order, yet each device's
    /// uploads keep their order, and two devices' files mix.
    @Test func uploadsLayoutNamesSayNothingAboutTimeOrDeviceButKeepEachDevicesOrder() throws {
        let reference = try Self.generate(.time)
        let (files, _) = try Self.generate(.uploads)
        let pattern = try Regex(#"^inbox/[0-9a-f]{32}\.ndjson\.zst$"#)
        #expect(files.allSatisfy { $0.path.wholeMatch(of: pattern) != nil })
        #expect(Set(files.map(\.path)).count == files.count)
        #expect(files.count == reference.files.count)

        // The same uploads, in the same order per device.
        let inOrder = SampleFixtures.inReadingOrder(files)
        let referenceInOrder = SampleFixtures.inReadingOrder(reference.files)
        for device in Set(files.map(\.device)) {
            #expect(inOrder.filter { $0.device == device }.map(\.contents) == referenceInOrder.filter { $0.device == device }.map(\.contents))
        }

        // Path order says nothing about time: about half of the neighbours step back in time (time order
        // would have none), and the device changes at most steps (device order would change it once per device).
        let firstTs = inOrder.map { file in
            SampleFixtures.lines(of: file.contents).lazy.compactMap { line -> Int64? in
                if case .event(let ts, _, _, _) = SpecLineClassifier.classify(line) { return ts }
                return nil
            }.first ?? 0
        }
        let backwards = zip(firstTs, firstTs.dropFirst()).filter { $0 > $1 }.count
        let deviceChanges = zip(inOrder, inOrder.dropFirst()).filter { $0.device != $1.device }.count
        #expect(Double(backwards) > 0.3 * Double(inOrder.count), "\(backwards) of \(inOrder.count)")
        #expect(Double(deviceChanges) > 0.7 * Double(inOrder.count), "\(deviceChanges) of \(inOrder.count)")
    }

    @Test func uploadIDsSortInUploadOrderAndAreUniqueAcrossDevices() {
        var all = Set<String>()
        for device in 0..<200 {
            let ids = UploadPaths.uploadIDs(count: 40, seed: 5, device: device)
            #expect(ids == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(ids.allSatisfy { $0.count == 32 })
            all.formUnion(ids)
        }
        #expect(all.count == 200 * 40)
        #expect(UploadPaths.uploadIDs(count: 3, seed: 5, device: 0) != UploadPaths.uploadIDs(count: 3, seed: 6, device: 0))
    }

    /// Offline devices: the rounded share of the devices, all of their files below `late-uploads/` with
    /// the path they would have had otherwise, sorting after every other file (in the layouts with a
    /// file per device's upload; `SampleStreamLayoutTests` checks `stream`).
    @Test(arguments: SampleConfiguration.Layout.allCases.filter { $0 != .stream })
    func offlineDevicesFilesSortAfterEveryoneElses(layout: SampleConfiguration.Layout) throws {
        let online = try Self.generate(layout)
        let (files, manifest) = try Self.generate(layout, offline: 0.15)
        let prefix = SampleConfiguration.lateUploadsFolder + "/"
        let late = files.filter { $0.path.hasPrefix(prefix) }
        let offlineDevices = Set(late.map(\.device))
        #expect(offlineDevices.count == Int((0.15 * Double(manifest.devices)).rounded()) && !offlineDevices.isEmpty)
        #expect(files.allSatisfy { $0.path.hasPrefix(prefix) == offlineDevices.contains($0.device) })

        let order = SampleFixtures.inReadingOrder(files)
        let firstLate = try #require(order.firstIndex { $0.path.hasPrefix(prefix) })
        #expect(order[firstLate...].allSatisfy { $0.path.hasPrefix(prefix) }, "late uploads are read last")

        let moved = files.map { file in
            SampleLogFile(
                path: file.path.hasPrefix(prefix) ? String(file.path.dropFirst(prefix.count)) : file.path,
                device: file.device, contents: file.contents, chunks: file.chunks)
        }
        #expect(moved == online.files)
    }

    @Test func offlineShareZeroAndOnePickNoneAndAllDevices() throws {
        let generator = SampleGenerator(configuration: Self.configuration(.time, offline: 1))
        #expect(generator.offlineDevices(among: 7) == Set(0..<7))
        #expect(SampleGenerator(configuration: Self.configuration(.time, offline: 0)).offlineDevices(among: 7).isEmpty)
        #expect(SampleGenerator(configuration: Self.configuration(.time, offline: 0.5)).offlineDevices(among: 10).count == 5)
        let picks = (0..<8).map { seed -> Set<Int> in
            var configuration = Self.configuration(.time, offline: 0.5)
            configuration.seed = UInt64(seed)
            return SampleGenerator(configuration: configuration).offlineDevices(among: 10)
        }
        #expect(Set(picks).count > 1, "the seed picks the devices")
    }

    @Test(arguments: layoutsAndOfflineShares)
    func sameSeedGivesSameBytesInEveryLayout(layout: SampleConfiguration.Layout, offline: Double) throws {
        let first = try Self.generate(layout, offline: offline)
        let second = try SampleFixtures.generate(Self.configuration(layout, offline: offline))
        #expect(first.files == second.files)
        #expect(first.manifest == second.manifest)
    }

    /// SPEC v2 read by the test-side reference: with per-device clocks every layout, offline devices
    /// read last included, accepts every generated event, finds exactly the planted late events and
    /// the planted violations.
    @Test(arguments: [(SampleConfiguration.Layout.time, 0.0)] + SampleConfiguration.Layout.allCases.map { ($0, 0.15) })
    func everyLayoutLosesNothingUnderPerDeviceClocks(layout: SampleConfiguration.Layout, offline: Double) throws {
        let (files, manifest) = try Self.generate(layout, offline: offline)
        let (sessions, late) = AcceptedEvents.bySession(inOrder: SampleFixtures.inReadingOrder(files), clock: .perDevice)
        #expect(sessions.values.reduce(0) { $0 + $1.count } == manifest.events)
        #expect(sessions.count == manifest.sessions)
        #expect(late == manifest.noise.lateEvents && late > 0)
        var found: [String: Int] = [:]
        for events in sessions.values {
            for (rule, count) in ReferenceRuleOracle.violations(in: events) { found[rule, default: 0] += count }
        }
        for rule in sampleRuleIDs { #expect(found[rule] ?? 0 == manifest.expectedViolations(rule: rule), "\(rule)") }
    }

    /// What makes the layouts a test of per-device clocks: read with one clock for the whole input
    /// (SPEC v1), the per-device and offline layouts lose events, while the time-first layout does not.
    @Test func perDeviceLayoutsLoseEventsUnderOneSharedClock() throws {
        func lost(_ layout: SampleConfiguration.Layout, offline: Double) throws -> Int {
            let (files, manifest) = try Self.generate(layout, offline: offline)
            let (sessions, _) = AcceptedEvents.bySession(inOrder: SampleFixtures.inReadingOrder(files), clock: .wholeStream)
            return manifest.events - sessions.values.reduce(0) { $0 + $1.count }
        }
        #expect(try lost(.time, offline: 0) == 0)
        #expect(try lost(.time, offline: 0.15) > 0)
        #expect(try lost(.device, offline: 0) > 0)
        #expect(try lost(.uploads, offline: 0) > 0)
    }
}
