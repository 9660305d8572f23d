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
        "settings.notifications.caf\u{E9}", "settings.notifications.cafe\u{301}",
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
                let sameBytes = other.map { Array($0.utf8) } == text.map { Array($0.utf8) }
                #expect(event.texts.holds(other.map(CompactText.init), in: .screen) == sameBytes)
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
            let decoded = decoder.decode(line)
            // A text with U+0000 makes the line malformed (`EventDecoder.unescapedText`).
            if texts.contains(where: { $0?.utf8.contains(0) == true }) {
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
            #expect(event == Self.event(texts), "\(line)")
        }
    }

    /// The three ways a line is decoded: on the accelerated path, matched against line shapes by `decode`
    /// or at its start by `decodeLeadingLine` (the reader's way), and on the reference path alone.
    private enum DecodingWay: CaseIterable {
        case shapes, leadingLine, reference
    }

    private static func decode(_ line: String, _ way: DecodingWay, with decoder: inout EventDecoder) -> DecodedLine {
        guard way == .leadingLine else { return decoder.decode(line) }
        var event: Event?
        let bytes = Array((line + "\n").utf8)
        let taken = bytes.withUnsafeBytes { raw in
            decoder.decodeLeadingLine(raw.baseAddress!, readable: raw.count, source: .unknown, accept: { event = $0 })
        }
        guard let (_, verdict) = taken else { return decoder.decode(line) }
        switch verdict {
        case .event: return event.map { .event($0) } ?? .blank
        case .blank: return .blank
        case .unknownType(let name): return .unknownType(name)
        case .malformed(let problem): return .malformed(problem)
        }
    }

    private static func json(_ text: String) throws -> String {
        String(data: try JSONEncoder().encode(text), encoding: .utf8)!
    }

    /// Events in a row with the same long texts share one object of them (`LongTextsReuse`); lines found
    /// malformed after their long texts were read, blank lines and lines of unknown types leave none of
    /// them to the next event; and texts that read the same but differ in bytes (canonically equivalent
    /// spellings) are never shared. Every way of decoding a line.
    @Test(arguments: DecodingWay.allCases)
    private func decodedLongTextsAreSharedOnlyWhenTheirBytesAreTheSame(_ way: DecodingWay) throws {
        var random = SplitMix64(seed: 15)
        var decoder = EventDecoder(learnsLineShapes: way != .reference)
        let composed = "settings.notifications.caf\u{E9}"
        let decomposed = "settings.notifications.cafe\u{301}"
        let longSamples: [String?] = [nil, "e1", "c3f59154-a8b1-4153-8000-c3f59154a8b1", composed, decomposed]
        var previous: Event?
        for step in 0..<600 {
            let texts = (0..<6).map { _ in longSamples[Int(random.next() % UInt64(longSamples.count))] }
            let session = longSamples[1...].randomElement(using: &random)!!
            var members = [#""ts":1"#, "\"session\":\(try Self.json(session))", #""type":"session.end""#]
            for (key, text) in zip(["device", "app", "app_version", "os_version", "screen", "id"], texts) {
                if let text { members.append("\"\(key)\":\(try Self.json(text))") }
            }
            let object = members.joined(separator: ",")
            switch random.next() % 6 {
            case 0:
                // Malformed after every text is read: a touch without its phase.
                let line = "{" + object.replacingOccurrences(of: "session.end", with: "touch") + "}"
                guard case .malformed = Self.decode(line, way, with: &decoder) else {
                    Issue.record("not malformed: \(line)")
                    continue
                }
                continue
            case 1:
                let line = "{" + object.replacingOccurrences(of: "session.end", with: "app.custom") + "}"
                #expect(Self.decode(line, way, with: &decoder) == .unknownType("app.custom"))
                #expect(Self.decode("   ", way, with: &decoder) == .blank)
                continue
            default:
                break
            }
            let line = "{" + object + "}"
            guard case .event(let event) = Self.decode(line, way, with: &decoder) else {
                Issue.record("not decoded: \(line)")
                continue
            }
            let expected = Self.event(texts, session: session)
            #expect(event == expected, "step \(step): \(line)")
            #expect(event.session.utf8.elementsEqual(session.utf8))
            for (index, (name, path, _)) in Self.optionalTexts.enumerated() {
                #expect(
                    event[keyPath: path].map { Array($0.utf8) } == texts[index].map { Array($0.utf8) },
                    "\(name), step \(step)")
            }
            if let previous, previous.texts.sharesLongTexts(with: event.texts) {
                #expect(previous == event, "shared long texts of different events, step \(step)")
            }
            previous = event
        }
    }

    /// Consecutive lines with the same long texts share their object on the accelerated path (the
    /// reference path remembers nothing from line to line); a line whose long text differs only in bytes
    /// (a canonically equivalent spelling) gets its own, and so does the next after it.
    @Test(arguments: DecodingWay.allCases)
    private func consecutiveLinesShareTheirLongTexts(_ way: DecodingWay) throws {
        var decoder = EventDecoder(learnsLineShapes: way != .reference)
        let composed = "settings.notifications.caf\u{E9}"
        let decomposed = "settings.notifications.cafe\u{301}"
        func decoded(_ screen: String, _ ts: Int) throws -> Event? {
            let line = #"{"ts":\#(ts),"session":"c3f59154-a8b1-4153-8000-c3f59154a8b1","type":"session.end","screen":\#(try Self.json(screen))}"#
            guard case .event(let event) = Self.decode(line, way, with: &decoder) else { return nil }
            return event
        }
        let first = try #require(try decoded(composed, 1))
        let second = try #require(try decoded(composed, 2))
        let third = try #require(try decoded(decomposed, 3))
        let fourth = try #require(try decoded(composed, 4))
        #expect(first.texts.sharesLongTexts(with: second.texts) == (way != .reference))
        #expect(!second.texts.sharesLongTexts(with: third.texts))
        #expect(!third.texts.sharesLongTexts(with: fourth.texts))
        #expect(third.screen.map { Array($0.utf8) } == Array(decomposed.utf8))
        #expect(fourth.screen.map { Array($0.utf8) } == Array(composed.utf8))
        #expect(first.texts == fourth.texts)
        #expect(third.texts != fourth.texts)
    }

    /// The layout the doc comment of `EventTexts` claims: 14 words, the lengths and one reference.
    @Test func theTextsTakeSixteenWords() {
        #expect(MemoryLayout<EventTexts>.size == 128)
    }
}
