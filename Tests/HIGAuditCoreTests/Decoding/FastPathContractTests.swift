import Foundation
import Testing
@testable import HIGAuditCore

/// The fast paths' one contract, fuzzed: whatever a decoder that remembers earlier lines (learned
/// shapes, recognised key heads, recent strings) gives for a line is what a fresh strict decoder gives for
/// it alone. Lines are valid lines written in several layouts, with new values and random damage, so
/// that shapes are learned and then offered lines that nearly match them.
@Suite struct FastPathContractTests {
    /// Valid lines in several writers' layouts; `#` marks where a changing value goes.
    static let templates: [String] = [
        ##"{"ts":"2026-11-20T18:00:0#.123Z","session":"s1","type":"touch","id":"e#","device":"ipad-0001","screen":"Canvas","phase":"moved","target":"canvas","input":"pencil","x":#.5,"y":#}"##,
        ##"{"type": "touch", "ts": 179519760#, "session": "s1", "phase": "began", "x": #.0, "y": 2.5e#, "id": null}"##,
        ##"{ "ts" : "2026-11-20T18:00:0#.123456789+05:30" , "session" : "s\u00e9#" , "type" : "nav.push" , "to" : "Settings\/#" }"##,
        ##"{"session":"s2","ts":#,"type":"haptic","kind":"impact.light","duration_ms":1#e-1,"screen":"Home"}"##,
        ##"{"id":"e#","ts":"2026-11-20T18:00:0#Z","type":"outcome","session":"s2","result":"success","task":"t#","extra":{"a":[1,#,{"b":null}]}}"##,
        ##"{"ts":"2026-11-20T18:00:0#.1Z","session":"s3","type":"session.start","haptics_enabled":false,"pencil_preferred_action":"ignore","app_version":"#.0"}"##,
        ##"{"ts":179519760#,"session":"s3","type":"session.start","touches":"sampled","synthetic":true,"device":"d#"}"##,
        ##"{"ts":"2026-11-20T18:00:0#\u002B01:00","session":"s3","type":"loading.start","id":"l#","indicator":"spinner"}"##,
        ##"{"ts":1795197600#,"session":"s4","type":"widget.display","widget":"w#","content":"cached","load_ms":#}"##,
        ##"{"ts":"2026-11-20 18:00:0#.5+00:00","session":"s5","type":"touch","phase":"ended","id":"e#"}"##,
        ##"{"ts":1795197600#.0,"session":"s5","type":"touch","phase":"began","id":"e#"}"##,
        ##"{"ts":1.79519760#e12,"session":"s6","type":"touch","phase":"moved","id":"e#"}"##,
        // UUID session and event ids, in both cases, mixed, escaped, and of a changing length.
        ##"{"ts":#,"session":"3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1f","type":"touch","phase":"moved","id":"9C1F6A0D-2E4B-4B7E-8C1F-00000000000#"}"##,
        ##"{"ts":#,"session":"3F2B8C1E-5D4A-4B7E-9C1F-6A0D2E4B8C1F","type":"haptic","kind":"selection","device":"d-0000000#"}"##,
        ##"{"ts":#,"session":"3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8C1F","type":"touch","phase":"began"}"##,
        ##"{"ts":#,"session":"3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1f","type":"nav.pop","to":"s#"}"##,
        ##"{"ts":#,"session":"00000000-0000-4000-8000-00000000000#","type":"touch","phase":"ended","screen":"12345678-1234-1234-1234-12345678901#"}"##,
    ]

    /// Bytes that make near-misses: JSON's structure, escapes, number parts, whitespace.
    static let damage: [UInt8] = Array(#"{}[]",:\/ute0123456789.-+E"#.utf8) + [0x09, 0x0A, 0x0D, 0x00, 0xC3, 0xA9, 0xFF]

    static func line(_ template: String, using random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = []
        for byte in template.utf8 {
            if byte == UInt8(ascii: "#") {
                bytes += Array(String(random.next() % (random.next() % 3 == 0 ? 10 : 100_000)).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    static func damaged(_ line: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = line
        for _ in 0..<(1 + Int(random.next() % 3)) where !bytes.isEmpty {
            let at = Int(random.next() % UInt64(bytes.count))
            let byte = damage[Int(random.next() % UInt64(damage.count))]
            switch random.next() % 5 {
            case 0: bytes[at] = byte
            case 1: bytes.insert(byte, at: at)
            case 2: bytes.remove(at: at)
            case 3: bytes.removeSubrange(at...)
            default:
                // A stretch of the line repeated: duplicate keys, doubled separators.
                let end = min(bytes.count, at + 1 + Int(random.next() % 24))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
        return bytes
    }

    static func strict(_ line: [UInt8]) -> DecodedLine {
        var decoder = EventDecoder(learnsLineShapes: false)
        return line.withUnsafeBytes { decoder.decode($0) }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func damagedAndChangedLinesDecodeAsTheStrictDecoderDecodesThem(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var learning = EventDecoder(learnsLineShapes: true)
        var events = 0
        var malformed = 0
        for _ in 0..<1_500 {
            // Runs of one template, so shapes are learned and then tried.
            let template = Self.templates[Int(random.next() % UInt64(Self.templates.count))]
            for _ in 0..<(1 + Int(random.next() % 6)) {
                var line = Self.line(template, using: &random)
                if random.next() % 4 == 0 { line = Self.damaged(line, using: &random) }
                let expected = Self.strict(line)
                let actual = line.withUnsafeBytes { learning.decode($0) }
                #expect(actual == expected, "\(String(decoding: line, as: UTF8.self))")
                if case .event = expected { events += 1 }
                if case .malformed = expected { malformed += 1 }
            }
        }
        // Both verdicts were exercised, and the fast path was taken.
        #expect(events > 300 && malformed > 300, "\(events) \(malformed)")
        #expect(learning.lineShapes.matchedLines > 100)
    }

    /// JSONTestSuite's documents where a learned shape reads a changing value (a string, a number, and
    /// a value seen both ways), after lines that taught the shape: a match must take none that the
    /// strict decoder would not read as such.
    @Test func conformanceDocumentsInChangingValuesAreReadAsTheStrictDecoderReadsThem() {
        let names = JSONTestSuiteTests.documents(in: "test_parsing")
        #expect(names.count == 318)
        let slots: [(before: String, after: String, teach: [String])] = [
            (#"{"ts":1795197600123,"session":"s","type":"touch","phase":"moved","target":"#, #","x":1}"#,
             [#""canvas""#, #""button""#, #""tab""#, #""nav""#]),
            (#"{"ts":1795197600123,"session":"s","type":"touch","phase":"moved","target":"t","x":"#, #"}"#,
             ["1", "2.5", "-3", "40"]),
            (#"{"ts":"#, #","session":"s","type":"app.ready"}"#,
             ["1795197600123", #""2026-11-20T18:00:00Z""#, "1795197600124", #""2026-11-20T18:00:01Z""#]),
        ]
        var learning = EventDecoder(learnsLineShapes: true)
        var compared = 0
        for slot in slots {
            for name in names {
                for value in slot.teach + slot.teach {
                    let line = Array((slot.before + value + slot.after).utf8)
                    #expect(line.withUnsafeBytes { learning.decode($0) } == Self.strict(line))
                }
                let document = JSONTestSuiteTests.bytes("test_parsing", name)
                let line = Array(slot.before.utf8) + document + Array(slot.after.utf8)
                #expect(line.withUnsafeBytes { learning.decode($0) } == Self.strict(line), "\(name)")
                // The leading-line path, with the next line in view.
                let stream = line + [0x0A] + Array(slot.before.utf8)
                var event: Event?
                if let (length, verdict) = stream.withUnsafeBytes({
                    learning.decodeLeadingLine($0.baseAddress!, readable: $0.count, source: .unknown, accept: { event = $0 })
                }) {
                    let expected = Self.strict(Array(stream[..<length]))
                    #expect(length == line.count, "\(name)")
                    switch verdict {
                    case .event: #expect(event.map { DecodedLine.event($0) } == expected, "\(name)")
                    case .malformed(let problem): #expect(expected == .malformed(problem), "\(name)")
                    case .unknownType(let type): #expect(expected == .unknownType(type), "\(name)")
                    case .blank: #expect(expected == .blank, "\(name)")
                    }
                }
                compared += 1
            }
        }
        #expect(compared == 3 * 318)
        #expect(learning.lineShapes.matchedLines > 1_000)
    }

    /// The self-check reports what it finds: a decoder checked on every line of a fuzzed stream finds
    /// no difference, and the check runs on the lines it is asked to.
    @Test func theSelfCheckChecksSampledLines() {
        var random = SplitMix64(seed: 77)
        var decoder = EventDecoder(learnsLineShapes: true, verification: FastPathVerification(interval: 3, onMismatch: .record))
        for index in 0..<3_000 {
            var line = Self.line(Self.templates[index % 2], using: &random)
            if index % 5 == 0 { line = Self.damaged(line, using: &random) }
            _ = line.withUnsafeBytes { decoder.decode($0) }
        }
        #expect(decoder.verification?.checkedLines == 1_000)
        #expect(decoder.verification?.mismatchCount == 0)
        #expect(decoder.verification?.mismatches == [])
    }
}
