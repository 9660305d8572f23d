import ArgumentParser
import Foundation
import HIGAuditSample

/// `hig-audit sample`: writes realistic zstd NDJSON logs of an iPad drawing app with known guideline
/// problems, for trying the tool, for tests and for benchmarks.
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Write realistic sample logs with known guideline problems.",
        discussion: """
        Simulates "Sketchbook", an iPad drawing app, on many devices: Pencil strokes, tab and \
        navigation changes, modals, saves, exports, camera imports and the haptics that go with them. \
        Three app versions behave differently: 5.1.0 is the baseline, 5.2.0 regresses (forced tab \
        switches after saving, three-deep modals, haptic bursts, double-tap mapped to delete, …), and \
        5.2.1 fixes most of it. Each problem is planted at a known rate per version; the counts are \
        written to DIR/sample-manifest.json and summarised on standard error.

        Files are zstd-compressed NDJSON, one per device per ten minutes of UTC time \
        (DIR/2026-11-20/2140/ipad-0042.ndjson.zst), each made of upload chunks as separate frames; \
        path order is time order, so a whole directory reads as one stream. \
        With noise (the default) the logs also hold what real uploads contain: reordered, duplicated \
        and late events, malformed lines, unknown event types, mixed timestamp styles, CRLF files, \
        skippable frames and frames that end mid-line. The same options and seed always give the \
        same bytes.

        Telemetry SDKs coalesce touch moves and many sessions are short: --move-sampling-ms and \
        --session-length short give such light logs (SampleLogs/ is made this way) with the same planted \
        problems.

        Examples:
          hig-audit sample --out /tmp/logs --sessions 500 --days 3 --seed 42
          hig-audit sample --out night --session-length short --move-sampling-ms 250
        """
    )

    @Option(name: .long, help: ArgumentHelp("Directory to write the logs into (created if needed).", valueName: "dir"))
    var out: String

    @Option(help: "Number of app sessions to simulate.")
    var sessions: Int = 200

    @Option(
        name: .customLong("target-bytes"),
        help: ArgumentHelp("Instead of --sessions: add devices until the uncompressed logs reach this size (e.g. 300000000).", valueName: "bytes")
    )
    var targetBytes: Int64?

    @Option(help: "Number of devices (default: about four sessions per device per day).")
    var devices: Int?

    @Option(help: "Seed of the generator; the same seed gives the same files.")
    var seed: UInt64 = 1

    @Option(help: "Number of days of usage.")
    var days: Int = 1

    @Option(help: ArgumentHelp("When the first day's usage window opens (RFC 3339).", valueName: "time"))
    var start: String = "2026-11-20T18:00:00Z"

    @Option(help: "Hours per day during which sessions start.")
    var activeHours: Int = 6

    @Flag(inversion: .prefixedNo, help: "Add the noise of real uploads (use --no-noise for clean data).")
    var noise: Bool = true

    @Option(help: ArgumentHelp("File layout: hour-device (DATE/HHMM/DEVICE, the default: path order is time order, so a directory reads as one stream) or device-hour (DATE/DEVICE/HHMM: each device's files in a row, which trips the session gap across devices).", valueName: "layout"))
    var layout: String = SampleConfiguration.Layout.hourDevice.rawValue

    @Option(help: ArgumentHelp("Minutes one file covers (a divisor of 60; below 60 files are named HHMM). The default 10 keeps every file well inside the 30-minute session gap, which the whole input shares (SPEC §2).", valueName: "minutes"))
    var fileMinutes: Int = 10

    @Option(help: "zstd compression level.")
    var level: Int32 = 3

    @Option(help: ArgumentHelp("Log at most one moved touch per gesture every this many milliseconds, as telemetry SDKs coalesce moves (0, the default, logs every move at display rate). The sessions and planted problems stay the same; the logs get much smaller.", valueName: "ms"))
    var moveSamplingMs: Int = 0

    @Option(help: ArgumentHelp("Session lengths: mixed (20 s to 15 min, mean about 3.4 min, the default) or short (10 s to 5 min, mean about 1.1 min: many sessions in little data).", valueName: "mix"))
    var sessionLength: String = SessionLength.mixed.rawValue

    func validate() throws {
        guard sessions >= 0 else { throw ValidationError("--sessions must not be negative.") }
        if let targetBytes, targetBytes <= 0 { throw ValidationError("--target-bytes must be positive.") }
        if let devices, devices <= 0 { throw ValidationError("--devices must be positive.") }
        guard (1...3_650).contains(days) else { throw ValidationError("--days must be between 1 and 3650.") }
        guard (1...24).contains(activeHours) else { throw ValidationError("--active-hours must be between 1 and 24.") }
        guard fileMinutes > 0, 60 % fileMinutes == 0 else { throw ValidationError("--file-minutes must divide 60.") }
        guard (0...60_000).contains(moveSamplingMs) else { throw ValidationError("--move-sampling-ms must be between 0 and 60000.") }
        guard (-7...22).contains(level) else { throw ValidationError("--level must be between -7 and 22.") }
        guard SampleConfiguration.Layout(rawValue: layout) != nil else {
            throw ValidationError("--layout must be device-hour or hour-device.")
        }
        guard SessionLength(rawValue: sessionLength) != nil else {
            throw ValidationError("--session-length must be mixed or short.")
        }
        _ = try startMilliseconds()
    }

    private func startMilliseconds() throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: start) ?? fractional.date(from: start) else {
            throw ValidationError("--start must be an RFC 3339 time such as 2026-11-20T18:00:00Z.")
        }
        let ms = (date.timeIntervalSince1970 * 1_000).rounded()
        // Years 1970…9999 keep every generated timestamp a four-digit RFC 3339 year.
        guard ms >= 0, ms < 253_402_300_800_000 - Double(days) * 86_400_000 else {
            throw ValidationError("--start must be between 1970 and 9999.")
        }
        return Int64(ms)
    }

    func run() throws {
        let configuration = SampleConfiguration(
            size: targetBytes.map { .targetBytes($0) } ?? .sessions(sessions),
            seed: seed, days: days, startMs: try startMilliseconds(), activeHours: activeHours, devices: devices,
            noise: noise ? .realistic : .none, layout: SampleConfiguration.Layout(rawValue: layout) ?? .hourDevice,
            fileMinutes: fileMinutes, compressionLevel: level, moveSamplingMs: moveSamplingMs,
            sessionLength: SessionLength(rawValue: sessionLength) ?? .mixed
        )
        let manifest = try SampleGenerator(configuration: configuration).write(to: URL(fileURLWithPath: out))
        FileHandle.standardError.write(Data(manifest.summary().utf8))
    }
}
