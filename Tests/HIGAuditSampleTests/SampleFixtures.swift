import Foundation
import HIGAuditSample

/// Generated sample data shared by the suites (generated once per configuration).
enum SampleFixtures {
    static func generate(_ configuration: SampleConfiguration) throws -> (files: [SampleLogFile], manifest: SampleManifest) {
        var sink = InMemorySampleLogSink()
        let manifest = try SampleGenerator(configuration: configuration).generate(into: &sink)
        return (sink.files, manifest)
    }

    static let small = SampleConfiguration(size: .sessions(24), seed: 11, days: 2)
    /// Moves coalesced to 10 Hz: the same sessions and planted problems as at display rate (tested in
    /// `SampleDeterminismTests`) in a third of the lines, so the line-by-line checks stay fast.
    static let clean = SampleConfiguration(size: .sessions(80), seed: 1, days: 2, noise: .none, moveSamplingMs: 100)
    /// Plenty of noise of every kind in little data.
    static let noisy: SampleConfiguration = {
        var noise = NoiseProfile.realistic
        noise.reorder = 0.05
        noise.duplicate = 0.02
        noise.late = 0.01
        noise.unknownType = 0.01
        noise.malformed = 0.01
        noise.blank = 0.005
        noise.crlfFile = 0.3
        noise.skippableFrame = 0.3
        return SampleConfiguration(size: .sessions(40), seed: 3, days: 2, noise: noise, moveSamplingMs: 100)
    }()

    /// `noisy`, its devices writing as every encoder does in turn (`--encoders mixed`).
    static let noisyMixedEncoders: SampleConfiguration = {
        var configuration = noisy
        configuration.encoders = .mixed
        return configuration
    }()

    /// `noisy` as `--mix field` shapes it: lanes of sessions interleaved line by line, extra haptics,
    /// problem rates scaled, mixed encoders.
    static let noisyField: SampleConfiguration = {
        var configuration = noisy
        SampleMix.field.apply(to: &configuration)
        configuration.concurrentSessions = 12
        return configuration
    }()

    /// Splits file contents into lines the way SPEC §2 does (`\n` or `\r\n`).
    static func lines(of contents: [UInt8]) -> [String] {
        var lines = contents.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
    }

    /// Files in the order a directory is read (lexicographic paths).
    static func inReadingOrder(_ files: [SampleLogFile]) -> [SampleLogFile] {
        files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}

/// Parses SPEC §2 timestamps (RFC 3339 with any offset and 0–9 fraction digits, or integer ms).
enum TimestampParser {
    static func milliseconds(_ value: Any?) -> Int64? {
        if !(value is String), let number = value as? NSNumber {
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 1e15 ? Int64(double) : nil
        }
        guard let text = value as? String else { return nil }
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
              let day = number(8, 2), bytes[10] == 84, let hour = number(11, 2), bytes[13] == 58,
              let minute = number(14, 2), bytes[16] == 58, let second = number(17, 2) else { return nil }
        var index = 19
        var millis = 0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var digits = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if digits < 3 { millis = millis * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] == 90, index + 1 == bytes.count {
            offset = 0
        } else if bytes[index] == 43 || bytes[index] == 45, index + 6 == bytes.count,
                  let oh = number(index + 1, 2), bytes[index + 3] == 58, let om = number(index + 4, 2) {
            offset = (oh * 60 + om) * (bytes[index] == 45 ? -1 : 1)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // days from civil (Howard Hinnant)
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = Int64(era * 146_097 + doe - 719_468)
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offset * 60)
        return seconds * 1_000 + Int64(millis)
    }
}

/// Accepted events per session after the SPEC §2 buckets (duplicate by `id`, late beyond 10 s), each
/// session sorted by `ts` with ties in input order: what the rules see.
enum AcceptedEvents {
    typealias Session = [(ts: Int64, type: String, fields: [String: Any])]

    /// Which clock closes sessions (SPEC §2: (a) 10 s past the earliest `session.end`, (b) more than
    /// 30 minutes past the session's newest `ts`); a later event of a closed session is late.
    enum SessionClock {
        /// Sessions close only at the end of input.
        case none
        /// SPEC v1: one clock for the whole input, the newest accepted `ts` of any device.
        case wholeStream
        /// SPEC v2: a session belongs to the device of its first event; the device's clock is the `ts`
        /// of its latest accepted event (not the largest), and only it closes the device's sessions.
        case perDevice
    }

    /// The files are read in directory order (lexicographic paths).
    static func bySession(_ files: [SampleLogFile], clock: SessionClock = .none) -> [String: Session] {
        bySession(inOrder: SampleFixtures.inReadingOrder(files), clock: clock).sessions
    }

    /// The files are read in the order given; also returns how many events were late (closed sessions
    /// included).
    static func bySession(inOrder files: [SampleLogFile], clock: SessionClock) -> (sessions: [String: Session], late: Int) {
        var sessions: [String: Session] = [:]
        var seenIDs: [String: Set<String>] = [:]
        var newest: [String: Int64] = [:]
        var ends: [String: Int64] = [:]
        var deviceOf: [String: String] = [:]
        var openByDevice: [String: Set<String>] = [:]
        var closed = Set<String>()
        var wholeStreamNewest = Int64.min
        var late = 0

        func shouldClose(_ session: String, at clock: Int64) -> Bool {
            guard let top = newest[session] else { return false }
            if let end = ends[session], clock >= end + 10_000 { return true }
            return clock > top + 1_800_000
        }

        for file in files {
            for line in SampleFixtures.lines(of: file.contents) {
                guard case .event(let ts, let session, let type, let fields) = SpecLineClassifier.classify(line) else { continue }
                if !type.hasPrefix("loading."), let id = fields["id"] as? String {
                    guard seenIDs[session, default: []].insert(id).inserted else { continue }
                }
                switch clock {
                case .none, .perDevice:
                    break
                case .wholeStream:
                    if shouldClose(session, at: wholeStreamNewest) { closed.insert(session) }
                }
                if closed.contains(session) {
                    late += 1
                    continue
                }
                if let top = newest[session], ts < top - 10_000 {
                    late += 1
                    continue
                }
                newest[session] = max(newest[session] ?? ts, ts)
                wholeStreamNewest = max(wholeStreamNewest, ts)
                if type == "session.end" { ends[session] = min(ends[session] ?? ts, ts) }
                sessions[session, default: []].append((ts, type, fields))
                if clock == .perDevice {
                    let device = deviceOf[session] ?? (fields["device"] as? String ?? "")
                    deviceOf[session] = device
                    openByDevice[device, default: []].insert(session)
                    // The device's clock is now `ts`: close every session of the device it has passed.
                    for open in openByDevice[device, default: []] where shouldClose(open, at: ts) {
                        closed.insert(open)
                        openByDevice[device]?.remove(open)
                    }
                }
            }
        }
        for key in sessions.keys {
            sessions[key] = sessions[key]?.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(\.element)
        }
        return (sessions, late)
    }
}
