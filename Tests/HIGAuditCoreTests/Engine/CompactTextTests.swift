import Foundation
import Testing
@testable import HIGAuditCore

/// Texts of up to 16 bytes are kept inline, longer ones as `String`s; either way a text must read back
/// as itself, fingerprint as its `String` does (checkpoints hold id fingerprints of earlier runs), and
/// be equal to the same text however it was made: from a `String`, or by the decoder from a line.
@Suite struct CompactTextTests {
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
                let id = CompactText(text)
                #expect(id.string == text)
                #expect(id.fingerprint == EventIdentity.fingerprint(text), "\(text)")
                #expect(id == CompactText(String(text.unicodeScalars.map(Character.init))))
            }
        }
    }

    /// Texts over 16 bytes are kept as `String`s and compared byte for byte: equal bytes are equal, a
    /// difference at any position is not, nor is a canonically equivalent spelling.
    @Test func longTextsCompareByteForByte() {
        for length in 17...48 {
            let text = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
            #expect(CompactText(text) == CompactText(String(text.utf8.map { Character(Unicode.Scalar($0)) })))
            for position in 0..<length {
                var bytes = Array(text.utf8)
                bytes[position] = UInt8(ascii: "_")
                #expect(CompactText(text) != CompactText(String(decoding: bytes, as: UTF8.self)), "\(position)")
            }
            #expect(CompactText(text) != CompactText(text + "a"))
        }
        let composed = "settings.notifications.caf\u{E9}"
        let decomposed = "settings.notifications.cafe\u{301}"
        #expect(composed == decomposed)
        #expect(CompactText(composed) != CompactText(decomposed))
        #expect(CompactText(composed) == CompactText(String(composed.unicodeScalars.map(Character.init))))
    }

    /// The decoder reads 16 bytes at once when the line has them after the value, else byte by byte;
    /// both, escaped values and long ones must give the text a `String` gives.
    @Test func decodedIdsEqualIdsMadeFromText() throws {
        var random = SplitMix64(seed: 6)
        var decoder = EventDecoder()
        for length in 0...24 {
            for tail in [#"}"#, #","screen":"canvas.editor","device":"ipad-0011"}"#] {
                let text = Self.randomText(length: length, using: &random)
                let json = String(data: try JSONEncoder().encode(text), encoding: .utf8)!
                let session = length == 0 ? #""s""# : json
                let line = #"{"ts":1,"session":\#(session),"type":"session.end","app_version":\#(json),"id":\#(json)\#(tail)"#
                let decoded = decoder.decode(line)
                // A text with U+0000 makes the line malformed (`EventDecoder.unescapedText`).
                if text.utf8.contains(0) {
                    guard case .malformed(let problem) = decoded, problem.reason.contains("holds U+0000") else {
                        Issue.record("not refused: \(line): \(decoded)")
                        continue
                    }
                    continue
                }
                guard case .event(let event) = decoded else {
                    Issue.record("not decoded: \(line)")
                    continue
                }
                #expect(event.identifier == CompactText(text), "\(line)")
                #expect(event.id == text)
                #expect(event.appVersion == text)
                let long = tail.count > 1
                #expect(event == Event(
                    ts: 1, session: length == 0 ? "s" : text, payload: .sessionEnd, device: long ? "ipad-0011" : nil,
                    appVersion: text, screen: long ? "canvas.editor" : nil, id: text))
            }
        }
    }

    /// Checkpoints written before the text fields became `CompactText` must still read: same keys,
    /// same `String` values.
    @Test func checkpointCodingKeepsTheNamesAndStringsOfTextFields() throws {
        let event = Event(
            ts: 1, session: "s-7f3a9c", payload: .sessionEnd, device: "ipad-42", app: "Sketchbook",
            appVersion: "5.2.0", osVersion: "26.0.1", screen: "a-screen-name-longer-than-16", id: "e1")
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(event)) as! [String: Any]
        #expect(Set(object.keys) == ["ts", "session", "payload", "device", "app", "appVersion", "osVersion", "screen", "source", "id"])
        #expect(object["session"] as? String == "s-7f3a9c")
        #expect(object["screen"] as? String == "a-screen-name-longer-than-16")
        #expect(object["id"] as? String == "e1")
        // An absent text is left out, not written as `null`, as the synthesized coding did. (The key order
        // is `JSONEncoder`'s, which on Linux is not the order of encoding.)
        let sparse = String(data: try JSONEncoder().encode(Event(ts: 1, session: "s", payload: .sessionEnd)), encoding: .utf8)!
        #expect(!sparse.contains("null") && !sparse.contains("device") && !sparse.contains("\"id\""), "\(sparse)")
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
