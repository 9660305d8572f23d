import Foundation
import Testing
@testable import HIGAuditCore

/// Lines whose keys come in a new order on every line, as Foundation's `JSONEncoder` writes them: the
/// learning decoder recognises their members wherever they stand (`KeyMatcher.headField`), and
/// must give exactly what the strict decoder (no shapes, every key read the general way)
/// gives, valid or not, reason and column included.
@Suite struct ShuffledKeyTests {
    /// One line of every event type in SPEC §2's order, every optional field written, as members.
    static let orderedLines: [[(key: String, value: String)]] = {
        let common: [(String, String)] = [
            ("ts", #""2026-11-20T18:00:41.612345678Z""#), ("session", #""81312b9ea50522c9""#), ("id", #""e17""#),
            ("device", #""ipad-0006""#), ("app", #""Sketchbook""#), ("app_version", #""5.2.1""#),
            ("os_version", #""26.2""#), ("screen", #""canvas.editor""#),
        ]
        let payloads: [(type: String, members: [(String, String)])] = [
            ("session.start", [("haptics_enabled", "false"), ("pencil_preferred_action", #""show_color_palette""#),
                               ("pencil_custom_action_enabled", "true"), ("touches", #""sampled""#), ("synthetic", "true")]),
            ("session.end", []),
            ("touch", [("phase", #""moved""#), ("target", #""canvas""#), ("input", #""pencil""#), ("x", "593.25"), ("y", "-0.5")]),
            ("pencil.double_tap", [("action", #""custom:lasso""#)]),
            ("haptic", [("kind", #""impact.light""#), ("duration_ms", "12.5")]),
            ("outcome", [("result", #""success""#), ("task", #""export\/pdf""#)]),
            ("nav.tab_switch", [("from", #""tab:Gallery""#), ("to", #""tab:Canvas""#)]),
            ("nav.push", [("to", #""Settings\/Privacy""#)]),
            ("nav.pop", [("to", #""gallery.grid""#)]),
            ("modal.present", [("modal", #""export-sheet""#), ("style", #""page_sheet""#)]),
            ("modal.dismiss", [("modal", #""export-sheet""#)]),
            ("content.mutation", [("action", #""delete""#), ("object", #""layer-3""#), ("undoable", "false")]),
            ("loading.start", [("indicator", #""spinner""#)]),
            ("loading.end", []),
            ("capture.start", [("source", #""camera""#)]),
            ("capture.stop", [("source", #""microphone""#)]),
            ("app.ready", []),
            ("permission.request", [("permission", #""photos""#), ("result", #""already_decided""#)]),
            ("rating.prompt", []),
            ("widget.display", [("widget", #""recent-sketches""#), ("content", #""cached""#), ("load_ms", "2500")]),
        ]
        #expect(Set(payloads.map(\.type)) == Set(EventKind.allCases.map(\.wireName)))
        return payloads.map { payload in
            // A loading operation's `id` is its payload's (SPEC §2): there it stays, for the other types it
            // is the event's.
            [common[0], common[1], ("type", "\"\(payload.type)\"")] + common[2...] + payload.members
        }
    }()

    static func text(_ members: [(key: String, value: String)]) -> String {
        "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    static func strict(_ line: String) -> DecodedLine {
        var decoder = EventDecoder(learnsLineShapes: false)
        return decoder.decode(line)
    }

    static func shuffled(_ members: [(key: String, value: String)], using random: inout SplitMix64) -> [(key: String, value: String)] {
        var members = members
        for index in stride(from: members.count - 1, to: 0, by: -1) {
            members.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        return members
    }

    @Test func shuffledLinesOfEveryTypeDecodeToTheOrderedLinesEvents() {
        var random = SplitMix64(seed: 30)
        var learning = EventDecoder(learnsLineShapes: true)
        for members in Self.orderedLines {
            let ordered = Self.strict(Self.text(members))
            guard case .event = ordered else {
                Issue.record("\(Self.text(members)): \(ordered)")
                continue
            }
            for _ in 0..<50 {
                let line = Self.text(Self.shuffled(members, using: &random))
                #expect(Self.strict(line) == ordered, "\(line)")
                #expect(learning.decode(line) == ordered, "\(line)")
            }
        }
    }

    /// Shuffled lines made malformed the ways a writer gets it wrong: a key twice, a required key
    /// missing, a value of the wrong type, the line cut short; and, as they come, keys the decoder does
    /// not read and heads with whitespace or escapes, which take the general reading.
    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func damagedShuffledLinesGetTheStrictDecodersVerdicts(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var learning = EventDecoder(learnsLineShapes: true)
        var reasons: [String: Int] = [:]
        var events = 0
        let wrongValues = ["1", "-2.5e3", "true", "null", "[]", #"{"a":1}"#, #""s""#, #""""#]
        for _ in 0..<6_000 {
            var members = Self.shuffled(Self.orderedLines[Int(random.next() % UInt64(Self.orderedLines.count))], using: &random)
            let at = Int(random.next() % UInt64(members.count))
            switch random.next() % 8 {
            case 0: members.insert(members[at], at: Int(random.next() % UInt64(members.count + 1)))
            case 1: members.remove(at: at)
            case 2: members[at].value = wrongValues[Int(random.next() % UInt64(wrongValues.count))]
            case 3: members.insert(("sdk", #"{"name":"ios","seq":[1,2]}"#), at: at)
            case 4: members[at].key = #"\u00"# + String(members[at].key.utf8.first!, radix: 16) + members[at].key.dropFirst()
            default: break
            }
            var line = Self.text(members)
            if random.next() % 5 == 0 { line = line.replacingOccurrences(of: "\":", with: "\" : ") }
            if random.next() % 4 == 0 { line = String(line.prefix(Int(random.next() % UInt64(line.count)))) }
            let expected = Self.strict(line)
            #expect(learning.decode(line) == expected, "\(line)")
            switch expected {
            case .event: events += 1
            case .malformed(let problem):
                let reason = ["duplicate key", "missing required field", "must be", "unexpected end"]
                    .first { problem.reason.contains($0) } ?? "other"
                reasons[reason, default: 0] += 1
            default: break
            }
        }
        // Every kind of damage reached the comparison, and so did valid lines.
        #expect(events > 1_000, "\(events)")
        for reason in ["duplicate key", "missing required field", "must be", "unexpected end", "other"] {
            #expect(reasons[reason, default: 0] > 50, "\(reason): \(reasons)")
        }
    }
}
