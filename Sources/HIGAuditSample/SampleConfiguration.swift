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

    /// How the uploads are split into files and named below the output directory. Every layout holds
    /// the same uploads with the same bytes and frames; only the files they go to and the paths
    /// differ. A directory is read in lexicographic path order (SPEC §2), and every layout keeps each
    /// device's uploads in upload order in path order, so under SPEC §2's per-device clocks every
    /// layout gives the same tables.
    public enum Layout: String, Sendable, Equatable, CaseIterable {
        /// `DATE/HHMM/DEVICE.ndjson.zst`, one file per upload (a device's `fileMinutes` of UTC time):
        /// path order is time order, as if the whole input were one time-ordered stream.
        case time
        /// `devices/DEVICE.ndjson.zst`, one file per device holding all of its uploads in order, each
        /// upload's frames appended after the previous upload's (as an append-only upload store keeps them).
        case device
        /// `inbox/UPLOAD.ndjson.zst`, one file per upload named by a random-looking 32-hex-digit upload
        /// id. The first 16 digits are sorted random numbers per device, so path order is a random
        /// interleaving of the devices that keeps each device's uploads in order, and says nothing about
        /// time across devices.
        case uploads
        /// `DATE/DEVICE/HHMM.ndjson.zst`, one file per upload in a folder per device and day: per-device
        /// order within each day, days in order.
        case deviceHour = "device-hour"
        /// `DATE/HHMM.ndjson.zst`, one file per period holding every device's lines of that period
        /// merged in time order, as a collector that receives all devices at once writes them: lines
        /// of different devices (and so of different sessions) alternate in reading order. Each
        /// device's lines keep their order (`StreamInterleaver`), so the tables are those of the other
        /// layouts; only the frames differ, cut from the merged file.
        case stream

        /// The name of `time` before there were per-device layouts (`hour-device` on the command line).
        public static let hourDevice = Layout.time

        /// The layout called `name` on the command line: a raw value, or `hour-device` for `time`.
        public init?(name: String) {
            if name == "hour-device" {
                self = .time
            } else {
                self.init(rawValue: name)
            }
        }
    }

    /// The folder an offline device's files go below, in front of the path the layout gives them. It
    /// sorts after every layout's own top folder (dates, `devices`, `inbox`), so a directory read
    /// reads the offline devices' uploads after everyone else's.
    public static let lateUploadsFolder = "late-uploads"

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
    /// Share of devices, 0…1, that were offline and upload all their logs after everyone else: their
    /// files go below `lateUploadsFolder`. With `.sessions` exactly that share of the devices (rounded)
    /// is picked from the seed; with `.targetBytes` each device is offline with that probability. The
    /// events and noise stay the same; only the paths change.
    public var offlineDeviceFraction: Double
    /// Length of the period one upload covers, in minutes (a divisor of 60). With 60 a file is named by
    /// its hour (`21`), otherwise by hour and minute (`2110`). It is the length of one upload in every
    /// layout.
    public var fileMinutes: Int
    /// zstd level used by the writer.
    public var compressionLevel: Int32
    /// Least time, in ms, between two logged `moved` touches of one gesture, as a telemetry SDK that
    /// coalesces moves logs them; 0 logs every move at display rate (the benchmarks' heavy default).
    /// Sessions are the same either way, only lighter: no rule looks at `moved` touches.
    public var moveSamplingMs: Int
    /// The mix of session lengths.
    public var sessionLength: SessionLength
    /// Which SDKs' JSON writers the devices' lines come from. Only the bytes of event lines change:
    /// the events, the noise, the uploads' periods and the tables are the same for every mix.
    public var encoders: EncoderMix
    /// The format of the event lines: this contract's NDJSON, or an export SPEC §7 imports, every
    /// event under the `hig.<type>` convention (`ForeignLineEncoder`). Only the event lines' bytes
    /// change; the events and uploads are the same.
    public var format: SampleFormat
    /// How many sessions are in progress at any moment (nil: the usual schedule, each device's
    /// sessions spread over its days' `activeHours`). With a number N the devices share N lanes: a
    /// device runs its sessions one after another on its lane, seconds apart, and the next device on
    /// the lane starts when it is done, so about N devices are active in the same minutes whatever the
    /// size, and `days` and `activeHours` no longer place sessions. The `stream` layout then
    /// interleaves their lines in reading order; the other layouts keep them per device.
    public var concurrentSessions: Int?
    /// Feedback haptics per minute of app session that the healthy app plays besides those of its
    /// activities (a selection or light impact between two activities), on devices with haptics on.
    /// They keep clear of bursts and captures, so they plant no problem. 0 adds none.
    public var extraHapticsPerMinute: Double
    /// Multiplies every version's rate of every planted problem (each capped at 1): more or fewer
    /// violations in the same sessions. The manifest counts what was planted, so it stays exact.
    public var problemRateScale: Double

    public init(
        size: Size = .sessions(200), seed: UInt64 = 1, days: Int = 1,
        startMs: Int64 = SampleConfiguration.defaultStartMs, activeHours: Int = 6, devices: Int? = nil,
        sessionsPerDevicePerDay: Int = 4, noise: NoiseProfile = .realistic, layout: Layout = .deviceHour,
        fileMinutes: Int = 60, compressionLevel: Int32 = 3, moveSamplingMs: Int = 0,
        sessionLength: SessionLength = .mixed, offlineDeviceFraction: Double = 0, encoders: EncoderMix = .uniform,
        format: SampleFormat = .ndjson, concurrentSessions: Int? = nil, extraHapticsPerMinute: Double = 0,
        problemRateScale: Double = 1
    ) {
        self.concurrentSessions = concurrentSessions.map { max(1, $0) }
        self.extraHapticsPerMinute = extraHapticsPerMinute.isFinite ? max(0, extraHapticsPerMinute) : 0
        self.problemRateScale = problemRateScale.isFinite ? max(0, problemRateScale) : 1
        self.encoders = encoders
        self.format = format
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
        self.offlineDeviceFraction = offlineDeviceFraction.isNaN ? 0 : min(1, max(0, offlineDeviceFraction))
    }

    /// 2026-11-20T18:00:00Z.
    public static let defaultStartMs: Int64 = 1_795_197_600_000

    /// The releases as this configuration plants problems: `AppVersionBehaviour.releases` with every
    /// rate scaled by `problemRateScale`.
    var releases: [AppVersionBehaviour] {
        problemRateScale == 1 ? AppVersionBehaviour.releases : AppVersionBehaviour.releases.map { $0.scaled(by: problemRateScale) }
    }

    /// Devices used for `.sessions(n)`, never more than there are sessions.
    var deviceCount: Int {
        guard case .sessions(let sessions) = size else { return 0 }
        if let devices { return max(1, min(devices, max(sessions, 1))) }
        let perDevice = max(1, sessionsPerDevicePerDay * max(days, 1))
        return max(1, (sessions + perDevice - 1) / perDevice)
    }
}

/// How much of each kind of upload noise to add, as probabilities per line, per upload or per chunk.
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
    /// Per upload (a file, in the layouts with a file per upload): CRLF line ends.
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
