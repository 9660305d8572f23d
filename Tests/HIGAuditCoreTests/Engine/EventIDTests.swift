import Foundation
import Testing
@testable import HIGAuditCore

/// Ids of up to 16 bytes are kept inline, longer ones as text; either way an id must read back as its
/// text, fingerprint as its text does (checkpoints hold fingerprints of earlier runs), and be equal to
/// the same id however it was made: from a `String`, or by the decoder from a line's bytes.
@Suite struct EventIDTests {
    private static func randomText(length: Int, using random: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "0", "-", ":", "é", "漢", "😀", "\u{0}", "\"", "\\"]
        var text = ""
        while text.utf8.count < length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        return text
    }

    @Test func idsReadBackAndFingerprintAsTheirText() {
        var random = SplitMix64(seed: 5)
        for length in 0...40 {
            for _ in 0..<20 {
                let text = Self.randomText(length: length, using: &random)
                let id = EventID(text)
                #expect(id.text == text)
                #expect(id.fingerprint == EventIdentity.fingerprint(text), "\(text)")
                #expect(id == EventID(String(text.unicodeScalars.map(Character.init))))
            }
        }
    }

    /// The decoder reads 16 bytes at once when the line has them after the id, else byte by byte; both,
    /// escaped ids and long ones must give the id a `String` gives.
    @Test func decodedIdsEqualIdsMadeFromText() throws {
        var random = SplitMix64(seed: 6)
        var decoder = EventDecoder()
        for length in 0...24 {
            for tail in [#"}"#, #","screen":"canvas.editor","device":"ipad-0011"}"#] {
                let text = Self.randomText(length: length, using: &random)
                let json = String(data: try JSONEncoder().encode(text), encoding: .utf8)!
                let line = #"{"ts":1,"session":"s","type":"session.end","id":\#(json)\#(tail)"#
                guard case .event(let event) = decoder.decode(line) else {
                    Issue.record("not decoded: \(line)")
                    continue
                }
                #expect(event.identifier == EventID(text), "\(line)")
                #expect(event.id == text)
            }
        }
    }

    @Test func anEventKeepsItsIdInCheckpoints() throws {
        for text in ["e1", "", "0123456789abcdef", "0123456789abcdefg", "é😀"] {
            let event = Event(ts: 1, session: "s", payload: .sessionEnd, id: text)
            let encoded = try JSONEncoder().encode(event)
            #expect(String(data: encoded, encoding: .utf8)!.contains(#""id":"#))
            #expect(try JSONDecoder().decode(Event.self, from: encoded) == event)
        }
    }
}
