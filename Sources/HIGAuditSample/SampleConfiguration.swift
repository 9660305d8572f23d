/// What to generate: how much, from which seed, over which period, and whether to add upload noise.
public struct SampleConfiguration: Sendable, Equatable {
    /// How much data to generate.
    public enum Size: Sendable, Equatable {
        /// Exactly this many sessions, spread over `devices` devices.
        case sessions(Int)
        /// Devices with `sessionsPerDevicePerDay` sessions each are added until the uncompressed NDJSON
        /// reaches this many bytes (the benchmarks ask for ~300 MB this way).
        case targetBytes(Int64)
    }

    /// How files are laid out below the output directory. Reading order is lexicographic (SPEC §2).
    public enum Layout: String, Sendable, Equatable, CaseIterable {
        /// `DATE/DEVICE/HH.ndjson.zst`: each device's files are read one after another. Note: a reader
        /// applying SPEC §2's session gap to the whole stream closes later devices' sessions early.
        case deviceHour = "device-hour"
        /// `DATE/HH/DEVICE.ndjson.zst`: all devices of a period are read before the next period, so the
        /// stream never runs further ahead of a session than one file period.
        case hourDevice = "hour-device"
    }

    public var size: Size
    public var seed: UInt64
    public var days: Int
    /// Milliseconds since the Unix epoch at which the first day's usage window opens.
    public var startMs: Int64
    /// Hours per day during which sessions start (evening usage; sessions may run past it).
    public var activeHours: Int
    /// Number of devices for `.sessions`; nil picks about `sessionsPerDevicePerDay` sessions per device-day.
    public var devices: Int?
    public var sessionsPerDevicePerDay: Int
    public var noise: NoiseProfile
    public var layout: Layout
    /// Length of the period one file covers, in minutes (a divisor of 60). With 60 a file is named by
    /// its hour (`21`), otherwise by hour and minute (`2110`). Keep it under the 30-minute session gap
    /// with `.hourDevice` when the whole directory is read as one stream.
    public var fileMinutes: Int
    /// zstd level used by the writer.
    public var compressionLevel: Int32
    /// Least time, in ms, between two logged `moved` touches of one gesture, as a telemetry SDK that
    /// coalesces moves logs them; 0 logs every move at display rate (the benchmarks' heavy default).
    /// Sessions are the same either way, only lighter: no rule looks at `moved` touches.
    public var moveSamplingMs: Int
    /// The mix of session lengths.
    public var sessionLength: SessionLength

    public init(
        size: Size = .sessions(200), seed: UInt64 = 1, days: Int = 1,
        startMs: Int64 = SampleConfiguration.defaultStartMs, activeHours: Int = 6, devices: Int? = nil,
        sessionsPerDevicePerDay: Int = 4, noise: NoiseProfile = .realistic, layout: Layout = .deviceHour,
        fileMinutes: Int = 60, compressionLevel: Int32 = 3, moveSamplingMs: Int = 0,
        sessionLength: SessionLength = .mixed
    ) {
        self.size = size
        self.seed = seed
        self.days = days
        self.startMs = startMs
        self.activeHours = activeHours
        self.devices = devices
        self.sessionsPerDevicePerDay = sessionsPerDevicePerDay
        self.noise = noise
        self.layout = layout
        self.fileMinutes = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60].last { $0 <= max(1, fileMinutes) && 60 % $0 == 0 } ?? 60
        self.compressionLevel = compressionLevel
        self.moveSamplingMs = max(0, moveSamplingMs)
        self.sessionLength = sessionLength
    }

    /// 2026-11-20T18:00:00Z.
    public static let defaultStartMs: Int64 = 1_795_197_600_000

    /// Devices used for `.sessions(n)`, never more than there are sessions.
    var deviceCount: Int {
        guard case .sessions(let sessions) = size else { return 0 }
        if let devices { return max(1, min(devices, max(sessions, 1))) }
        let perDevice = max(1, sessionsPerDevicePerDay * max(days, 1))
        return max(1, (sessions + perDevice - 1) / perDevice)
    }
}

/// How much of each kind of upload noise to add, as probabilities per line, per file or per chunk.
///
/// All noise keeps the data's meaning: reordering stays inside the 10 s lateness bound, late events are
/// extra harmless touches, duplicates repeat an `id`, and timestamps keep their millisecond value, so the
/// rules find exactly the planted problems with or without noise.
public struct NoiseProfile: Sendable, Equatable {
    public var enabled: Bool
    /// Per event: moved 1–3 lines later (within the lateness bound).
    public var reorder: Double
    /// Per event: uploaded twice (same `id`).
    public var duplicate: Double
    /// Per event: an extra touch arriving more than 10 s behind its session.
    public var late: Double
    /// Per event: an event of a type this tool does not know yet.
    public var unknownType: Double
    /// Per event: a broken line.
    public var malformed: Double
    /// Per event: an empty or whitespace-only line.
    public var blank: Double
    /// Per line: a timestamp other than RFC 3339 UTC with milliseconds.
    public var mixedTimestamps: Double
    /// Per file: CRLF line ends.
    public var crlfFile: Double
    /// Per chunk: a skippable frame before it.
    public var skippableFrame: Double
    /// Upload chunk sizes in uncompressed bytes; with noise chunks end anywhere, mid-line included.
    public var chunkBytes: ClosedRange<Int>

    public static let realistic = NoiseProfile(
        enabled: true, reorder: 0.01, duplicate: 0.004, late: 0.0008, unknownType: 0.002, malformed: 0.0004,
        blank: 0.0005, mixedTimestamps: 0.3, crlfFile: 0.03, skippableFrame: 0.05, chunkBytes: 4096...32768
    )

    public static let none = NoiseProfile(
        enabled: false, reorder: 0, duplicate: 0, late: 0, unknownType: 0, malformed: 0, blank: 0,
        mixedTimestamps: 0, crlfFile: 0, skippableFrame: 0, chunkBytes: 4096...32768
    )
}
