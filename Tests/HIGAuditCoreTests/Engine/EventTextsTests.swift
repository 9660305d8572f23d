import Foundation
import Testing
@testable import HIGAuditCore

/// An event's seven texts share one block of words with a side reference for texts over 16 bytes.
/// Whatever mix of absent, inline and long texts an event has, and however it got them (initialiser,
/// setters, decoder, checkpoint), each must read back as itself, and events must be equal exactly when
/// all their texts are.
@Suite struct EventTextsTests {
    private typealias TextPath = WritableKeyPath<Event, String?>

    /// The optional texts, by their public properties (`session` is never absent; it is tested apart).
    /// Key paths are not `Sendable`; the table is never written.
    private nonisolated(unsafe) static let optionalTexts: [(String, TextPath, EventTexts.Slot)] = [
        ("device", \.device, .device), ("app", \.app, .app), ("appVersion", \.appVersion, .appVersion),
        ("osVersion", \.osVersion, .osVersion), ("screen", \.screen, .screen), ("id", \.id, .id),
    ]

    private static let samples: [String?] = [
        nil, "", "a", "ipad-0011", "0123456789abcdef", "0123456789abcdefg", "a-screen-name-longer-than-16",
        "é😀漢", String(repeating: "漢", count: 6), "canvas.editor\u{0}",
    ]

    private static func event(_ texts: [String?] = Array(repeating: nil, count: 6), session: String = "s") -> Event {
        Event(
            ts: 1, session: session, payload: .sessionEnd, device: texts[0], app: texts[1], appVersion: texts[2],
            osVersion: texts[3], screen: texts[4], id: texts[5])
    }

    @Test func everyTextReadsBackWhateverItsNeighboursHold() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let texts = (0..<6).map { _ in Self.samples[Int(random.next() % UInt64(Self.samples.count))] }
            let session = Self.samples[1...].randomElement(using: &random)!!
            let event = Self.event(texts, session: session.isEmpty ? "s" : session)
            #expect(event.session == (session.isEmpty ? "s" : session))
            for (index, (name, path, slot)) in Self.optionalTexts.enumerated() {
                #expect(event[keyPath: path] == texts[index], "\(name) of \(texts)")
                #expect(event.texts[slot] == texts[index].map(CompactText.init), "\(name) of \(texts)")
                #expect(event.texts.has(slot) == (texts[index] != nil))
            }
        }
    }

    /// Setting a text in place (from absent to inline to long and back) must leave the event equal to
    /// one made with the final texts, and never disturb another text.
    @Test func settingATextGivesTheEventMadeWithIt() {
        var random = SplitMix64(seed: 12)
        var event = Self.event()
        var texts: [String?] = Array(repeating: nil, count: 6)
        var session = "s"
        for step in 0..<2_000 {
            let index = Int(random.next() % 7)
            let text = Self.samples[Int(random.next() % UInt64(Self.samples.count))]
            if index == 6 {
                session = text.flatMap { $0.isEmpty ? nil : $0 } ?? "s"
                event.session = session
            } else {
                texts[index] = text
                event[keyPath: Self.optionalTexts[index].1] = text
            }
            #expect(event == Self.event(texts, session: session), "step \(step)")
            #expect(event.session == session)
        }
    }

    /// Events differing in one text only, in any way (absent or empty, inline or long, one byte), are
    /// not equal; equal texts made apart are.
    @Test func eventsAreEqualExactlyWhenEveryTextIs() {
        let base: [String?] = ["ipad-0011", "a-long-app-name-over-16", nil, "", "canvas.editor", "e1"]
        #expect(Self.event(base) == Self.event(base.map { $0.map { String($0.unicodeScalars.map(Character.init)) } }))
        for index in 0..<6 {
            for other in Self.samples where other != base[index] {
                var changed = base
                changed[index] = other
                #expect(Self.event(changed) != Self.event(base), "\(index): \(String(describing: other))")
            }
            if let text = base[index], text.utf8.count > 16 {
                var changed = base
                changed[index] = String(text.dropLast()) + "_"
                #expect(Self.event(changed) != Self.event(base))
            }
        }
        #expect(Self.event(base, session: "a-session-id-of-36-bytes-0123456789") != Self.event(base))
    }

    /// What the engine asks without making a text: whether a slot holds a given one, and its fingerprint.
    @Test func holdsAndFingerprintAgreeWithTheText() {
        for text in Self.samples {
            let event = Self.event([nil, nil, nil, nil, text, text])
            for other in Self.samples {
                #expect(event.texts.holds(other.map(CompactText.init), in: .screen) == (other == text))
            }
            #expect(event.texts.fingerprint(.id) == text.map(EventIdentity.fingerprint))
            #expect(event.texts.holds(CompactText("s"), in: .session))
            #expect(!event.texts.holds(nil, in: .session))
        }
    }

    @Test func checkpointsKeepEveryMixOfTexts() throws {
        var random = SplitMix64(seed: 13)
        for _ in 0..<100 {
            let texts = (0..<6).map { _ in Self.samples[Int(random.next() % UInt64(Self.samples.count))] }
            let event = Self.event(texts, session: "a-session-id-of-36-bytes-0123456789")
            let decoded = try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event))
            #expect(decoded == event)
            for (index, (_, path, _)) in Self.optionalTexts.enumerated() { #expect(decoded[keyPath: path] == texts[index]) }
        }
    }

    /// The decoder writes short texts straight into the block and long or escaped ones through the
    /// general setter; an event decoded with every mix equals the one made from its strings.
    @Test func decodedTextsEqualTextsMadeFromStrings() throws {
        var random = SplitMix64(seed: 14)
        var decoder = EventDecoder()
        let keys = ["device", "app", "app_version", "os_version", "screen", "id"]
        for _ in 0..<300 {
            let texts = (0..<6).map { _ in Self.samples[Int(random.next() % UInt64(Self.samples.count))] }
            var members = [#""ts":1"#, #""session":"s""#, #""type":"session.end""#]
            for (key, text) in zip(keys, texts) {
                guard let text else { continue }
                // Sometimes escaped, which the decoder takes the long way whatever the length.
                let json = random.next() % 3 == 0
                    ? "\"" + text.utf16.map { String(format: "\\u%04x", $0) }.joined() + "\""
                    : String(data: try JSONEncoder().encode(text), encoding: .utf8)!
                members.append("\"\(key)\":\(json)")
            }
            let line = "{" + members.joined(separator: ",") + "}"
            guard case .event(let event) = decoder.decode(line) else {
                Issue.record("not decoded: \(line)")
                continue
            }
            #expect(event == Self.event(texts), "\(line)")
        }
    }

    /// Events in a row with the same long texts share one object of them (`LongTextsReuse`); a line found
    /// malformed after its long texts were read must leave none of them to the next event, and texts
    /// that read the same but differ in bytes (canonically equivalent spellings) must not be shared.
    @Test func decodedLongTextsAreSharedOnlyWhenTheirBytesAreTheSame() throws {
        var random = SplitMix64(seed: 15)
        var decoder = EventDecoder()
        let composed = "settings.notifications.caf\u{E9}"
        let decomposed = "settings.notifications.cafe\u{301}"
        let longSamples: [String?] = [nil, "e1", "c3f59154-a8b1-4153-8000-c3f59154a8b1", composed, decomposed]
        func json(_ text: String) throws -> String { String(data: try JSONEncoder().encode(text), encoding: .utf8)! }
        for step in 0..<600 {
            let texts = (0..<6).map { _ in longSamples[Int(random.next() % UInt64(longSamples.count))] }
            let session = longSamples[1...].randomElement(using: &random)!!
            var members = [#""ts":1"#, "\"session\":\(try json(session))", #""type":"session.end""#]
            for (key, text) in zip(["device", "app", "app_version", "os_version", "screen", "id"], texts) {
                if let text { members.append("\"\(key)\":\(try json(text))") }
            }
            if random.next() % 3 == 0 {
                // Malformed after every text is read: a touch without its phase.
                let malformed = "{" + members.joined(separator: ",").replacingOccurrences(of: "session.end", with: "touch") + "}"
                guard case .malformed = decoder.decode(malformed) else {
                    Issue.record("not malformed: \(malformed)")
                    continue
                }
                continue
            }
            let line = "{" + members.joined(separator: ",") + "}"
            guard case .event(let event) = decoder.decode(line) else {
                Issue.record("not decoded: \(line)")
                continue
            }
            #expect(event == Self.event(texts, session: session), "step \(step): \(line)")
            #expect(event.session.utf8.elementsEqual(session.utf8))
            for (index, (name, path, _)) in Self.optionalTexts.enumerated() {
                let expected = texts[index]
                #expect(event[keyPath: path].map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(name), step \(step)")
            }
        }
        #expect(Self.event([nil, nil, nil, nil, composed, nil]) != Self.event([nil, nil, nil, nil, decomposed, nil]))
    }

    /// The layout the doc comment of `EventTexts` claims: 14 words, the lengths and one reference.
    @Test func theTextsTakeSixteenWords() {
        #expect(MemoryLayout<EventTexts>.size == 128)
    }
}
