import HIGAuditCore

/// Generates everything one device uploads over the whole period: its sessions one after another,
/// their lines with upload noise, cut into one upload per `fileMinutes` of UTC time, placed in files
/// as the layout says.
///
/// A line goes to the upload of the period of the newest `ts` the device has written so far, so a
/// session running across the period continues in the next upload, and a line that arrives out of
/// order stays in the upload it was sent with. The uploads (their bytes and frames) are the same in
/// every layout: layouts with a file per upload write each as soon as it is complete; the `device` and
/// `uploads` layouts hold the device's uploads until its last one, to append them into one file or to
/// name them in order.
struct DeviceLogStream {
    let configuration: SampleConfiguration
    let device: DeviceProfile
    /// Drives the sessions; noise and upload chunking draw from `noiseRandom`, so the same seed gives
    /// the same sessions with and without noise.
    private var random: SampleRandom
    private var noiseRandom: SampleRandom
    private(set) var manifest: SampleManifest
    private let planner: UploadNoisePlanner
    private let chunker: UploadChunker
    private let paths: UploadPaths
    /// How the device's SDK writes its event lines (`SampleConfiguration.encoders`).
    private var lineEncoder: DeviceLineEncoder
    /// Where upload chunking draws when encoders vary (nil with `.uniform`). Chunking draws from
    /// `noiseRandom` as many times as the upload's bytes need chunks, and the noise of later lines
    /// draws after it: so that other bytes leave the noise the same, the uniform bytes of the upload
    /// (`uniformBuffer`) are still chunked from `noiseRandom`, as `.uniform` chunks them, and the
    /// upload's own bytes are chunked from this stream.
    private var chunkRandom: SampleRandom?
    /// The current upload as `.uniform` writes it, while encoders vary.
    private var uniformBuffer: [UInt8] = []
    private var uniformLineEnd: [UInt8] = [UInt8(ascii: "\n")]
    /// The device's finished uploads, in order, while the layout needs all of them to place any.
    private var heldUploads: [(contents: [UInt8], chunks: [UploadChunk])] = []
    /// The `stream` layout's uploads, with each line's end and the newest `ts` the device had written
    /// when it sent the line, for `StreamInterleaver` to merge with other devices' lines.
    private(set) var streamUploads: [StreamUpload] = []
    private var lineKeys: [StreamUpload.LineKey] = []
    /// The `ts` of the device's last event (`Int64.min` before any), where its lane is free again.
    private(set) var lastEventTs = Int64.min

    /// The current upload's UTC day and period start as `HHMM`.
    private var currentKey: (day: String, hhmm: Int)?
    private var buffer: [UInt8] = []
    private var lineEnd: [UInt8] = [UInt8(ascii: "\n")]
    private var newestWritten = Int64.min
    private var currentPeriodStart: Int64 = 0
    /// The end of the current upload's period: until `newestWritten` reaches it, lines stay in it.
    private var keyValidUntil = Int64.min

    init(configuration: SampleConfiguration, device: DeviceProfile, random: SampleRandom, uploadsLate: Bool = false) {
        self.configuration = configuration
        self.device = device
        self.random = random
        noiseRandom = SampleRandom(seed: configuration.seed ^ 0x6E6F_6973_6500_0000, stream: UInt64(truncatingIfNeeded: device.index))
        manifest = SampleManifest(seed: configuration.seed, versions: AppVersionBehaviour.releases.map(\.version))
        manifest.devices = 1
        planner = UploadNoisePlanner(noise: configuration.noise)
        chunker = UploadChunker(noise: configuration.noise)
        paths = UploadPaths(layout: configuration.layout, seed: configuration.seed, device: device, uploadsLate: uploadsLate)
        if configuration.encoders != .uniform {
            chunkRandom = SampleRandom(seed: configuration.seed ^ 0x6368_756E_6B00_0000, stream: UInt64(truncatingIfNeeded: device.index))
        }
        lineEncoder = DeviceLineEncoder(
            encoder: configuration.encoders.encoder(forDevice: device.index), seed: configuration.seed, device: device.index)
        buffer.reserveCapacity(1 << 16)
    }

    /// Generates the device's `sessionCount` sessions and hands every finished file to `sink`. With
    /// `laneStart` (`SampleConfiguration.concurrentSessions`) the sessions run one after another from
    /// that time, `laneGapMs` apart, instead of at times drawn over the days' usage windows.
    mutating func generate(sessionCount: Int, laneStart: Int64? = nil, into sink: inout some SampleLogSink) throws {
        let days = max(1, configuration.days)
        let windowMs = Int64(max(1, configuration.activeHours)) * 3_600_000
        var slots: [(day: Int, offset: Int64)] = laneStart != nil ? [] : (0..<sessionCount).map { _ in
            (random.below(days), random.ms(0...windowMs))
        }
        slots.sort { ($0.day, $0.offset) < ($1.day, $1.offset) }
        let releases = configuration.releases

        var release = min(device.initialRelease, releases.count - 1)
        var day = 0
        var cursor = Int64.min
        for number in 0..<sessionCount {
            let start: Int64
            if let laneStart {
                start = cursor == .min ? laneStart : cursor + random.ms(Self.laneGapMs)
                let startDay = Int(max(0, start - configuration.startMs) / 86_400_000)
                while day < startDay {
                    day += 1
                    if random.chance(device.updateChance) { release = min(release + 1, releases.count - 1) }
                }
            } else {
                let slot = slots[number]
                while day < slot.day {
                    day += 1
                    if random.chance(device.updateChance) { release = min(release + 1, releases.count - 1) }
                }
                let planned = configuration.startMs + Int64(slot.day) * 86_400_000 + slot.offset
                start = cursor == .min ? planned : max(planned, cursor + random.ms(30_000...600_000))
            }
            let sessionID = Self.sessionID(seed: configuration.seed, device: device.index, number: number)
            if number > 0, random.chance(Self.widgetSessionChance) {
                // The widget extension logs its own, short session on the same device.
                var widget = SessionSimulator(
                    random: SampleRandom(seed: random.next()), device: device,
                    behaviour: releases[release], session: sessionID, start: start
                )
                widget.runWidget()
                widget.tally.fold(into: &manifest.versions[release], events: widget.events.count)
                manifest.sessions += 1
                manifest.events += widget.events.count
                cursor = widget.events.last?.ts ?? start
                try write(widget.events, into: &sink)
                continue
            }
            let duration = configuration.sessionLength.durationMs(random: &random)
            var simulator = SessionSimulator(
                random: SampleRandom(seed: random.next()), device: device,
                behaviour: releases[release], session: sessionID, start: start,
                moveSamplingMs: Int64(configuration.moveSamplingMs), extraHapticsPerMinute: configuration.extraHapticsPerMinute
            )
            simulator.run(durationMs: duration, endsCleanly: random.chance(0.94))
            simulator.tally.fold(into: &manifest.versions[release], events: simulator.events.count)
            manifest.sessions += 1
            manifest.events += simulator.events.count
            cursor = simulator.events.last?.ts ?? start
            try write(simulator.events, into: &sink)
        }
        if cursor != .min { lastEventTs = cursor }
        try flush(into: &sink)
        try writeHeldUploads(into: &sink)
    }

    /// Time between two sessions of a device on a lane (`laneStart`): the next one begins seconds
    /// after the last ended, so the lane always has a session in progress.
    static let laneGapMs: ClosedRange<Int64> = 1_000...15_000

    /// The share of a device's sessions, after its first, that are its widget extension's.
    static let widgetSessionChance = 0.2

    /// 16 hex digits, unique per (device, session number) because the mixer is a bijection.
    static func sessionID(seed: UInt64, device: Int, number: Int) -> String {
        let raw = (UInt64(truncatingIfNeeded: device) << 24) | UInt64(truncatingIfNeeded: number & 0xFF_FFFF)
        let value = SampleRandom.mix(raw ^ SampleRandom.mix(seed))
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private mutating func write(_ events: [Event], into sink: inout some SampleLogSink) throws {
        let lines = planner.plan(events, random: &noiseRandom, counts: &manifest.noise)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        var uniformScratch: [UInt8] = []
        for line in lines {
            scratch.removeAll(keepingCapacity: true)
            var ms: Int64? = nil
            // The event of the line and the timestamp style the noise chose for it.
            var encoded: (event: Event, style: TimestampStyle)?
            switch line {
            case .event(let index, _):
                let event = events[index]
                ms = event.ts
                encoded = (event, timestampStyle(for: event.ts))
            case .late(let event):
                encoded = (event, timestampStyle(for: event.ts))
            case .unknownType(let type, let at, let id):
                scratch = type.line(session: events[0].session, device: device.id, ms: at, id: id, timestamp: timestampStyle(for: at))
            case .malformed(let kind, let at):
                scratch = kind.line(session: events[0].session, ms: at)
            case .blank(let text):
                scratch.append(contentsOf: text.utf8)
            }
            if let encoded {
                if configuration.format == .ndjson {
                    lineEncoder.append(encoded.event, timestamp: encoded.style, to: &scratch)
                } else {
                    ForeignLineEncoder.append(encoded.event, format: configuration.format, to: &scratch)
                }
            }
            if let ms, ms > newestWritten { newestWritten = ms }
            try fileFor(newest: newestWritten, into: &sink)
            buffer.append(contentsOf: scratch)
            buffer.append(contentsOf: lineEnd)
            if configuration.layout == .stream { lineKeys.append(.init(end: buffer.count, newest: newestWritten)) }
            if chunkRandom != nil {
                if let encoded {
                    uniformScratch.removeAll(keepingCapacity: true)
                    NDJSONLineEncoder.append(encoded.event, timestamp: encoded.style, to: &uniformScratch)
                    uniformBuffer.append(contentsOf: uniformScratch)
                } else {
                    uniformBuffer.append(contentsOf: scratch)
                }
                uniformBuffer.append(contentsOf: uniformLineEnd)
            }
            manifest.lines += 1
        }
    }

    private mutating func timestampStyle(for ms: Int64) -> TimestampStyle {
        let style: TimestampStyle = configuration.noise.enabled && noiseRandom.chance(configuration.noise.mixedTimestamps)
            ? TimestampStyle.random(for: ms, using: &noiseRandom) : .standard
        if configuration.noise.enabled { manifest.noise.timestampStyles[style.countingName, default: 0] += 1 }
        return style
    }

    /// Starts a new upload when the newest `ts` has moved into another period.
    private mutating func fileFor(newest: Int64, into sink: inout some SampleLogSink) throws {
        if currentKey != nil, newest < keyValidUntil { return }
        let at = newest == .min ? configuration.startMs : newest
        let periodMs = Int64(configuration.fileMinutes) * 60_000
        let periodStart = TimestampWriter.floorDivide(at, periodMs) * periodMs
        let place = TimestampWriter.utcDayAndHour(periodStart)
        let minute = Int(TimestampWriter.floorDivide(periodStart, 60_000) % 60)
        try flush(into: &sink)
        currentKey = (place.day, place.hour * 100 + minute)
        currentPeriodStart = periodStart
        keyValidUntil = periodStart + periodMs
        lineEnd = configuration.noise.enabled && noiseRandom.chance(configuration.noise.crlfFile)
            ? [UInt8(ascii: "\r"), UInt8(ascii: "\n")] : [UInt8(ascii: "\n")]
        uniformLineEnd = lineEnd
        if lineEncoder.encoder.writesCRLF { lineEnd = [UInt8(ascii: "\r"), UInt8(ascii: "\n")] }
        if lineEnd.count == 2 { manifest.noise.crlfFiles += 1 }
    }

    private mutating func flush(into sink: inout some SampleLogSink) throws {
        guard let key = currentKey, !buffer.isEmpty else { return }
        // The `stream` layout cuts its frames from the merged files: the upload is still chunked here,
        // so that the noise of later lines draws as in every other layout, but its frames are not kept.
        let keepsFrames = configuration.layout != .stream
        var chunkCounts = NoiseCounts()
        let chunks: [UploadChunk]
        if chunkRandom != nil {
            var uniformCounts = NoiseCounts()
            _ = chunker.chunks(of: uniformBuffer, random: &noiseRandom, counts: &uniformCounts)
            uniformBuffer.removeAll(keepingCapacity: true)
            chunks = chunker.chunks(of: buffer, random: &chunkRandom!, counts: &chunkCounts)
        } else {
            chunks = chunker.chunks(of: buffer, random: &noiseRandom, counts: &chunkCounts)
        }
        let digits = String(configuration.fileMinutes == 60 ? key.hhmm / 100 : key.hhmm)
        let width = configuration.fileMinutes == 60 ? 2 : 4
        let period = String(repeating: "0", count: max(0, width - digits.count)) + digits
        if keepsFrames {
            manifest.noise.add(chunkCounts)
            for chunk in chunks { if case .frame = chunk { manifest.frames += 1 } }
        }
        manifest.uncompressedBytes += Int64(buffer.count)
        switch configuration.layout {
        case .time, .deviceHour:
            manifest.files += 1
            try sink.write(SampleLogFile(
                path: paths.timedPath(day: key.day, period: period), device: device.id, contents: buffer, chunks: chunks))
        case .device, .uploads:
            heldUploads.append((buffer, chunks))
        case .stream:
            streamUploads.append(StreamUpload(
                path: paths.streamPath(day: key.day, period: period), periodStart: currentPeriodStart,
                contents: buffer, lines: lineKeys))
            lineKeys.removeAll(keepingCapacity: true)
        }
        buffer.removeAll(keepingCapacity: true)
        currentKey = nil
    }

    /// Hands the `stream` layout's uploads made so far to the caller, which merges them.
    mutating func takeStreamUploads() -> [StreamUpload] {
        defer { streamUploads = [] }
        return streamUploads
    }

    /// Places the held uploads of the `device` and `uploads` layouts, once the device has sent its last.
    private mutating func writeHeldUploads(into sink: inout some SampleLogSink) throws {
        guard !heldUploads.isEmpty else { return }
        switch configuration.layout {
        case .time, .deviceHour, .stream:
            break
        case .device:
            var contents: [UInt8] = []
            contents.reserveCapacity(heldUploads.reduce(0) { $0 + $1.contents.count })
            var chunks: [UploadChunk] = []
            for upload in heldUploads {
                let base = contents.count
                contents.append(contentsOf: upload.contents)
                chunks += upload.chunks.map { chunk in
                    guard case .frame(let range, let checksum, let contentSize) = chunk else { return chunk }
                    return .frame(range: (range.lowerBound + base)..<(range.upperBound + base), checksum: checksum, contentSize: contentSize)
                }
            }
            manifest.files += 1
            try sink.write(SampleLogFile(path: paths.deviceFilePath, device: device.id, contents: contents, chunks: chunks))
        case .uploads:
            for (path, upload) in zip(paths.uploadPaths(count: heldUploads.count), heldUploads) {
                manifest.files += 1
                try sink.write(SampleLogFile(path: path, device: device.id, contents: upload.contents, chunks: upload.chunks))
            }
        }
        heldUploads.removeAll()
    }
}
