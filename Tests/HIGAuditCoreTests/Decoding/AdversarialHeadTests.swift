import Foundation
import Testing
@testable import HIGAuditCore

/// Adversarial lines decoded by a learning decoder kept warm across lines (as a run decodes) get
/// exactly the strict decoder's verdict and event: keys recognised by their first bytes wherever they
/// stand, near-miss and escaped keys, heads near the line's end, damaged bytes and edge values.
@Suite struct AdversarialHeadTests {
    typealias Members = [(key: String, value: String)]

    static func strict(_ line: [UInt8]) -> DecodedLine {
        var decoder = EventDecoder(learnsLineShapes: false)
        return line.withUnsafeBytes { decoder.decode($0) }
    }

    static func bytes(_ members: Members, colon: String = ":", comma: String = ",", open: String = "{", close: String = "}") -> [UInt8] {
        Array((open + members.map { "\"\($0.key)\"\(colon)\($0.value)" }.joined(separator: comma) + close).utf8)
    }

    static let keyVariants: [String: [String]] = [
        "ts": [#"t\u0073"#, "t", "tss", "ts ", "Ts", #"\u0074s"#],
        "type": [#"\u0074ype"#, "type2", "typ", "types", "typE"],
        "session": ["session_id", "sessio", "sessions", #"sessio\u006e"#, "session\u{0}"],
        "screen": ["screens", "scree", "screen_", #"scre\u0065n"#],
        "app_version": ["app_versio", "app_versions", "app_version_", "app_vers"],
        "pencil_preferred_action": ["pencil_preferred_actio", "pencil_preferred_actionX", "pencil_p", "pencil_c"],
        "pencil_custom_action_enabled": ["pencil_custom_action_enable", "pencil_custom_action_enabledX", "pencil_custom_action_enabled_"],
        "haptics_enabled": ["haptics_enable", "haptics_enabledd", "haptics_"],
        "undoable": ["undoabl", "undoablee", "undoable_"],
        "duration_ms": ["duration_m", "duration_mss", "duration"],
        "x": ["xx", "x2", "X", #"\u0078"#], "y": ["yy", "y "],
        "id": ["i", "idx", "id_", #"\u0069d"#],
        "to": ["t", "too", "to2"], "from": ["fro", "fromm"],
        "phase": ["phas", "phases"], "target": ["targe", "targets"], "input": ["inpu", "inputs"],
    ]
    static let wrongValues = [
        "1", "-2.5e3", "1e400", "-1e-400", "123456789012345678901234567890", "-0", "0.0", "1E+2", "true", "false",
        "null", "[]", "[1,[2,{}]]", #"{"a":1}"#, #"{"ts":"x","type":"touch"}"#, #""s""#, #""""#, #""\u00e9\n""#,
        #""\ud800""#, #""caf\u00e9""#, #""tab\there""#, "01", "1.", ".5", "+1", "tru", "nul", #""unterminated"#,
    ]

    /// One adversarial line derived from `members` (a valid line's members, in some order).
    static func mutate(_ original: Members, using random: inout SplitMix64) -> [UInt8] {
        var members = original
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let rounds = 1 + pick(3)
        for _ in 0..<rounds {
            let at = pick(members.count)
            switch pick(9) {
            case 0:
                if let variants = keyVariants[members[at].key] { members[at].key = variants[pick(variants.count)] }
            case 1:
                // A variant as an extra unknown member, anywhere.
                let key = members[pick(members.count)].key
                if let variants = keyVariants[key] {
                    members.insert((variants[pick(variants.count)], wrongValues[pick(wrongValues.count)]), at: pick(members.count + 1))
                }
            case 2: members.insert(members[at], at: pick(members.count + 1))
            case 3: members[at].value = wrongValues[pick(wrongValues.count)]
            case 4: members.remove(at: at)
            case 5: members.swapAt(at, pick(members.count))
            case 6: members.insert(("zzzzzzzzzz_unknown_key", #"{"ts":1,"type":[null]}"#), at: pick(members.count + 1))
            case 7: members[at].value = members[at].value.hasPrefix("\"") ? "\"" + String(repeating: "a", count: pick(40)) + "\"" : String(pick(100000))
            default: break
            }
        }
        let spacing = [(":", ","), (" : ", " , "), (":", ", "), ("\t:\t", "\t,"), (": ", ","), (":\n", "\r\n,")]
        let (colon, comma) = pick(3) == 0 ? spacing[pick(spacing.count)] : (":", ",")
        var line = bytes(members, colon: colon, comma: comma, open: pick(8) == 0 ? "{ " : "{", close: pick(8) == 0 ? " }" : "}")
        switch pick(10) {
        case 0: line = Array(line.prefix(pick(line.count + 1)))
        case 1: line = Array(line.prefix(max(0, line.count - 1 - pick(min(40, line.count)))))
        case 2: line = [0xEF, 0xBB, 0xBF] + line
        case 3: line.append(0x0D)
        case 4:
            // A byte near the end replaced: invalid UTF-8, a quote, a backslash, a control character.
            let bytes: [UInt8] = [0xFF, 0xC3, 0x80, 0x22, 0x5C, 0x00, 0x1F, 0x7F, 0x3A, 0x2C, 0x7D]
            if !line.isEmpty { line[line.count - 1 - pick(min(40, line.count))] = bytes[pick(bytes.count)] }
        case 5:
            if !line.isEmpty { line.insert([0xFF, 0xC3, 0xE2, 0x82][pick(4)], at: pick(line.count)) }
        default: break
        }
        return line
    }

    static func variation(_ members: Members, index: Int, using random: inout SplitMix64) -> Members {
        members.map { member in
            switch member.key {
            case "ts": return (member.key, "\"2026-11-20T18:00:\(10 + index % 50).\(100 + Int(random.next() % 900))Z\"")
            case "id": return (member.key, "\"e\(index)\"")
            case "x", "y": return (member.key, String(Int(random.next() % 1000)) + ".5")
            default: return member
            }
        }
    }

    @Test(arguments: [11 as UInt64, 12])
    func warmDecoderGetsTheStrictVerdictOnAdversarialLines(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var learning = EventDecoder(learnsLineShapes: true)
        var comparison = StrictComparison()
        var badEvents = 0
        var badMalformed = 0
        let types = ShuffledKeyTests.orderedLines
        let rate = seed % 2 == 0 ? 3 : 25 as UInt64
        for run in 0..<3000 {
            var members = types[Int(random.next() % UInt64(types.count))]
            members = members.map { $0.key == "session" ? ($0.key, "\"s\(run)-81312b9ea50522c9\"") : $0 }
            let shuffledRun = random.next() % 3 == 0
            if random.next() % 2 == 0 { members = ShuffledKeyTests.shuffled(members, using: &random) }
            // A warm run: the same layout (or a new order each line), values changing.
            for index in 0..<(4 + Int(random.next() % (rate == 25 ? 80 : 12))) {
                let order = shuffledRun ? ShuffledKeyTests.shuffled(members, using: &random) : members
                comparison.decode(Self.bytes(Self.variation(order, index: index, using: &random)), with: &learning, "warm")
                if random.next() % rate == 0 {
                    let bad = Self.mutate(Self.variation(shuffledRun ? ShuffledKeyTests.shuffled(members, using: &random) : members, index: index, using: &random), using: &random)
                    if case .event = comparison.decode(bad, with: &learning, "bad") { badEvents += 1 } else { badMalformed += 1 }
                }
            }
        }
        comparison.expectNone()
    }

    /// The same through `decodeLeadingLine`, as the line splitter drives it: a stream of lines.
    @Test(arguments: [21 as UInt64, 22])
    func leadingLinesGetTheStrictVerdictOnAdversarialLines(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var stream: [UInt8] = []
        let types = ShuffledKeyTests.orderedLines
        for _ in 0..<300 {
            let members = types[Int(random.next() % UInt64(types.count))]
            let shuffledRun = random.next() % 3 == 0
            for index in 0..<(4 + Int(random.next() % 12)) {
                let order = shuffledRun ? ShuffledKeyTests.shuffled(members, using: &random) : members
                var line = random.next() % 3 == 0
                    ? Self.mutate(Self.variation(order, index: index, using: &random), using: &random)
                    : Self.bytes(Self.variation(order, index: index, using: &random))
                line.removeAll { $0 == 0x0A }
                stream += line + (random.next() % 4 == 0 ? [0x0D, 0x0A] : [0x0A])
            }
        }
        var learning = EventDecoder(learnsLineShapes: true)
        var comparison = StrictComparison()
        stream.forEachSplitLine { line in
            let expected = Self.strict(Array(line.bytes))
            var event: Event?
            let actual: DecodedLine
            if let (length, verdict) = learning.decodeLeadingLine(
                line.head, readable: line.restOfStream, source: .unknown, accept: { event = $0 }) {
                #expect(length == line.end - line.start)
                switch verdict {
                case .blank: actual = .blank
                case .event: actual = event.map { .event($0) } ?? .blank
                case .unknownType(let name): actual = .unknownType(name)
                case .malformed(let problem): actual = .malformed(problem)
                }
            } else {
                actual = learning.decode(line.bytes)
            }
            comparison.record(actual, expected, Array(line.bytes), "leading")
        }
        comparison.expectNone()
    }

    /// Every key and every variant of it as the last member, the line then cut at each of its last 40
    /// bytes, after warm lines of the same layout: heads within 32 bytes of the line's end.
    @Test func headsNearTheLinesEndGetTheStrictVerdict() {
        var random = SplitMix64(seed: 99)
        var comparison = StrictComparison()
        for ordered in ShuffledKeyTests.orderedLines {
            for last in ordered.indices {
                var members = ordered
                let moved = members.remove(at: last)
                var learning = EventDecoder(learnsLineShapes: true)
                for index in 0..<6 {
                    _ = Self.bytes(Self.variation(members + [moved], index: index, using: &random)).withUnsafeBytes { learning.decode($0) }
                }
                let keys = [moved.key] + (Self.keyVariants[moved.key] ?? [])
                let values = [moved.value, "null", #"{"a":"b"}"#, #""x\"y""#, #""x"y""#, "-0.0e-0"]
                for key in keys {
                    for value in values {
                        for (colon, comma) in [(":", ","), (" :", ", "), (":\t", ",")] {
                            let line = Self.bytes(members + [(key, value)], colon: colon, comma: comma)
                            // A third of the cuts, drawn for each line: every cut position is still met
                            // many times over the keys, values and spacings.
                            for cut in 0...min(40, line.count) where random.next() % 3 == 0 {
                                let bytes = Array(line.prefix(line.count - cut))
                                // Warm again with the whole line's layout half of the time.
                                if random.next() % 2 == 0 {
                                    _ = Self.bytes(Self.variation(members + [moved], index: cut, using: &random)).withUnsafeBytes { learning.decode($0) }
                                }
                                comparison.decode(bytes, with: &learning, "near end")
                            }
                        }
                    }
                }
            }
        }
        comparison.expectNone()
    }

    /// Warm layouts, then lines equal to them but for one variable value (`ts`, `id`, `x`, `y`, or a
    /// text), replaced by an edge case: what a shape reads in place of the general scan.
    @Test(arguments: [41 as UInt64, 42])
    func variableValuesOfWarmShapesGetTheStrictVerdict(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let strings: [[UInt8]] = [
            Array(#""e""#.utf8), Array(#""""#.utf8), Array(#""\u0000""#.utf8), Array(#""\ud83d\ude00""#.utf8),
            Array(#""\ud83d""#.utf8), Array(#""\ude00\ud83d""#.utf8), Array(#""a\"b""#.utf8), Array(#""a\\""#.utf8),
            Array(#""\x""#.utf8), Array(#""\u12G4""#.utf8), [0x22, 0xC3, 0xA9, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0xAC, 0x22], [0x22, 0x09, 0x22], [0x22, 0x7F, 0x22], [0x22, 0x61, 0x0A, 0x22],
            Array(("\"" + String(repeating: "x", count: 40) + "\"").utf8),
            Array(("\"" + String(repeating: "x", count: 15) + "\\n\"").utf8),
            Array("\"2026-11-20T18:00:41Z\"".utf8), Array("\"2026-11-20T18:00:41.1234567891Z\"".utf8),
            Array("\"2026-11-20T18:00:60Z\"".utf8), Array("\"2026-02-30T18:00:41Z\"".utf8),
            Array("\"2026-11-20T18:00:41+14:00\"".utf8), Array("\"2026-11-20T18:00:41.5-00:00\"".utf8),
            Array("\"2026-11-20t18:00:41z\"".utf8), Array("\"2026-11-20 18:00:41Z\"".utf8),
        ]
        let numbers = [
            "0", "-0", "1795208645123", "-1795208645123", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "1.0", "1e3", "1E+3", "1.5e-3", "1e400", "-1e400", "4.9e-324",
            "1e-400", String(repeating: "9", count: 400), "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.5",
            "12345678901234567890.123456789e-10", "Infinity", "NaN", "true", "null", "[]", "{}",
        ].map { Array($0.utf8) }
        var comparison = StrictComparison()
        var matchedVaried = 0
        for run in 0..<600 {
            let ordered = ShuffledKeyTests.orderedLines[Int(random.next() % UInt64(ShuffledKeyTests.orderedLines.count))]
            let members = ordered.map { $0.key == "session" ? ($0.key, "\"s\(run)\"") : $0 }
            var learning = EventDecoder(learnsLineShapes: true)
            for index in 0..<12 {
                _ = Self.bytes(Self.variation(members, index: index, using: &random)).withUnsafeBytes { learning.decode($0) }
            }
            for index in 12..<40 {
                var varied = Self.variation(members, index: index, using: &random)
                let candidates = varied.indices.filter { ["ts", "id", "x", "y", "target", "session", "screen", "duration_ms", "load_ms", "object", "task"].contains(varied[$0].key) }
                let at = candidates[Int(random.next() % UInt64(candidates.count))]
                let pool = random.next() % 2 == 0 ? strings : numbers
                let value = pool[Int(random.next() % UInt64(pool.count))]
                varied[at].value = "\u{1}"
                var line = Self.bytes(varied)
                let marker = line.firstIndex(of: 1)!
                line.replaceSubrange(marker...marker, with: value)
                comparison.decode(line, with: &learning, "variable")
                let before = learning.lineShapes.matchedLines
                _ = Array(line).withUnsafeBytes { learning.decode($0) }
                if learning.lineShapes.matchedLines > before { matchedVaried += 1 }
                // And a plain line again, to keep the shapes matching.
                _ = Self.bytes(Self.variation(members, index: index, using: &random)).withUnsafeBytes { learning.decode($0) }
            }
        }
        comparison.expectNone()
    }

    /// Byte-level damage (replaced, inserted, deleted bytes from JSON's own alphabet) of lines in a warm
    /// layout, in order or shuffled.
    @Test(arguments: [51 as UInt64, 52])
    func byteDamageOfWarmLinesGetsTheStrictVerdict(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array(#""\:,{}[] 0123456789eE+-.tsypnulfaidxr_"#.utf8) + [0x09, 0x0A, 0x0D, 0xFF, 0xC3, 0xA9, 0x00, 0x7F, 0x80]
        var comparison = StrictComparison()
        var events = 0
        for run in 0..<1500 {
            let ordered = ShuffledKeyTests.orderedLines[Int(random.next() % UInt64(ShuffledKeyTests.orderedLines.count))]
            var members = ordered.map { $0.key == "session" ? ($0.key, "\"s\(run)\"") : $0 }
            let shuffledRun = random.next() % 3 == 0
            if random.next() % 2 == 0 { members = ShuffledKeyTests.shuffled(members, using: &random) }
            var learning = EventDecoder(learnsLineShapes: true)
            for index in 0..<40 {
                let order = shuffledRun ? ShuffledKeyTests.shuffled(members, using: &random) : members
                var line = Self.bytes(Self.variation(order, index: index, using: &random))
                if index >= 8 && random.next() % 2 == 0 {
                    for _ in 0..<(1 + Int(random.next() % 3)) {
                        let at = Int(random.next() % UInt64(line.count))
                        let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                        switch random.next() % 3 {
                        case 0: line[at] = byte
                        case 1: line.insert(byte, at: at)
                        default: line.remove(at: at)
                        }
                    }
                }
                if case .event = comparison.decode(line, with: &learning, "bytes") { events += 1 }
            }
        }
        comparison.expectNone()
    }
}

/// Counts the lines on which a learning decoder and the strict one disagree, and records the first few
/// with both results.
struct StrictComparison {
    private(set) var checked = 0
    private(set) var divergences = 0

    /// `line` decoded by `learning` (kept warm across calls) and by a fresh strict decoder; returns the
    /// strict result.
    @discardableResult
    mutating func decode(_ line: [UInt8], with learning: inout EventDecoder, _ label: String) -> DecodedLine {
        let expected = AdversarialHeadTests.strict(line)
        let actual = line.withUnsafeBytes { learning.decode($0) }
        record(actual, expected, line, label)
        return expected
    }

    mutating func record(_ actual: DecodedLine, _ expected: DecodedLine, _ line: [UInt8], _ label: String) {
        checked += 1
        guard actual != expected else { return }
        divergences += 1
        if divergences <= 20 {
            let shown = line.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
            Issue.record("\(label): \(shown)\nfast: \(actual)\nstrict: \(expected)")
        }
    }

    func expectNone() {
        #expect(divergences == 0, "\(divergences) of \(checked)")
    }
}
