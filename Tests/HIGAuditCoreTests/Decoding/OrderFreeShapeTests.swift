import Testing
@testable import HIGAuditCore

/// Order-free shapes (`LineShapes`): lines whose keys come in a new order on every line are matched
/// by the members' set, and every line, matched or not, gets exactly the strict decoder's verdict
/// (no shapes, every key read the general way), reason and column included. The lines are made here:
/// a few sessions' touch, haptic and navigation lines, shuffled anew on every line, some damaged.
@Suite struct OrderFreeShapeTests {
    typealias Member = (key: String, value: String)

    /// A line of one of a few types, its values drawn as a writer's change: `ts`, `id`, `x`, `y` on
    /// every line, the screen and target now and then, the session every few hundred lines.
    static func members(line index: Int, using random: inout SplitMix64) -> [Member] {
        let session = "s\(index / 300)-" + String(repeating: "a", count: index / 300 % 3 + 14)
        var members: [Member] = [
            ("ts", "\"2026-11-20T18:\(10 + index / 6000 % 50):\(10 + index / 100 % 50).\(100 + index % 900)Z\""),
            ("session", "\"\(session)\""), ("id", "\"e\(index)\""), ("device", "\"ipad-00\(index / 900 % 4)\""),
            ("app_version", "\"5.2.1\""), ("screen", "\"\(["canvas.editor", "gallery.grid", "brushes.list"][index / 40 % 3])\""),
        ]
        switch random.next() % 6 {
        case 0:
            members += [("type", "\"haptic\""), ("kind", "\"impact.light\"")]
            if random.next() % 2 == 0 { members.append(("duration_ms", "\(random.next() % 40).5")) }
        case 1:
            members += [("type", "\"nav.push\""), ("to", "\"Settings\\/Privacy\"")]
        default:
            let numbers = ["\(random.next() % 1200)", "\(random.next() % 1200).\(random.next() % 10)", "-0.5",
                           "1.25e+02", "7E1", "0"]
            members += [
                ("type", "\"touch\""), ("phase", "\"\(["began", "moved", "ended"][Int(random.next() % 3)])\""),
                ("target", "\"\(index / 25 % 4 == 0 ? "button:share" : "canvas")\""), ("input", "\"pencil\""),
                ("x", numbers[Int(random.next() % UInt64(numbers.count))]),
                ("y", numbers[Int(random.next() % UInt64(numbers.count))]),
            ]
        }
        return members
    }

    static func shuffled(_ members: [Member], using random: inout SplitMix64) -> [Member] {
        var members = members
        for index in stride(from: members.count - 1, to: 0, by: -1) {
            members.swapAt(index, Int(random.next() % UInt64(index + 1)))
        }
        return members
    }

    static func text(_ members: [Member]) -> String {
        "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// A line damaged, or merely varied, the ways that must leave it to the general scan or make it
    /// malformed: a key twice, an escaped key, a key no field reads, a value of the wrong type or
    /// malformed, whitespace, an escaped or long value, the line cut short or trailed.
    static func varied(_ members: [Member], using random: inout SplitMix64) -> String {
        var members = members
        let at = Int(random.next() % UInt64(members.count))
        switch random.next() % 14 {
        case 0: members.insert(members[at], at: Int(random.next() % UInt64(members.count + 1)))
        case 1: members.insert((members[at].key, "\"other\""), at: Int(random.next() % UInt64(members.count + 1)))
        case 2: members[at].key = "\\u00" + String(members[at].key.utf8.first!, radix: 16) + members[at].key.dropFirst()
        case 3: members.insert(("seq", "\(random.next() % 1000)"), at: at)
        case 4: members.remove(at: at)
        case 5: members[at].value = ["1", "-2.5e3", "true", "null", "[]", #"{"a":1}"#, #""s""#, #""""#][Int(random.next() % 8)]
        case 6: members[at].value = ["1.", "-", "01", "1e", "\"a\\x\"", "\"\\u00\"", "tru", "\"a", "1.5.2", "--1"][Int(random.next() % 10)]
        case 7: members[at].value = "\"a\\/b\\u00e9\""
        case 8: members[at].value = "\"" + String(repeating: "long-", count: Int(random.next() % 12)) + "\""
        case 9:
            let line = text(members)
            return random.next() % 2 == 0 ? line.replacingOccurrences(of: "\":", with: "\" : ") : " " + line + " "
        case 10:
            let line = text(members)
            return String(line.prefix(Int(random.next() % UInt64(line.count))))
        case 11:
            let line = text(members)
            return line + ["}", ",", "x", "{}", "\t"][Int(random.next() % 5)]
        default: break
        }
        return text(members)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func shuffledLinesGetTheStrictDecodersVerdicts(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var learning = EventDecoder(learnsLineShapes: true)
        var strict = EventDecoder(learnsLineShapes: false)
        var varied = 0
        for index in 0..<12_000 {
            var members = Self.shuffled(Self.members(line: index, using: &random), using: &random)
            let line: String
            if random.next() % 8 == 0 {
                line = Self.varied(members, using: &random)
                varied += 1
            } else {
                if random.next() % 50 == 0 { members.sort { $0.key < $1.key } }
                line = Self.text(members)
            }
            #expect(learning.decode(line) == strict.decode(line), "\(line)")
        }
        #expect(varied > 1_000)
        // Most shuffled lines are matched: with the shapes of one key order only, nearly none is.
        #expect(learning.lineShapes.matchedLines > 6_000, "\(learning.lineShapes.matchedLines)")
        #expect(learning.lineShapes.orderKeysAreCounted)
    }

    /// The same lines in a stream, each decoded before its end is known (`decodeLeadingLine`), as the
    /// splitter does: a match must end where the line does and give `decode`'s verdict.
    @Test func shuffledLeadingLinesEndWhereTheLineEnds() {
        var random = SplitMix64(seed: 11)
        var lines: [String] = []
        for index in 0..<6_000 {
            let members = Self.shuffled(Self.members(line: index, using: &random), using: &random)
            lines.append(random.next() % 10 == 0 ? Self.varied(members, using: &random) : Self.text(members))
        }
        let stream = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        var learning = EventDecoder(learnsLineShapes: true)
        var strict = EventDecoder(learnsLineShapes: false)
        var taken = 0
        stream.withUnsafeBytes { buffer in
            var start = 0
            for line in lines {
                let length = line.utf8.count
                let expected = strict.decode(line)
                var event: Event?
                if let decoded = learning.decodeLeadingLine(
                    buffer.baseAddress! + start, readable: buffer.count - start, source: .unknown, accept: { event = $0 }) {
                    #expect(decoded.length == length, "\(line)")
                    let actual: DecodedLine = switch decoded.verdict {
                    case .blank: .blank
                    case .event: event.map { .event($0) } ?? .blank
                    case .unknownType(let name): .unknownType(name)
                    case .malformed(let problem): .malformed(problem)
                    }
                    #expect(actual == expected, "\(line)")
                    taken += 1
                } else {
                    #expect(learning.decode(UnsafeRawBufferPointer(rebasing: buffer[start..<start + length])) == expected, "\(line)")
                }
                start += length + 1
            }
        }
        #expect(taken > 3_000, "\(taken)")
    }
}
