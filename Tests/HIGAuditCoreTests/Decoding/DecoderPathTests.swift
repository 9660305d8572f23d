import Foundation
import Testing
@testable import HIGAuditCore

/// The two decoding paths (`EventDecoder`): which one a build's decoders take, and that the reference
/// path stands alone.
@Suite struct DecoderPathTests {
    /// Set by `.ci/run` for the suite's second run, built with `-DHIG_REFERENCE_DECODER`: that run must
    /// really be on the reference path, or it would pass while testing nothing new.
    static let expectsReferencePathVariable = "HIG_AUDIT_EXPECT_REFERENCE_DECODER"

    static let lines = (0..<40).map { index in
        #"{"ts":\#(1_795_197_600_000 + index),"session":"s","type":"touch","phase":"moved","target":"canvas","x":\#(index),"y":2}"#
    }

    /// A program's decoder takes the accelerated path (lines matched against learned shapes) unless
    /// the build asks for the reference path, and then none does; a run that expects the reference
    /// path fails on a build without it.
    @Test func aProgramsDecoderTakesThePathItsBuildSays() {
        var decoder = EventDecoder()
        for line in Self.lines { #expect(decoder.decode(line) != .blank) }
        if EventDecoder.acceleratedPathIsCompiledIn {
            #expect(decoder.lineShapes.matchedLines > 30)
        } else {
            #expect(decoder.lineShapes.matchedLines == 0)
        }
        if ProcessInfo.processInfo.environment[Self.expectsReferencePathVariable] == "1" {
            #expect(!EventDecoder.acceleratedPathIsCompiledIn, "built without -DHIG_REFERENCE_DECODER")
            #expect(decoder.lineShapes.matchedLines == 0)
        }
    }

    /// A decoder asked for the reference path never matches a shape, whatever the build.
    @Test func theReferencePathLearnsNoShapes() {
        var decoder = EventDecoder(learnsLineShapes: false)
        for line in Self.lines { _ = decoder.decode(line) }
        #expect(decoder.lineShapes.matchedLines == 0)
    }

    /// The reference decoder on its own gives what `EventDecoder` gives, events, unknown types and
    /// malformed lines alike, also on lines that the accelerated path reads in its own ways (escaped
    /// keys, repeated strings, a changing minute, numbers written with exponents).
    @Test func theReferenceDecoderGivesWhatTheEventDecoderGives() {
        let other: [String] = [
            #"{"t\u0073":"2026-11-20T18:00:00.123Z","session":"s","type":"app.ready"}"#,
            #"{"ts":"2026-11-20T18:01:59.999+01:00","session":"s","type":"app.ready"}"#,
            #"{"ts":1e3,"session":"s","type":"haptic","kind":"impact","duration_ms":1.5E1}"#,
            #"{"ts":1,"session":"s","type":"haptic","kind":"impact","duration_ms":-1}"#,
            #"{"ts":1,"session":"s","type":"mystery","id":"e1"}"#,
            #"{"ts":1,"session":"s","type":"touch","phase":"moved","phase":"ended"}"#,
            #"{"ts":1,"session":"s","type":"touch","phase":"moved""#,
            #"  "#,
            #"[1]"#,
        ]
        var eventDecoder = EventDecoder()
        var reference = ReferenceDecoder()
        for line in Self.lines + other + Self.lines {
            var event: Event?
            let verdict = Array(line.utf8).withUnsafeBytes {
                reference.decode($0, source: .unknown, accept: { event = $0 })
            }
            let expected: DecodedLine = switch verdict {
            case .blank: .blank
            case .event: event.map { .event($0) } ?? .blank
            case .unknownType(let name): .unknownType(name)
            case .malformed(let problem): .malformed(problem)
            }
            #expect(eventDecoder.decode(line) == expected, "\(line)")
        }
    }

    /// A line over the limit is malformed on the reference path too, without being scanned.
    @Test func theReferenceDecoderRefusesOverlongLines() {
        let line = [UInt8](repeating: 0x20, count: EventDecoder.maxLineLength + 1)
        var reference = ReferenceDecoder()
        let verdict = line.withUnsafeBytes { reference.decode($0, source: .unknown, accept: { _ in }) }
        #expect(verdict == .malformed(MalformedLine(reason: "line longer than 1 MiB (1048577 bytes)")))
    }
}
