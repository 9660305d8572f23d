import Foundation
import Testing
@testable import HIGAuditCore
@testable import HIGAuditSample

/// The same events written the way every `SDKEncoder` writes them decode to the same `Event`s, by the
/// strict decoder alone and by a decoder with its fast paths, whose every line is checked against the
/// strict one (`FastPathVerification`).
@Suite struct EncoderCorpusTests {
    /// What the generator never writes: non-ASCII (two, three and four UTF-8 bytes), `/`, quotes,
    /// backslashes, HTML-sensitive characters, control characters, long texts, numbers far from 1.
    static let unusualEvents: [Event] = [
        Event(ts: 1_795_197_600_123, session: "séance-01", payload: .navPush(to: "Café/Crème"), device: "ipad-ü", screen: "Home"),
        Event(ts: 1_795_197_600_124, session: "séance-01", payload: .tabSwitch(from: "a<b>&'c", to: "\"quoted\" \\ back"),
              app: "Sketch+Pro", appVersion: "2.0+build/7", id: "e/1"),
        Event(ts: 1_795_197_600_125, session: "séance-01", payload: .modalPresent(modal: "tab\tnew\nline", style: .pageSheet),
              screen: "😀 emoji screen"),
        Event(ts: 1_795_197_600_126, session: "a-session-id-longer-than-sixteen-bytes",
              payload: .touch(Touch(phase: .moved, target: "canvas", input: .pencil, x: 1e-7, y: 123_456_789.125)),
              device: "a-device-name-longer-than-sixteen", id: "ünïcødé-id-over-16-bytes"),
        Event(ts: 1_795_197_600_000, session: "s", payload: .haptic(kind: .impactLight, durationMs: 0.1)),
        Event(ts: 1_795_197_600_001, session: "s", payload: .widgetDisplay(widget: "日本語", content: .placeholder, loadMs: 2_500)),
        Event(ts: 1_795_197_600_002, session: "s", payload: .contentMutation(action: .delete, object: nil, undoable: false)),
        Event(ts: 1_795_197_600_003, session: "s", payload: .sessionStart(SessionSettings(
            hapticsEnabled: false, pencilPreferredAction: .ignore, pencilCustomActionEnabled: true))),
        Event(ts: 1_795_197_600_004, session: "s", payload: .loadingStart(id: "l/1", indicator: .spinner), screen: "Ω"),
        Event(ts: 1_795_197_600_005, session: "s", payload: .loadingEnd(id: "l/1")),
        Event(ts: -1_000, session: "s", payload: .permissionRequest(permission: .camera, result: nil)),
    ]

    /// The events of a clean generated sample, as the uniform encoder's lines decode, then the unusual ones.
    static let corpus: [Event] = {
        var events: [Event] = []
        var decoder = EventDecoder(learnsLineShapes: false)
        let configuration = SampleConfiguration(size: .sessions(6), seed: 5, noise: .none, moveSamplingMs: 200)
        let files = (try? SampleFixtures.generate(configuration).files) ?? []
        for file in SampleFixtures.inReadingOrder(files) {
            for line in SampleFixtures.lines(of: file.contents) {
                if case .event(let event) = decoder.decode(line) { events.append(event) }
            }
        }
        return events + unusualEvents
    }()

    @Test(arguments: SDKEncoder.allCases)
    func everyEncodersLinesDecodeToTheSameEvents(encoder: SDKEncoder) throws {
        #expect(Self.corpus.count > 1_000)
        var lineEncoder = DeviceLineEncoder(encoder: encoder, seed: 1, device: 3)
        var noise = SampleRandom(seed: 9)
        var fast = EventDecoder(learnsLineShapes: true, verification: FastPathVerification(interval: 1, onMismatch: .record))
        for (index, event) in Self.corpus.enumerated() {
            var bytes: [UInt8] = []
            // Every third line in a style the noise might pick, the others in the encoder's own.
            let style = index % 3 == 0 ? TimestampStyle.random(for: event.ts, using: &noise) : .standard
            lineEncoder.append(event, timestamp: style, to: &bytes)
            let line = String(decoding: bytes, as: UTF8.self)
            var strict = EventDecoder(learnsLineShapes: false)
            #expect(strict.decode(line) == .event(event), "\(encoder): \(line)")
            #expect(fast.decode(line) == .event(event), "\(encoder): \(line)")
        }
        #expect(fast.verification?.mismatches == [])
        #expect(fast.verification?.checkedLines == Self.corpus.count)
    }

    /// Learned shapes cover the lines of every writer that keeps its key order, whatever else its habits
    /// (spaces, escapes, exponents, nulls, a changing member of its own): after a few lines of each
    /// layout nearly every line matches. Foundation's writer puts the keys in a new order on every line,
    /// which no shape can cover: its lines are decoded by the general scan, and left unlearned.
    @Test(arguments: SDKEncoder.allCases)
    func learnedShapesCoverTheLinesOfEveryWriterThatKeepsItsKeyOrder(encoder: SDKEncoder) {
        var lineEncoder = DeviceLineEncoder(encoder: encoder, seed: 1, device: 3)
        var decoder = EventDecoder(learnsLineShapes: true)
        let events = Self.corpus.dropLast(Self.unusualEvents.count)
        for event in events {
            var bytes: [UInt8] = []
            lineEncoder.append(event, timestamp: .standard, to: &bytes)
            _ = bytes.withUnsafeBytes { decoder.decode($0) }
        }
        let matched = Double(decoder.lineShapes.matchedLines) / Double(events.count)
        if encoder == .foundation {
            #expect(matched < 0.1, "\(matched)")
        } else {
            #expect(matched > 0.9, "\(encoder): \(matched)")
        }
    }

    /// Each encoder's lines are its own bytes: no two encoders write the corpus alike, and the
    /// habits that name them show.
    @Test func encodersDifferInTheirBytes() {
        var written: [SDKEncoder: String] = [:]
        for encoder in SDKEncoder.allCases {
            var lineEncoder = DeviceLineEncoder(encoder: encoder, seed: 1, device: 0)
            var bytes: [UInt8] = []
            for event in Self.unusualEvents {
                lineEncoder.append(event, timestamp: .standard, to: &bytes)
                bytes.append(0x0A)
            }
            written[encoder] = String(decoding: bytes, as: UTF8.self)
        }
        #expect(Set(written.values).count == SDKEncoder.allCases.count)
        #expect(written[.python]?.contains(#""s\u00e9ance-01", "#) == true)
        #expect(written[.python]?.contains("+00:00") == true)
        #expect(written[.foundation]?.contains(#"Caf\u00e9\/Cr"#) == false)
        #expect(written[.foundation]?.contains(#"Café\/Crème"#) == true)
        #expect(written[.dotnet]?.contains(#"\u0022quoted\u0022"#) == true)
        #expect(written[.go]?.contains(#"a\u003cb\u003e\u0026'c"#) == true)
        #expect(written[.cLogger]?.contains("e+") == true)
        #expect(written[.javascript]?.contains(#""ts":1795197600123"#) == true)
    }

    /// A whole noisy sample with mixed encoders, every line checked against the reference decoder.
    @Test(arguments: [SampleFixtures.noisy, SampleFixtures.noisyMixedEncoders])
    func fastPathsAgreeWithTheStrictDecoderOnASample(configuration: SampleConfiguration) throws {
        let (files, _) = try SampleFixtures.generate(configuration)
        var decoder = EventDecoder(learnsLineShapes: true, verification: FastPathVerification(interval: 1, onMismatch: .record))
        var lines = 0
        for file in SampleFixtures.inReadingOrder(files) {
            for line in SampleFixtures.lines(of: file.contents) {
                _ = decoder.decode(line)
                lines += 1
            }
        }
        #expect(decoder.verification?.checkedLines == lines)
        #expect(decoder.verification?.mismatches == [])
        #expect(decoder.lineShapes.matchedLines > 0)
    }

    /// `--encoders mixed` changes bytes, never events: the same events per device, in the same order.
    @Test func mixedEncodersWriteTheSameEvents() throws {
        var uniform = SampleFixtures.noisy
        uniform.layout = .device
        var mixed = uniform
        mixed.encoders = .mixed
        func events(_ configuration: SampleConfiguration) throws -> [String: [DecodedLine]] {
            var decoder = EventDecoder()
            var byFile: [String: [DecodedLine]] = [:]
            for file in try SampleFixtures.generate(configuration).files {
                byFile[file.path] = SampleFixtures.lines(of: file.contents).map { line in
                    // Malformed lines are the noise's own bytes; their reasons may cite columns.
                    decoder.decode(line)
                }
            }
            return byFile
        }
        let a = try events(uniform)
        let b = try events(mixed)
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, lines) in a {
            let other = b[path] ?? []
            #expect(lines.count == other.count, "\(path)")
            if let index = zip(lines, other).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("\(path) line \(index + 1): \(lines[index]) against \(other[index])")
            }
        }
    }
}
