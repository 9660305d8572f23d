/// One device's upload in the `stream` layout, before it is merged with the other devices' lines of
/// the same period.
struct StreamUpload {
    /// Where a line ends in `contents` (after its line end), and the newest `ts` the device had
    /// written when it sent the line: the moment the line reached the collector.
    struct LineKey {
        var end: Int
        var newest: Int64
    }

    /// The period's file (`UploadPaths.streamPath`), shared with the other devices.
    var path: String
    var periodStart: Int64
    var contents: [UInt8]
    var lines: [LineKey]
}

/// Writes the `stream` layout: every device's uploads of one period merged into one file, line by
/// line in the order the lines reached a collector (the newest `ts` their device had written), so
/// that lines of sessions on different devices alternate as they do in a server's log of all devices.
///
/// Ties go to the device generated first, and a device's lines keep their order, so each device still
/// reads as its own stream (SPEC §2): the same tables as the per-device layouts. The merged file is cut
/// into frames as an upload is (`UploadChunker`), from a stream of its own per file, so the devices'
/// lines and noise are those of every other layout.
struct StreamInterleaver {
    private struct Line {
        var arrival: Int64
        var device: Int
        /// Into the period's `bytes`; also the line's rank among its device's lines of the period.
        var range: Range<Int>
    }

    private struct Period {
        var path: String
        var start: Int64
        var bytes: [UInt8] = []
        var lines: [Line] = []
    }

    let configuration: SampleConfiguration
    private let chunker: UploadChunker
    private var periods: [String: Period] = [:]

    init(configuration: SampleConfiguration) {
        self.configuration = configuration
        chunker = UploadChunker(noise: configuration.noise)
    }

    /// Takes one device's uploads (in upload order) for merging.
    mutating func add(_ uploads: [StreamUpload], device: Int) {
        for upload in uploads {
            // Appended in place: a period taken out of the dictionary and put back would be copied whole.
            if periods[upload.path] == nil { periods[upload.path] = Period(path: upload.path, start: upload.periodStart) }
            let base = periods[upload.path]!.bytes.count
            periods[upload.path]!.bytes.append(contentsOf: upload.contents)
            var lineStart = 0
            for key in upload.lines {
                let arrival = key.newest == .min ? upload.periodStart : key.newest
                periods[upload.path]!.lines.append(Line(arrival: arrival, device: device, range: (base + lineStart)..<(base + key.end)))
                lineStart = key.end
            }
        }
    }

    /// Writes, in path order, every period that ends at or before `time` (no device still to come
    /// can send a line into it), or every period with `time` = `Int64.max`; counts their files, frames
    /// and frame noise in `manifest`.
    mutating func write(endingBy time: Int64, into sink: inout some SampleLogSink, manifest: inout SampleManifest) throws {
        let periodMs = Int64(configuration.fileMinutes) * 60_000
        let complete = periods.values.filter { time == .max || $0.start + periodMs <= time }.map(\.path).sorted()
        for path in complete {
            guard let period = periods.removeValue(forKey: path) else { continue }
            let order = period.lines.sorted { ($0.arrival, $0.device, $0.range.lowerBound) < ($1.arrival, $1.device, $1.range.lowerBound) }
            var contents: [UInt8] = []
            contents.reserveCapacity(period.bytes.count)
            for line in order { contents.append(contentsOf: period.bytes[line.range]) }
            var random = SampleRandom(
                seed: configuration.seed ^ 0x7374_7265_616D_0000, stream: UInt64(bitPattern: period.start) ^ (path.hasPrefix(SampleConfiguration.lateUploadsFolder) ? 1 << 63 : 0))
            let chunks = chunker.chunks(of: contents, random: &random, counts: &manifest.noise)
            for chunk in chunks { if case .frame = chunk { manifest.frames += 1 } }
            manifest.files += 1
            try sink.write(SampleLogFile(path: path, device: "", contents: contents, chunks: chunks))
        }
    }
}

/// The lanes of `SampleConfiguration.concurrentSessions`: device `i` runs on lane `i mod N` once the
/// device before it there is done, so about N devices, each with a session in progress, are active
/// at any moment. The first devices start spread over `rampMs`, so that the sessions do not begin
/// and end in step.
struct LaneSchedule {
    /// When each lane is free for its next device.
    private(set) var free: [Int64]
    let seed: UInt64

    static let rampMs: Int64 = 10_000
    /// Between one device's last event and the next device's first on the lane.
    static let handoverMs: ClosedRange<Int64> = 1_000...15_000

    init(lanes: Int, startMs: Int64, seed: UInt64) {
        let count = max(1, lanes)
        free = (0..<count).map { startMs + Int64($0) * Self.rampMs / Int64(count) }
        self.seed = seed
    }

    func start(ofDevice index: Int) -> Int64 { free[index % free.count] }

    /// The device on its lane has sent its last event at `lastTs` (`Int64.min`: none).
    mutating func finish(device index: Int, lastTs: Int64) {
        let lane = index % free.count
        guard lastTs != .min else { return }
        var random = SampleRandom(seed: seed ^ 0x6C61_6E65_0000_0000, stream: UInt64(truncatingIfNeeded: index))
        free[lane] = max(free[lane], lastTs + random.ms(Self.handoverMs))
    }

    /// No device still to come starts before this.
    var earliestFree: Int64 { free.min() ?? .max }
}
