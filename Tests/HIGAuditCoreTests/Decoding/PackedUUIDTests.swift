import Foundation
import Testing
@testable import HIGAuditCore

/// Canonical UUIDs are held as their 128 bits (`PackedUUID`); every text still has one form, so equal
/// texts are equal values and give back their bytes.
@Suite struct PackedUUIDTests {
    static func randomUUID(_ random: inout SplitMix64, uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        var text = ""
        for index in 0..<36 {
            if [8, 13, 18, 23].contains(index) { text.append("-") } else { text.append(digits[Int(random.next() % 16)]) }
        }
        return text
    }

    @Test func uuidsInEitherCaseArePackedAndGiveTheirBytesBack() {
        var random = SplitMix64(seed: 7)
        for round in 0..<2_000 {
            let text = Self.randomUUID(&random, uppercase: round % 2 == 1)
            let compact = CompactText(text)
            #expect(compact.longText == nil, "\(text)")
            #expect(compact.string == text)
            #expect(compact.fingerprint == EventIdentity.fingerprint(text))
            var texts = EventTexts(session: compact, device: nil, app: nil, appVersion: nil, osVersion: nil, screen: nil, id: compact)
            #expect(texts.holds(compact, in: .session))
            #expect(texts[.session]?.string == text)
            #expect(texts.fingerprint(.id) == EventIdentity.fingerprint(text))
            // Not numbered and not inline bytes: duplicates are told by fingerprint.
            #expect(texts.inlineWords(.id) == nil)
            texts[.device] = CompactText(text.lowercased() == text ? text.uppercased() : text.lowercased())
            #expect(texts[.device] != compact || !text.contains(where: \.isLetter))
        }
    }

    @Test func theSameUUIDInTheOtherCaseIsAnotherText() {
        let lower = CompactText("3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1f")
        let upper = CompactText("3F2B8C1E-5D4A-4B7E-9C1F-6A0D2E4B8C1F")
        #expect(lower != upper)
        #expect(lower.string.uppercased() == upper.string)
        // Without letters both cases are one text, packed one way.
        #expect(CompactText("12345678-1234-1234-1234-123456789012") == CompactText("12345678-1234-1234-1234-123456789012"))
        #expect(CompactText("12345678-1234-1234-1234-123456789012").string == "12345678-1234-1234-1234-123456789012")
    }

    @Test func otherTextsOfThirtySixBytesStayLong() {
        for text in [
            "3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8C1F",  // mixed case
            "3f2b8c1e5d4a-4b7e-9c1f-6a0d2e4b8c1f-",  // a dash out of place
            "3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1g",  // not hex
            "{f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1}",
            "session-0000000000000000000000000001",
        ] {
            let compact = CompactText(text)
            #expect(compact.longText == text, "\(text)")
            #expect(compact.string == text)
        }
        #expect(CompactText("3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1").longText != nil)
    }

    /// From a line's bytes (packed as they are read) or from a `String`, a UUID is the same value, and
    /// the engine's session key finds the session's later events.
    @Test func aDecodedUUIDEqualsTheOneMadeFromItsString() {
        for session in ["3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1f", "3F2B8C1E-5D4A-4B7E-9C1F-6A0D2E4B8C1F",
                        "3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8C1F"] {
            var decoder = EventDecoder()
            for escaped in [session, session.replacingOccurrences(of: "3", with: "\\u0033")] {
                let line = #"{"ts":1,"session":""# + escaped + #"","type":"touch","phase":"began","id":""# + escaped + #""}"#
                guard case .event(let event) = decoder.decode(line) else {
                    Issue.record("\(line) did not decode")
                    continue
                }
                #expect(event.session == session)
                #expect(event.sessionText == CompactText(session))
                #expect(event.texts.holds(CompactText(session), in: .session))
                #expect(event.identifier == CompactText(session))
                #expect(event == Event(ts: 1, session: session, payload: .touch(Touch(phase: .began)), id: session, source: event.source))
            }
        }
    }

    /// The packing reads eight digits at a time; a byte at a time, the rule is plain: dashes at 8, 13,
    /// 18 and 23, hex digits elsewhere, not both letter cases.
    static func reference(_ bytes: [UInt8]) -> (low: UInt64, high: UInt64, count: UInt8)? {
        var words: [UInt64] = [0, 0]
        var digit = 0
        var lower = false, upper = false
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case 0x30...0x39: nibble = byte - 0x30
            case 0x61...0x66: nibble = byte - 0x61 + 10; lower = true
            case 0x41...0x46: nibble = byte - 0x41 + 10; upper = true
            default: return nil
            }
            words[digit / 16] = words[digit / 16] << 4 | UInt64(nibble)
            digit += 1
        }
        if lower && upper { return nil }
        return (words[0], words[1], upper ? PackedUUID.uppercase : PackedUUID.lowercase)
    }

    @Test func packingEightDigitsAtATimeAgreesWithTheRuleByteByByte() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("0123456789abcdefABCDEF-gG/:@`{ \u{7F}".utf8) + [0x80, 0xC3, 0xFF, 0x00]
        for round in 0..<50_000 {
            var bytes = Array(Self.randomUUID(&random, uppercase: round % 3 == 0).utf8)
            if round % 7 == 1 { bytes = Array(bytes.map { $0 >= 0x41 && random.next() % 2 == 0 ? $0 | 0x20 : $0 }) }
            for _ in 0..<Int(random.next() % 3) {
                bytes[Int(random.next() % 36)] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            let packed = bytes.withUnsafeBufferPointer { PackedUUID.pack($0.baseAddress!) }
            let expected = Self.reference(bytes)
            #expect(packed?.low == expected?.low && packed?.high == expected?.high && packed?.count == expected?.count,
                    "\(String(decoding: bytes, as: UTF8.self))")
            if let packed {
                let text = PackedUUID.string(low: packed.low, high: packed.high, count: packed.count)
                #expect(Array(text.utf8) == bytes)
            }
        }
    }

    /// Retried uploads repeat events: a UUID event id seen again in its session is a duplicate, read from
    /// a line or made from a `String`; the same UUID in the other letter case is another id.
    @Test func aRepeatedUUIDIdIsADuplicate() {
        let engine = SessionEngine(onReport: { _ in })
        let session = "3F2B8C1E-5D4A-4B7E-9C1F-6A0D2E4B8C1F"
        let id = "9c1f6a0d-2e4b-4b7e-8c1f-3f2b8c1e5d4a"
        var decoder = EventDecoder()
        func decoded(_ ts: Int, _ id: String) -> Event {
            guard case .event(let event) = decoder.decode(
                #"{"ts":"# + String(ts) + #","session":""# + session + #"","type":"touch","phase":"began","id":""# + id + #""}"#)
            else { preconditionFailure("the line did not decode") }
            return event
        }
        #expect(engine.ingest(decoded(1, id)) == .accepted)
        #expect(engine.ingest(decoded(2, id)) == .duplicate)
        #expect(engine.ingest(Event(ts: 3, session: session, payload: .touch(Touch(phase: .ended)), id: id)) == .duplicate)
        #expect(engine.ingest(decoded(4, id.uppercased())) == .accepted)
        #expect(engine.statistics.duplicateEvents == 2)
    }

    /// A nightly run checkpoints the open sessions with their ids' fingerprints; the next run, restored
    /// from the checkpoint's JSON, still knows a UUID id it saw, as one read from a line.
    @Test func aCheckpointedUUIDIdIsStillADuplicateAfterRestore() throws {
        let session = "3f2b8c1e-5d4a-4b7e-9c1f-6a0d2e4b8c1f"
        let id = "9C1F6A0D-2E4B-4B7E-8C1F-3F2B8C1E5D4A"
        let configuration = AuditConfiguration()
        let first = SessionEngine(configuration: configuration, onReport: { _ in })
        #expect(first.ingest(Event(ts: 1_000, session: session, payload: .touch(Touch(phase: .began)), id: id)) == .accepted)
        let data = try JSONEncoder().encode(first.checkpoint())
        let checkpoint = try JSONDecoder().decode(EngineCheckpoint.self, from: data)
        let second = SessionEngine(configuration: configuration, checkpoint: checkpoint, onReport: { _ in })
        var decoder = EventDecoder()
        guard case .event(let retried) = decoder.decode(
            #"{"ts":1000,"session":""# + session + #"","type":"touch","phase":"began","id":""# + id + #""}"#)
        else { preconditionFailure("the line did not decode") }
        #expect(second.ingest(retried) == .duplicate)
        #expect(second.ingest(Event(ts: 1_001, session: session, payload: .touch(Touch(phase: .ended)), id: id.lowercased())) == .accepted)
    }
}
