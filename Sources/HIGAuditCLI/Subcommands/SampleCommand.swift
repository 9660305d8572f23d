import ArgumentParser
import Foundation
import HIGAuditIO
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

        Each device uploads its logs every ten minutes of UTC time (--file-minutes); an upload is \
        zstd-compressed NDJSON, made of upload chunks as separate frames. --layout decides how the \
        uploads are split into files and named; the events, their order per device and the noise are \
        the same in every layout (same seed, same bytes per upload). --layout time, the default, \
        writes a file per upload named by time (DIR/2026-11-20/2140/ipad-0042.ndjson.zst): path \
        order is time order. --layout device writes a file per device holding all of its uploads in \
        order as consecutive frames (DIR/devices/ipad-0042.ndjson.zst). --layout uploads writes a \
        file per upload named by a random-looking upload id (DIR/inbox/3f9a…c1.ndjson.zst): path \
        order mixes the devices at random but keeps each device's uploads in order. \
        SPEC §2 makes each device its own stream, so every layout gives the same tables (the files \
        and source paths aside). --offline-devices 0.15 makes 15 % of the devices (picked from the \
        seed) upload everything late: their files go below DIR/late-uploads/ with the layout's own \
        path, which a directory read reads after everyone else's files.

        With noise (the default) the logs also hold what real uploads contain: reordered, duplicated \
        and late events, malformed lines, unknown event types, mixed timestamp styles, CRLF uploads, \
        skippable frames and frames that end mid-line. All of it is per session or per upload, so it \
        means the same in every layout (a late event is late in every reading that keeps its device's \
        order). The same options and seed always give the same bytes.

        Telemetry SDKs coalesce touch moves and many sessions are short: --move-sampling-ms and \
        --session-length short give such light logs (SampleLogs/ is made this way) with the same planted \
        problems.

        The event mix: --extra-haptics-per-minute adds feedback haptics that plant nothing, \
        --problem-rate-scale multiplies every version's problem rates (the manifest counts what was \
        planted), and --concurrent-sessions N keeps about N sessions in progress at once (N devices \
        active in the same minutes, each running its sessions back to back; the usual days and active \
        hours no longer place them). --layout stream writes a file per period holding every device's \
        lines merged in time order, as a collector receives them (DIR/2026-11-20/1800.ndjson.zst), so \
        that the sessions in progress alternate line by line in reading order; it is the default with \
        --concurrent-sessions. --mix field sets all of these to the shape of field data (short \
        sessions, two a device, about 29 % moved touches, 85 haptics and 23 violations per 1,000 lines, 3,000 \
        sessions interleaved, mixed encoders); options given explicitly override it.

        Examples:
          hig-audit sample --out /tmp/logs --sessions 500 --days 3 --seed 42
          hig-audit sample --out night --session-length short --move-sampling-ms 250
          hig-audit sample --out inbox --layout uploads --offline-devices 0.15
          hig-audit sample --out field --mix field --target-bytes 30000000

        DIR must be new or empty: logs of another sample left beside these would be read with them, and \
        its manifest would be replaced. --force writes into a folder that holds files anyway.

        Exit status: 0 on success; 1 when the logs cannot be written; 64 on a usage error (a DIR that \
        holds files, without --force).
        """
    )

    @Option(name: .long, help: ArgumentHelp("Directory to write the logs into: new or empty (created if needed).", valueName: "dir"))
    var out: String

    @Flag(help: "Write into --out even when it holds files: files of the same name are replaced, the others stay.")
    var force = false

    @Option(help: "Number of app sessions to simulate.")
    var sessions: Int = 200

    @Option(
        name: .customLong("target-bytes"),
        help: ArgumentHelp("Instead of --sessions: add devices until the uncompressed logs reach this size (e.g. 300000000).", valueName: "bytes")
    )
    var targetBytes: Int64?

    @Option(help: "Number of devices for --sessions (default: about four sessions per device per day); not with --target-bytes.")
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

    @Option(help: ArgumentHelp("""
        File layout: time (DATE/HHMM/DEVICE.ndjson.zst, the default: path order is time order), device \
        (devices/DEVICE.ndjson.zst: all of a device's uploads appended in one file), uploads \
        (inbox/UPLOAD-ID.ndjson.zst: random-looking names; path order mixes devices, each device's \
        uploads in order), device-hour (DATE/DEVICE/HHMM.ndjson.zst: a folder per device and day) or \
        stream (DATE/HHMM.ndjson.zst: every device's lines of the period in one file, merged in time \
        order; the default with --concurrent-sessions). hour-device is the old name of time.
        """, valueName: "layout"))
    var layout: String?

    @Option(
        name: .customLong("offline-devices"),
        help: ArgumentHelp("""
            Share of the devices, 0 to 1, that were offline and upload all their logs late: their files \
            go below DIR/late-uploads/ (which sorts after the layout's own folders) with the layout's \
            usual path. Exactly that share of the devices (rounded) is picked from the seed; with \
            --target-bytes each device is offline with that probability. Events and noise do not change.
            """, valueName: "fraction"))
    var offlineDevices: Double = 0

    @Option(help: ArgumentHelp("Minutes one upload covers (a divisor of 60; below 60 files are named HHMM). A session that runs across uploads continues in the device's next one.", valueName: "minutes"))
    var fileMinutes: Int = 10

    @Option(help: "zstd compression level.")
    var level: Int32 = 3

    @Option(help: ArgumentHelp("Log at most one moved touch per gesture every this many milliseconds, as telemetry SDKs coalesce moves (0, the default, logs every move at display rate). The sessions and planted problems stay the same; the logs get much smaller.", valueName: "ms"))
    var moveSamplingMs: Int?

    @Option(help: ArgumentHelp("Session lengths: mixed (20 s to 15 min, mean about 3.4 min, the default) or short (10 s to 5 min, mean about 1.1 min: many sessions in little data).", valueName: "mix"))
    var sessionLength: String?

    @Option(help: ArgumentHelp("Whose JSON writers the devices use: uniform (hig-audit's own SDK on every device, the default) or mixed (each device one of \(SDKEncoder.allCases.map(\.rawValue).joined(separator: ", ")): other key orders, spaces, escapes, timestamp and number forms, CRLF). Only the bytes of event lines differ; events, noise and tables are the same.", valueName: "mix"))
    var encoders: String?

    @Option(
        name: .customLong("concurrent-sessions"),
        help: ArgumentHelp("Keep about this many sessions in progress at once: devices take turns on this many lanes, each running its sessions seconds apart, so they are active in the same minutes (--days and --active-hours then place nothing). With --layout stream, the default then, their lines alternate in reading order.", valueName: "n"))
    var concurrentSessions: Int?

    @Option(
        name: .customLong("extra-haptics-per-minute"),
        help: ArgumentHelp("Feedback haptics per minute of session that the app plays between activities, on devices with haptics on, besides its usual ones (0, the default, adds none). They plant no problem.", valueName: "rate"))
    var extraHapticsPerMinute: Double?

    @Option(
        name: .customLong("problem-rate-scale"),
        help: ArgumentHelp("Multiply every app version's rate of every planted problem by this (each capped at 1; 1, the default, keeps the version table). The manifest counts what was planted.", valueName: "factor"))
    var problemRateScale: Double?

    @Option(help: ArgumentHelp("A preset of the event mix: field (short sessions, two a device, moves sampled every \(SampleMix.fieldMoveSamplingMs) ms, extra haptics, problem rates scaled, \(SampleMix.fieldConcurrentSessions) concurrent sessions in the stream layout, mixed encoders: about 29 % moved touches, 85 haptics and 23 violations per 1,000 lines). Options given explicitly override it.", valueName: "mix"))
    var mix: String?

    @Option(help: ArgumentHelp("The format of the event lines: ndjson (this tool's, the default), or an export that `import --from` reads: \(SampleFormat.allCases.dropFirst().map(\.rawValue).joined(separator: ", ")), each event named hig.<type> with its fields where the format keeps other fields, and each session.start saying touches all. Needs --no-noise and --encoders uniform: upload noise damages NDJSON lines.", valueName: "format"))
    var format: String = SampleFormat.ndjson.rawValue

    func validate() throws {
        guard sessions >= 0 else { throw ValidationError("--sessions must not be negative.") }
        if let targetBytes, targetBytes <= 0 { throw ValidationError("--target-bytes must be positive.") }
        if let devices, devices <= 0 { throw ValidationError("--devices must be positive.") }
        if devices != nil, targetBytes != nil {
            // --target-bytes adds devices until the size is reached: a device count would be ignored.
            throw ValidationError("--devices goes with --sessions; with --target-bytes, devices are added until the logs reach the size.")
        }
        guard (1...3_650).contains(days) else { throw ValidationError("--days must be between 1 and 3650.") }
        guard (1...24).contains(activeHours) else { throw ValidationError("--active-hours must be between 1 and 24.") }
        guard fileMinutes > 0, 60 % fileMinutes == 0 else { throw ValidationError("--file-minutes must divide 60.") }
        if let moveSamplingMs, !(0...60_000).contains(moveSamplingMs) { throw ValidationError("--move-sampling-ms must be between 0 and 60000.") }
        guard (-7...22).contains(level) else { throw ValidationError("--level must be between -7 and 22.") }
        if let layout, SampleConfiguration.Layout(name: layout) == nil {
            throw ValidationError("--layout must be time, device, uploads, device-hour or stream (or hour-device, the old name of time).")
        }
        guard offlineDevices >= 0, offlineDevices <= 1 else {
            throw ValidationError("--offline-devices must be between 0 and 1.")
        }
        if let sessionLength, SessionLength(rawValue: sessionLength) == nil {
            throw ValidationError("--session-length must be mixed or short.")
        }
        if let encoders, EncoderMix(rawValue: encoders) == nil {
            throw ValidationError("--encoders must be uniform or mixed.")
        }
        if let concurrentSessions, !(1...1_000_000).contains(concurrentSessions) {
            throw ValidationError("--concurrent-sessions must be between 1 and 1000000.")
        }
        if let extraHapticsPerMinute, !(0...600).contains(extraHapticsPerMinute) {
            throw ValidationError("--extra-haptics-per-minute must be between 0 and 600.")
        }
        if let problemRateScale, !(0...100).contains(problemRateScale) {
            throw ValidationError("--problem-rate-scale must be between 0 and 100.")
        }
        if let mix, SampleMix(rawValue: mix) == nil {
            throw ValidationError("--mix must be \(SampleMix.allCases.map(\.rawValue).joined(separator: " or ")).")
        }
        guard let sampleFormat = SampleFormat(rawValue: format) else {
            throw ValidationError("--format must be \(SampleFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if sampleFormat != .ndjson, noise {
            throw ValidationError("--format \(format) writes clean exports only: add --no-noise (upload noise damages NDJSON lines, not an export's).")
        }
        let effectiveEncoders = try configuration().encoders
        if sampleFormat != .ndjson, effectiveEncoders != .uniform {
            throw ValidationError("--format \(format) has its own writer: leave out --encoders \(effectiveEncoders.rawValue)\(encoders == nil ? " (--mix \(mix ?? "") sets it: add --encoders uniform)" : "").")
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

    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<SampleMessages>

    func run() throws {
        if !force, let refusal = Self.refusal(of: out) { throw UsageError(refusal).exit() }
        // Made first, so that a folder that cannot be is said in words (a path under a file, no
        // permission), not as the platform's error object.
        let failure = OutputPaths.makeDirectory(out)
        var isDirectory: ObjCBool = false
        guard failure == 0, FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue else {
            let why = failure != 0 ? String(cString: strerror(failure)) : "it is a file, not a folder"
            throw FatalError("cannot create the folder \(out): \(why)").exit()
        }
        let manifest = try SampleGenerator(configuration: try configuration()).write(to: URL(fileURLWithPath: out))
        if verbosity.level.saysNotes { FileHandle.standardError.write(Data(manifest.summary().utf8)) }
    }

    /// The configuration the options ask for: the defaults, then the `--mix` preset, then every option
    /// given explicitly.
    func configuration() throws -> SampleConfiguration {
        var configuration = SampleConfiguration(
            size: targetBytes.map { .targetBytes($0) } ?? .sessions(sessions),
            seed: seed, days: days, startMs: try startMilliseconds(), activeHours: activeHours, devices: devices,
            noise: noise ? .realistic : .none, layout: .time, fileMinutes: fileMinutes, compressionLevel: level,
            offlineDeviceFraction: offlineDevices, format: SampleFormat(rawValue: format) ?? .ndjson
        )
        if let mix { SampleMix(rawValue: mix)?.apply(to: &configuration) }
        if let moveSamplingMs { configuration.moveSamplingMs = moveSamplingMs }
        if let sessionLength { configuration.sessionLength = SessionLength(rawValue: sessionLength) ?? .mixed }
        if let encoders { configuration.encoders = EncoderMix(rawValue: encoders) ?? .uniform }
        if let extraHapticsPerMinute { configuration.extraHapticsPerMinute = extraHapticsPerMinute }
        if let problemRateScale { configuration.problemRateScale = problemRateScale }
        if let concurrentSessions {
            configuration.concurrentSessions = concurrentSessions
            if mix == nil { configuration.layout = .stream }
        }
        if let layout { configuration.layout = SampleConfiguration.Layout(name: layout) ?? .time }
        return configuration
    }

    /// Why `out` cannot take a sample without `--force`: it holds files, or is not a directory.
    static func refusal(of out: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return "--out \(out) is a file, not a folder; choose a folder for the logs" }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        guard !entries.isEmpty else { return nil }
        let named = entries.contains("sample-manifest.json") ? "sample-manifest.json" : entries.sorted()[0]
        return "--out \(out) already holds \(entries.count) entr\(entries.count == 1 ? "y" : "ies") (\(named)…); "
            + "write the sample into a new or empty folder, or add --force to write into this one"
    }
}
