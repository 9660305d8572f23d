import Foundation
import Testing
@testable import HIGAuditCore

/// A line matched against a learned shape (`LineShapes`) must get exactly the verdict the general scan
/// gives it: the same event, or the same malformed reason and column. These tests decode streams in
/// which most lines repeat a few layouts, as real logs do, while values change, and some lines are
/// damaged anywhere, and compare a learning decoder with one that never learns.
@Suite struct LineShapeTests {
    @Test func matchedLinesGetTheGeneralScansVerdicts() {
        var random = SplitMix64(seed: 2026)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var events = 0
        var malformed = 0
        for _ in 0..<40_000 {
            var line = Array(Self.touchStreamLine(using: &random).utf8)
            if random.next() % 100 < 4 { line = Self.damaged(line, using: &random) }
            let expected = line.withUnsafeBytes { general.decode($0) }
            #expect(line.withUnsafeBytes { learning.decode($0) } == expected, "\(String(decoding: line, as: UTF8.self))")
            switch expected {
            case .event: events += 1
            case .malformed: malformed += 1
            default: break
            }
        }
        // Most lines must have been matched, and damage must have reached them too.
        #expect(learning.lineShapes.matchedLines > 20_000)
        #expect(events > 30_000 && malformed > 800)
    }

    /// Values read from a matched line: every variable value in every form the scan accepts.
    @Test func variableValuesAreReadAsTheScanReadsThem() {
        let numbers = ["0", "-0", "7", "-12.5", "593.25", "0.001", "123456789012345", "1234567890123456",
                       "1e3", "-2.5E-3", "1.5e+2", "99999999999999999999", "0.1234567890123456789"]
        let strings = ["canvas", "", "é", "tab:\\u0041", "a\\\"b", "\\ud83d\\ude00", "日本語", String(repeating: "z", count: 40)]
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        for round in 0..<4 {
            for (index, x) in numbers.enumerated() {
                for target in strings {
                    let y = numbers[(index + round) % numbers.count]
                    let line = #"{"ts":"2026-11-20T18:00:41.\#(100 + count % 900)Z","session":"s1","type":"touch","id":"e\#(count)","#
                        + #""phase":"moved","target":"\#(target)","x":\#(x),"y":\#(y)}"#
                    count += 1
                    #expect(learning.decode(line) == general.decode(line), "\(line)")
                }
            }
        }
        #expect(learning.lineShapes.matchedLines > count / 2)
    }

    /// Damage inside a value the shape reads, or right after it, never slips through.
    @Test func malformedVariableValuesAreLeftToTheScan() {
        let badNumbers = ["01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.5.5", "Infinity", "NaN", "--1", "1 2"]
        let badStrings = ["tab\u{1}", "a\\q", "a\\u12", "a\\ud800", "\u{7F}ok", "unterminated"]
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        func line(_ id: Int, x: String? = nil, target: String = "canvas") -> String {
            let x = x ?? "\(id * 7 % 900).\(id % 10)"
            return
                #"{"ts":"2026-11-20T18:00:41.612Z","session":"s1","type":"touch","id":"e\#(id)","phase":"moved","target":"\#(target)","x":\#(x),"y":1}"#
        }
        var id = 0
        for bad in badNumbers {
            // A few good lines first, so that `id`, `x` and `target` are variable in the shape.
            for _ in 0..<6 {
                id += 1
                let good = line(id, target: id % 2 == 0 ? "canvas" : "tab:A")
                #expect(learning.decode(good) == general.decode(good))
            }
            id += 1
            let damaged = line(id, x: bad)
            #expect(learning.decode(damaged) == general.decode(damaged), "\(damaged)")
        }
        for bad in badStrings {
            id += 1
            var damaged = line(id, target: bad)
            if bad == "unterminated" { damaged = String(damaged.prefix(while: { $0 != "," })) + #","target":"abc"# }
            #expect(learning.decode(damaged) == general.decode(damaged), "\(damaged)")
            let invalidUTF8 = Array(line(id).utf8).map { $0 == UInt8(ascii: "v") ? 0xC3 : $0 }
            let fromLearning = invalidUTF8.withUnsafeBytes { learning.decode($0) }
            let fromGeneral = invalidUTF8.withUnsafeBytes { general.decode($0) }
            #expect(fromLearning == fromGeneral)
        }
        #expect(learning.lineShapes.matchedLines > 40)
    }

    /// `ts` written now as RFC 3339, now as milliseconds (as the realistic sample logs do): once seen
    /// both ways the shape reads it either way, and damage to it still reaches the general scan.
    @Test func valuesWrittenEitherWayAreRead() {
        var random = SplitMix64(seed: 11)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        let damage = [#""2026-11-20T18:00:41.612Z"#, "01", "-", "1.", "null", "true", "[1]", "{}", #""a\q""#,
                      #""2026-11-20T18:00:41.612Z" "#, "1795208645123 ", "\"", "1795208645123x"]
        var lines = 0
        for index in 0..<6_000 {
            let ts: String
            switch random.next() % 100 {
            case 0..<60: ts = "\"2026-11-20T18:\(10 + random.next() % 50):\(10 + random.next() % 50).\(100 + random.next() % 900)Z\""
            case 60..<75: ts = "\"2026-11-21T03:11:25.612+09:05\""
            case 75..<98: ts = "\(1_795_208_645_123 + random.next() % 100_000)"
            default: ts = damage[Int(random.next() % UInt64(damage.count))]
            }
            let line = #"{"ts":\#(ts),"session":"s1","type":"touch","id":"e\#(index)","phase":"moved","target":"canvas","x":\#(random.next() % 1000).5,"y":2}"#
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            lines += 1
        }
        #expect(learning.lineShapes.matchedLines > lines * 8 / 10)
    }

    /// Lines that never repeat a layout (a key of a new name on every line): matching rests instead
    /// of paying for misses on every line, and verdicts stay those of the general scan.
    @Test func everChangingLayoutsPutMatchingToRest() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var rested = false
        for index in 0..<3_000 {
            let members = [#""ts":1"#, #""session":"s\#(index % 5)""#, #""type":"touch""#, #""phase":"moved""#,
                           #""x":\#(index)"#, #""id":"e\#(index)""#, #""pad\#(index)":0"#]
            let line = "{" + members.joined(separator: ",") + "}"
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            rested = rested || learning.lineShapes.isResting
        }
        #expect(rested)
    }

    /// A session whose keys come in a new order on every line (as Foundation's `JSONEncoder` writes
    /// them) is decoded by the general scan, with verdicts its own, and rests matching for no more than
    /// the line after each of its lines: the lines of a session that keeps its order, read after it,
    /// match at once.
    @Test func keysInANewOrderOnEveryLineNeitherMatchNorRest() {
        var random = SplitMix64(seed: 7)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        for round in 0..<6 {
            for index in 0..<600 {
                var members = [#""ts":1"#, #""session":"shuffling""#, #""type":"touch""#, #""phase":"moved""#,
                               #""x":\#(index)"#, #""id":"e\#(index)""#, #""target":"canvas""#]
                for i in stride(from: members.count - 1, to: 0, by: -1) {
                    members.swapAt(i, Int(random.next() % UInt64(i + 1)))
                }
                let line = "{" + members.joined(separator: ",") + "}"
                #expect(learning.decode(line) == general.decode(line), "\(line)")
            }
            let matchedBefore = learning.lineShapes.matchedLines
            for index in 0..<200 {
                let line = #"{"ts":\#(index),"session":"ordered\#(round)","type":"touch","phase":"moved","x":\#(index)}"#
                #expect(learning.decode(line) == general.decode(line), "\(line)")
            }
            #expect(learning.lineShapes.matchedLines - matchedBefore > 190)
            #expect(learning.lineShapes.orderKeysAreCounted)
        }
        #expect(learning.lineShapes.matchedLines < 6 * 200 + 10)
    }

    /// A log that begins with lines no shape can be learned from (here of a type this version does not
    /// know) puts matching to rest before any shape is held; the rest must still end.
    @Test func aRestBeforeAnyShapeEnds() {
        var learning = EventDecoder(learnsLineShapes: true)
        for index in 0..<300 {
            _ = learning.decode(#"{"ts":1,"session":"s","type":"future.kind","id":"e\#(index)"}"#)
        }
        var general = EventDecoder(learnsLineShapes: false)
        for index in 0..<10_000 {
            let line = #"{"ts":1,"session":"s","type":"touch","phase":"moved","id":"e\#(index)","x":\#(index % 100)}"#
            #expect(learning.decode(line) == general.decode(line))
        }
        #expect(learning.lineShapes.matchedLines > 5_000)
        #expect(!learning.lineShapes.isResting)
    }

    /// Every type, each line matched against its type's shape: the kind the shape remembers for its
    /// `type` must be the line's.
    @Test func everyTypeIsMatchedAsItself() {
        let members: [String] = [
            #""type":"session.start","haptics_enabled":true"#, #""type":"session.end""#,
            #""type":"touch","phase":"moved","x":1"#, #""type":"pencil.double_tap","action":"ignore""#,
            #""type":"haptic","kind":"selection""#, #""type":"outcome","result":"success""#,
            #""type":"nav.tab_switch","from":"tab:A","to":"tab:B""#, #""type":"nav.push","to":"detail""#,
            #""type":"nav.pop","to":"list""#, #""type":"modal.present","modal":"m","style":"popover""#,
            #""type":"modal.dismiss","modal":"m""#, #""type":"content.mutation","action":"delete""#,
            #""type":"loading.start","indicator":"spinner""#, #""type":"loading.end""#,
            #""type":"capture.start","source":"camera""#, #""type":"capture.stop","source":"camera""#,
            #""type":"app.ready""#, #""type":"permission.request","permission":"camera","result":"granted""#,
            #""type":"rating.prompt""#, #""type":"widget.display","widget":"w","content":"cached","load_ms":12.5"#,
            #""t\u0079pe":"touch","phase":"moved""#, #""type":"t\u006fuch","phase":"ended""#,
        ]
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var random = SplitMix64(seed: 11)
        var kinds = Set<EventKind>()
        var member = members[0]
        for index in 0..<6_000 {
            // Runs of one to twenty lines of a type, as sessions write them.
            if random.next() % 10 == 0 { member = members[Int(random.next() % UInt64(members.count))] }
            let line = #"{"ts":\#(1_795_208_645_000 + index),"session":"s","id":"e\#(index)",\#(member)}"#
            let expected = general.decode(line)
            #expect(learning.decode(line) == expected, "\(line)")
            if case .event(let event) = expected { kinds.insert(event.kind) }
        }
        #expect(kinds == Set(EventKind.allCases))
        #expect(learning.lineShapes.matchedLines > 4_000)
        // Shapes refined, forked and replaced along the way: each held shape's key counted once.
        #expect(learning.lineShapes.orderKeysAreCounted)
    }

    /// Writers that put values of changing length before `type` (keys sorted, as Go writes them; the
    /// payload first, as a JavaScript SDK does) interleaved with a writer that puts it early, in runs of
    /// types, some lines damaged: wherever the type stands, its value finds the line's shapes
    /// (`LineFingerprint`), and every line gets the general scan's verdict.
    @Test func typesAfterValuesOfChangingLengthAreMatched() {
        var random = SplitMix64(seed: 30)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        func number() -> String {
            let whole = random.next() % 2_000
            return random.next() % 3 == 0 ? "\(whole)" : "\(whole).\(random.next() % 10)"
        }
        func sortedKeys(_ index: Int, type: String) -> String {
            // Go trims trailing zeros of the fraction, so `ts` changes length.
            let millis = random.next() % 1_000
            var fraction = millis == 0 ? "" : String(String(format: ".%03d", Int(millis)).reversed().drop { $0 == "0" }.reversed())
            if fraction == "." { fraction = "" }
            let ts = "2026-11-20T14:46:\(10 + index % 50)\(fraction)-08:00"
            return type == "touch"
                ? #"{"device":"ipad-4","id":"e\#(index)","input":"pencil","phase":"moved","session":"s4","ts":"\#(ts)","type":"touch","x":\#(number()),"y":\#(number())}"#
                : #"{"device":"ipad-4","id":"e\#(index)","kind":"selection","session":"s4","ts":"\#(ts)","type":"haptic"}"#
        }
        func payloadFirst(_ index: Int, type: String) -> String {
            type == "touch"
                ? #"{"phase":"moved","x":\#(number()),"y":\#(number()),"type":"touch","ts":\#(1_795_211_479_000 + index),"id":"e\#(index)","session":"s3"}"#
                : #"{"kind":"selection","duration_ms":\#(number()),"type":"haptic","ts":\#(1_795_211_479_000 + index),"id":"e\#(index)","session":"s3"}"#
        }
        func typeEarly(_ index: Int, type: String) -> String {
            type == "touch"
                ? #"{"ts":\#(1_795_211_479_000 + index),"session":"s1","type":"touch","id":"e\#(index)","phase":"moved","x":\#(number()),"y":\#(number())}"#
                : #"{"ts":\#(1_795_211_479_000 + index),"session":"s1","type":"haptic","id":"e\#(index)","kind":"selection"}"#
        }
        let writers = [sortedKeys, payloadFirst, typeEarly]
        var writer = 0
        var type = "touch"
        let lines = 9_000
        for index in 0..<lines {
            // Runs of one writer (a device's upload) and of one type within it.
            if random.next() % 40 == 0 { writer = Int(random.next() % 3) }
            if random.next() % 6 == 0 { type = type == "touch" ? "haptic" : "touch" }
            var line = Array(writers[writer](index, type).utf8)
            if random.next() % 100 < 3 { line = Self.damaged(line, using: &random) }
            #expect(line.withUnsafeBytes { learning.decode($0) } == line.withUnsafeBytes { general.decode($0) },
                    "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(learning.lineShapes.matchedLines > lines * 3 / 4)
    }

    /// Many devices' lines interleaved line by line, as one upload of a fleet holds them: six writers
    /// (key orders, separators and spacing of their own; `ts` as text or milliseconds; a sequence
    /// number no field reads; a nested object), each writing several event types, every line of
    /// another session, device and `id`, and a seventh writer that orders keys anew on every line.
    /// Once each writer's layouts have been learned, the lines of the six match their shapes (a hash
    /// of the line's head and `type` finds them), the seventh's are never learned, and every line gets
    /// the general scan's verdict. (With a few shapes tried most recent first, most lines missed and
    /// matching rested.)
    @Test func interleavedWritersLinesMatchTheirOwnShapes() {
        var random = SplitMix64(seed: 49)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        /// The members of a line of `type`, as (key, value) in a writer's order before its own changes.
        func members(_ index: Int, type: String) -> [(String, String)] {
            let session = String(format: "%016llx", random.next())
            let common: [(String, String)] = [
                ("session", "\"\(session)\""), ("id", "\"e\(random.next() % 300)\""),
                ("device", "\"ipad-\(1_000 + random.next() % 3_000)\""), ("app_version", "\"\(pick(["5.1.0", "5.2.0", "5.2.1"]))\""),
                ("screen", "\"\(pick(["canvas.editor", "canvas.editor", "brushes.list", "gallery.grid"]))\""),
            ]
            let payload: [(String, String)]
            switch type {
            case "touch":
                payload = [("phase", "\"\(pick(["began", "moved", "moved", "ended"]))\""), ("target", "\"\(pick(["canvas", "canvas", "picker:brushes"]))\""),
                           ("input", "\"\(pick(["pencil", "finger"]))\""), ("x", "\(random.next() % 1000).\(random.next() % 10)"),
                           ("y", "\(random.next() % 1000)")]
            case "haptic": payload = [("kind", "\"\(pick(["selection", "impact.light"]))\"")]
            case "nav.push": payload = [("to", "\"\(pick(["brushes.detail", "settings"]))\"")]
            default: payload = [("action", "\"\(pick(["insert", "delete"]))\""), ("object", "\"\(pick(["stroke", "layer"]))\"")]
            }
            return [("type", "\"\(type)\"")] + common + payload
        }
        func isoTime(_ index: Int) -> String { "\"2026-11-20T18:\(10 + index / 6_000 % 50):\(10 + index / 100 % 50).\(100 + index % 900)Z\"" }
        func join(_ members: [(String, String)], separator: String = ",", colon: String = ":", open: String = "{", close: String = "}") -> String {
            open + members.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: separator) + close
        }
        let writers: [(Int, String) -> String] = [
            // ts, session, type first; compact.
            { index, type in
                let m = members(index, type: type)
                return join([("ts", isoTime(index)), m[1], m[0]] + m[2...])
            },
            // type first, spaced separators, ts as text.
            { index, type in
                let m = members(index, type: type)
                return join([m[0], ("ts", isoTime(index))] + m[1...], separator: ", ", colon: ": ")
            },
            // payload first, ts in milliseconds, a nested object at the end.
            { index, type in
                let m = members(index, type: type)
                return join(Array(m[6...]) + [m[0], ("ts", "\(1_795_208_645_000 + index)")] + m[1..<6] + [("sdk", #"{"name":"rn","version":"2.4.0"}"#)])
            },
            // keys sorted.
            { index, type in
                join((members(index, type: type) + [("ts", isoTime(index))]).sorted { $0.0 < $1.0 })
            },
            // id and a sequence number first.
            { index, type in
                let m = members(index, type: type)
                return join([m[2], ("seq", "\(index)"), ("ts", isoTime(index)), m[0], m[1]] + m[3...])
            },
            // spaces around every separator, a space before the end.
            { index, type in
                let m = members(index, type: type)
                return join([("ts", isoTime(index)), m[1], m[0]] + m[2...], separator: " , ", colon: " : ", open: "{ ", close: " } ")
            },
        ]
        let types = ["touch", "touch", "touch", "haptic", "nav.push", "content.mutation"]
        let lines = 14_000
        var orderedLines = 0
        var orderedMatched = 0
        for index in 0..<lines {
            let writer = Int(random.next() % 7)
            let type = pick(types)
            let line: String
            if writer == 6 {
                var shuffled = members(index, type: type) + [("ts", isoTime(index))]
                for i in stride(from: shuffled.count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(random.next() % UInt64(i + 1))) }
                line = join(shuffled)
            } else {
                line = writers[writer](index, type)
            }
            let before = learning.lineShapes.matchedLines
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            // After the warm-up, and the rest its misses may have begun (`LineShapes.restingLines`).
            if index >= 6_000, writer != 6 {
                orderedLines += 1
                if learning.lineShapes.matchedLines > before { orderedMatched += 1 }
            }
        }
        #expect(orderedMatched * 100 > orderedLines * 95, "\(orderedMatched) of \(orderedLines)")
    }

    /// Decodes 9,000 touch lines of 300 sessions interleaved, one envelope first on every line (as
    /// `import` writes it), each session's line laid out by `layout` (of its session's number, the
    /// envelope and the fields, in the same order on every line), checking each against the general
    /// scan's verdict; returns, of the lines after the first 3,000 whose session `counts`, how many
    /// there were and how many matched a learned shape.
    static func interleavedSDKLayouts(
        _ layout: (_ session: Int, _ index: Int, _ envelope: String, _ fields: String) -> String,
        counts: (Int) -> Bool = { _ in true }
    ) -> (late: Int, matched: Int) {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var late = 0
        var lateMatched = 0
        for index in 0..<9_000 {
            let session = index % 300
            let envelope = #"{"ts":\#(1_795_197_600_000 + index),"session":"s\#(session)","type":"touch","device":"d\#(session)","id":"e\#(index)""#
            let fields = #""phase":"moved","x":\#(index % 700),"y":\#(index % 300).5"#
            let line = layout(session, index, envelope, fields)
            let before = learning.lineShapes.matchedLines
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            if index >= 3_000, counts(session) {
                late += 1
                if learning.lineShapes.matchedLines > before { lateMatched += 1 }
            }
        }
        return (late, lateMatched)
    }

    /// Per session one SDK's layout of the same fields in the same order: without a member no field
    /// reads, with an `sdk` name at the end, with a sequence number after the id. Each layout is a
    /// shape of its own (`LineShapes.skeleton`), and the lines match; refining one shape with the
    /// other layouts' lines had each miss in turn, and matching rested.
    @Test func layoutsWithOtherUnreadMembersInterleavedEachMatch() {
        let (late, matched) = Self.interleavedSDKLayouts { session, index, envelope, fields in
            switch session % 3 {
            case 0: envelope + "," + fields + "}"
            case 1: envelope + "," + fields + #","sdk":"rn-telemetry 2.4.0"}"#
            default: envelope + #","seq":\#(index),"# + fields + "}"
            }
        }
        #expect(matched * 100 > late * 95, "\(matched) of \(late)")
    }

    /// The same with an unread object or array in place of the unread scalars (an SDK's own object,
    /// as a log `import` wrote from PostHog or Datadog RUM keeps it): each layout is a shape of its
    /// own, and every line gets the general scan's verdict. A container counts by its place: a writer
    /// whose object changes on every line misses on each of its own lines, but refines no other
    /// layout's shape. Containers did not tell layouts apart: each writer's lines refined the others'
    /// shapes in turn, and matching rested.
    @Test func layoutsWithOtherUnreadContainersInterleavedEachMatch() {
        let (late, matched) = Self.interleavedSDKLayouts({ session, index, envelope, fields in
            switch session % 4 {
            case 0: envelope + "," + fields + "}"
            case 1: envelope + "," + fields + #","sdk":{"name":"rn-telemetry","version":"2.4.0"}}"#
            case 2: envelope + #","tags":["a","b"],"# + fields + "}"
            default: envelope + "," + fields + #","context":{"sent":\#(index),"queue":[\#(index % 7)]}}"#
            }
        }, counts: { $0 % 4 != 3 })
        #expect(matched * 100 > late * 95, "\(matched) of \(late)")
    }

    /// A writer with a fixed envelope and a hash map of properties (their order new on most lines)
    /// interleaved with writers that keep their order, all with one head and `type`: the others' lines
    /// keep matching (`LineShapes.holdsOtherOrdersEnough`), and every line gets the general scan's
    /// verdict. Learning each order the shuffling writer happened to repeat pushed the others' shapes
    /// out of their set, and matching rested for everyone.
    @Test func aWriterOfShuffledPropertiesLeavesTheOthersMatching() {
        var random = SplitMix64(seed: 47)
        var tally = MatchTally()
        let lines = 12_000
        for index in 0..<lines {
            let session = Int(random.next() % 400)
            let envelope = #"{"ts":\#(1_795_197_600_000 + index),"session":"s\#(session)","type":"touch","device":"d\#(session)","id":"e\#(index)""#
            var properties = [
                #""phase":"moved""#, #""x":\#(index % 700)"#, #""y":\#(index % 300)"#, #""target":"canvas""#,
                #""input":"pencil""#,
            ]
            let shuffles = session % 3 == 0
            if shuffles {
                for i in stride(from: properties.count - 1, to: 0, by: -1) {
                    properties.swapAt(i, Int(random.next() % UInt64(i + 1)))
                }
            } else if session % 3 == 2 {
                properties.reverse()
            }
            tally.decode(envelope + "," + properties.joined(separator: ",") + "}", counts: index >= 4_000 && !shuffles)
        }
        #expect(tally.matched * 100 > tally.counted * 90, "\(tally.matched) of \(tally.counted)")
    }

    /// Sessions that each keep an order of their own (an app writing a Swift dictionary, whose order
    /// is fixed by the process's hash seed: a new one each launch), 200 of them interleaved with 600
    /// sessions whose writer keeps one order: more layouts than the sets hold take turns, and those
    /// turned away for the orders a set holds already are taken for layouts seen once
    /// (`LineShapes.holdsOtherOrdersEnough`). Every line still gets the general scan's verdict, and
    /// the lines of the writer that keeps one order keep matching.
    @Test func sessionsWithAnOrderOfTheirOwnLeaveTheOthersMatching() {
        var random = SplitMix64(seed: 49)
        var tally = MatchTally()
        let sessions = 800
        var orders: [[Int]] = (0..<sessions).map { _ in Array(0..<7) }
        for session in 0..<sessions where session % 4 == 0 {
            for i in stride(from: 6, to: 0, by: -1) { orders[session].swapAt(i, Int(random.next() % UInt64(i + 1))) }
        }
        for index in 0..<16_000 {
            let session = Int(random.next() % UInt64(sessions))
            let members = [
                #""ts":\#(1_795_197_600_000 + index)"#, #""session":"s\#(session)""#, #""type":"touch""#,
                #""device":"d\#(session)""#, #""id":"e\#(index)""#, #""phase":"moved""#, #""x":\#(index % 700)"#,
            ]
            let line = "{" + orders[session].map { members[$0] }.joined(separator: ",") + "}"
            tally.decode(line, counts: index >= 6_000 && session % 4 != 0)
        }
        #expect(tally.matched * 100 > tally.counted * 90, "\(tally.matched) of \(tally.counted)")
    }

    /// Decodes lines with a decoder that learns shapes and one that never does, expecting the same
    /// verdict of both, and counts, of the lines said to count, how many a learned shape matched.
    struct MatchTally {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var counted = 0
        var matched = 0

        mutating func decode(_ line: String, counts: Bool) {
            let before = learning.lineShapes.matchedLines
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            guard counts else { return }
            counted += 1
            if learning.lineShapes.matchedLines > before { matched += 1 }
        }
    }

    /// Sessions whose ids share their first 16 bytes share a place in the sessions' memory of shapes
    /// (`LineShapes.sessionShapes`), and lines of several layouts and malformed ones come between: a
    /// hint only, so every line still gets the general scan's verdict.
    @Test func sessionsAlikeInTheirFirstBytesGetTheGeneralScansVerdicts() {
        var random = SplitMix64(seed: 16)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        for index in 0..<8_000 {
            let session = random.next() % 200
            let envelope = #"{"ts":\#(1_795_197_600_000 + index),"session":"0123456789abcdef-\#(session)","type":"touch","id":"e\#(index)""#
            let extra = switch session % 4 {
            case 0: ""
            case 1: #","sdk":"ios""#
            case 2: #","seq":\#(index)"#
            default: #","sdk":"android","seq":\#(index)"#
            }
            var line = Array((envelope + extra + #","phase":"moved","x":\#(index % 90)}"#).utf8)
            if random.next() % 100 < 3 { line = Self.damaged(line, using: &random) }
            let expected = line.withUnsafeBytes { general.decode($0) }
            #expect(line.withUnsafeBytes { learning.decode($0) } == expected, "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(learning.lineShapes.matchedLines > 4_000)
    }

    /// A value that changed often for a while and then stays (the target of a few quick taps, then a
    /// long stroke on the canvas) is read as a constant again once the shape is refreshed, while the
    /// values that keep changing stay variable, and the lines around the refreshes keep matching.
    @Test func refreshedShapesReadSettledValuesAsConstants() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        func line(_ index: Int, target: String) -> String {
            #"{"ts":"2026-11-20T18:\#(10 + index / 6_000 % 50):\#(10 + index / 100 % 50).\#(100 + index % 900)Z","#
                + #""session":"s1","type":"touch","id":"e\#(index)","phase":"moved","target":"\#(target)","#
                + #""x":\#(index % 1000).5,"y":\#(index * 7 % 1000)}"#
        }
        for index in 0..<200 {
            let target = ["a", "b", "c"][index % 3]
            #expect(learning.decode(line(index, target: target)) == general.decode(line(index, target: target)))
        }
        #expect(learning.lineShapes.variableFieldsOfLatestShape.contains(.target))
        let matchedBefore = learning.lineShapes.matchedLines
        for index in 200..<2_000 {
            #expect(learning.decode(line(index, target: "canvas")) == general.decode(line(index, target: "canvas")))
        }
        let variables = learning.lineShapes.variableFieldsOfLatestShape
        #expect(!variables.contains(.target))
        #expect([.ts, .id, .x, .y].allSatisfy(variables.contains))
        // Refreshed in place, not learned afresh: not one line missed.
        #expect(learning.lineShapes.matchedLines - matchedBefore == 1_800)
    }

    /// The common texts a shape keeps for its lines (`LineShapes.sharedTextsOfLatestMatch`): constant ones
    /// plain, escaped, over 16 bytes, exactly 16, empty, `null` or absent, next to ones that change
    /// every few lines, in runs long enough to be learned; every line must decode as the scan reads it.
    @Test func sharedTextsAreTheLinesOwn() {
        let devices = [#""ipad-0011""#, #""ipad\u002d0011""#, #""device-with-a-long-name-0042""#, #""sixteen-bytes-16""#,
                       #""""#, "null", #""é日本""#]
        let versions = [#""5.2.1""#, #""5.2.2""#, "null", #""a\"b""#, #""seventeen-bytes-1""#]
        var random = SplitMix64(seed: 11)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        for run in 0..<120 {
            let device = devices[run % devices.count]
            let version = versions[run / devices.count % versions.count]
            let withApp = run % 3 == 0
            let sessionChanges = run % 4 == 1
            // Every tenth run long enough for refreshes (every 512 matches), which write the shared
            // texts' entries back into the field table, shifted by the variable-length id before them.
            for _ in 0..<(run % 10 == 9 ? 1_200 : 60) {
                let session = sessionChanges ? "s-\(random.next() % 3)" : "s-\(run)"
                let screen = run % 5 == 2 && random.next() % 2 == 0 ? "gallery" : "canvas.editor"
                let app = withApp ? #""app":"Sketchbook","# : ""
                let line = #"{"ts":"2026-11-20T18:00:41.\#(100 + count % 900)Z","session":"\#(session)","type":"touch","#
                    + #""id":"e\#(count)",\#(app)"device":\#(device),"app_version":\#(version),"screen":"\#(screen)","#
                    + #""phase":"moved","x":\#(count % 1000),"y":2.5}"#
                count += 1
                #expect(learning.decode(line) == general.decode(line), "\(line)")
            }
        }
        #expect(learning.lineShapes.matchedLines > count * 3 / 4)
    }

    /// Variable numbers read eight bytes at a time (`LineShapes.number`, with 16 bytes readable after
    /// them): every count of integer and fraction digits around the fast path's limits, leading zeros,
    /// signs, exponents, and malformed forms, each compared with the general scan and, for valid ones,
    /// bit for bit with `Double(String)`.
    @Test func variableNumbersReadAsTheScanReadsThem() {
        var random = SplitMix64(seed: 5)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(random.next() % 10)) })
        }
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        // Literals of the forms the eight-byte reading takes (1–7 digits, then none or 1–7).
        var shortForms = 0
        for _ in 0..<40 {
            for integerDigits in 0...10 {
                for fractionDigits in -1...10 {
                    var literal = (random.next() % 3 == 0 ? "-" : "") + digits(integerDigits)
                    // A nonzero first digit, save now and then a leading zero (invalid past one digit).
                    if integerDigits > 0, random.next() % 8 != 0, literal.hasPrefix("0") || literal.hasPrefix("-0") {
                        literal = literal.replacingOccurrences(of: "0", with: "1", range: literal.range(of: "0"))
                    }
                    if fractionDigits >= 0 { literal += "." + digits(fractionDigits) }
                    switch random.next() % 12 {
                    case 0: literal += "e\(random.next() % 30)"
                    case 1: literal += "E-\(random.next() % 30)"
                    default: break
                    }
                    if (1...7).contains(integerDigits) && (fractionDigits == -1 || (1...7).contains(fractionDigits)) {
                        shortForms += 1
                    }
                    let y = Double(count % 1000) + 0.5
                    let line = #"{"ts":"2026-11-20T18:00:41.\#(100 + count % 900)Z","session":"s1","type":"touch","#
                        + #""id":"e\#(count)","phase":"moved","x":\#(literal),"y":\#(y),"target":"a-long-enough-target"}"#
                    count += 1
                    let expected = general.decode(line)
                    let read = learning.decode(line)
                    #expect(read == expected, "\(line)")
                    if case .event(let event) = read, case .touch(let touch) = event.payload {
                        #expect(touch.x?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
                    }
                }
            }
        }
        #expect(learning.lineShapes.matchedLines > count / 2 && shortForms > 1_000)
    }

    /// Strokes on the canvas with the pencil, and now and then a tap on a button with a finger: the
    /// target and input change in clusters and return. The layouts become shapes of their own
    /// (`LineShapes.rareChangeLines`), so that most stroke lines read neither value, and every line
    /// still decodes as the scan reads it. (Not all: a refresh that makes `phase` constant can have it
    /// taken for a rare change, and then the old rule makes the target variable until the next one.)
    @Test func valuesChangingInClustersForkShapes() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        var strokeLines = 0
        var strokeLinesReadingTarget = 0
        var missesAfterWarmUp = 0
        func line(target: String, input: String, phase: String) -> String {
            defer { count += 1 }
            return #"{"ts":"2026-11-20T18:\#(10 + count / 6_000 % 50):\#(10 + count / 100 % 50).\#(100 + count % 900)Z","#
                + #""session":"s1","type":"touch","id":"e\#(count)","phase":"\#(phase)","target":"\#(target)","#
                + #""input":"\#(input)","x":\#(count % 1000).5,"y":\#(count * 7 % 1000)}"#
        }
        for stroke in 0..<100 {
            for index in 0..<30 {
                let text = line(target: "canvas", input: "pencil", phase: index == 0 ? "began" : index == 29 ? "ended" : "moved")
                let before = learning.lineShapes.matchedLines
                #expect(learning.decode(text) == general.decode(text), "\(text)")
                if stroke >= 20, learning.lineShapes.matchedLines == before { missesAfterWarmUp += 1 }
                let variables = learning.lineShapes.variableFieldsOfLatestShape
                if stroke >= 20 {
                    strokeLines += 1
                    if variables.contains(.target) || variables.contains(.input) { strokeLinesReadingTarget += 1 }
                    #expect(variables.isSuperset(of: [.ts, .id, .x, .y]))
                    // Lines in runs: the next is tried first against the shape (`LineShapes.comesInRuns`).
                    #expect(learning.lineShapes.triesTheLatestShapeFirst)
                }
            }
            let button = ["button:undo", "button:share"][stroke % 2]
            for phase in ["began", "ended"] {
                let text = line(target: button, input: "finger", phase: phase)
                let before = learning.lineShapes.matchedLines
                #expect(learning.decode(text) == general.decode(text), "\(text)")
                if stroke >= 20, learning.lineShapes.matchedLines == before { missesAfterWarmUp += 1 }
            }
        }
        // Most stroke lines read neither value: each layout has its own shape.
        #expect(strokeLinesReadingTarget * 2 < strokeLines)
        // Once both layouts have been seen, returning to one costs less than a miss: most returns
        // find its shape kept beside the other's.
        #expect(missesAfterWarmUp < 2 * 80)
    }

    /// The strokes and taps of `valuesChangingInClustersForkShapes`, as a fleet's upload interleaves its
    /// devices' lines: each touch line of another session than the one before it and followed by a line
    /// of another layout. Every touch line is matched after a line of another shape and the `session`
    /// is variable, so the shapes do not fork (`LineShapes.comesInRuns`): the stroke lines read the
    /// target and input as variable values rather than first trying the tap's shape; the line after one
    /// is not tried first against its shape; and every line still decodes as the scan reads it.
    @Test func valuesChangingInInterleavedLinesDoNotForkShapes() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        var strokeLines = 0
        var strokeLinesReadingTarget = 0
        var strokeLinesTriedFirst = 0
        func decode(_ text: String) {
            count += 1
            #expect(learning.decode(text) == general.decode(text), "\(text)")
        }
        func touch(target: String, input: String, phase: String) {
            decode(#"{"ts":"2026-11-20T18:\#(10 + count / 6_000 % 50):\#(10 + count / 100 % 50).\#(100 + count % 900)Z","#
                + #""session":"s\#(count % 5)","type":"touch","id":"e\#(count)","phase":"\#(phase)","#
                + #""target":"\#(target)","input":"\#(input)","x":\#(count % 1000).5,"y":\#(count * 7 % 1000)}"#)
        }
        /// A line of another device's writer between every two touch lines.
        func otherDevice() {
            decode(#"{"type":"haptic","ts":"2026-11-20T18:00:00.\#(100 + count % 900)Z","session":"s\#(count % 7)","#
                + #""id":"h\#(count)","kind":"selection"}"#)
        }
        for stroke in 0..<100 {
            for index in 0..<30 {
                touch(target: "canvas", input: "pencil", phase: index == 0 ? "began" : index == 29 ? "ended" : "moved")
                let variables = learning.lineShapes.variableFieldsOfLatestShape
                if stroke >= 20 {
                    strokeLines += 1
                    if variables.contains(.target) && variables.contains(.input) { strokeLinesReadingTarget += 1 }
                    if learning.lineShapes.triesTheLatestShapeFirst { strokeLinesTriedFirst += 1 }
                }
                otherDevice()
            }
            let button = ["button:undo", "button:share"][stroke % 2]
            for phase in ["began", "ended"] {
                touch(target: button, input: "finger", phase: phase)
                otherDevice()
            }
        }
        // Most stroke lines read both values: no shape of its own kept the stroke's. (Not all: a refresh
        // makes them constants again until the next tap.)
        #expect(strokeLinesReadingTarget * 4 > strokeLines * 3)
        #expect(strokeLinesTriedFirst * 10 < strokeLines)
        #expect(learning.lineShapes.matchedLines * 10 > count * 9)
    }

    /// A stretch of interleaved lines, then one device's lines alone: the touch shape, judged
    /// interleaved while a haptic line came between every two of its lines, is tried first again once
    /// its lines come in a run (`LineShapes.comesInRuns`). A line of the shape matched last is not one
    /// matched after another shape's line, even when it was matched by its fingerprint.
    @Test func aRunAfterInterleavedLinesIsTriedFirstAgain() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        func decode(_ text: String) {
            count += 1
            #expect(learning.decode(text) == general.decode(text), "\(text)")
        }
        func touch() {
            decode(#"{"ts":"2026-11-20T18:\#(10 + count / 6_000 % 50):\#(10 + count / 100 % 50).\#(100 + count % 900)Z","#
                + #""session":"s\#(count % 5)","type":"touch","id":"e\#(count)","phase":"moved","#
                + #""target":"canvas","input":"pencil","x":\#(count % 1000).5,"y":\#(count * 7 % 1000)}"#)
        }
        func haptic() {
            decode(#"{"type":"haptic","ts":"2026-11-20T18:00:00.\#(100 + count % 900)Z","session":"s\#(count % 7)","#
                + #""id":"h\#(count)","kind":"selection"}"#)
        }
        for _ in 0..<300 {
            touch()
            haptic()
        }
        touch()
        #expect(!learning.lineShapes.triesTheLatestShapeFirst)
        var runLinesTriedFirst = 0
        for _ in 0..<1_000 {
            touch()
            if learning.lineShapes.triesTheLatestShapeFirst { runLinesTriedFirst += 1 }
        }
        // Once at most three quarters of the shape's lines are interleaved, early in the run.
        #expect(runLinesTriedFirst > 800)
        #expect(learning.lineShapes.triesTheLatestShapeFirst)
        #expect(learning.lineShapes.matchedLines * 10 > count * 9)
    }

    /// Sessions one after another, as uploads bring them, each writing a few layouts
    /// (`LineShapes.carrySessionTexts`): the shapes learned in one session are carried over to the next
    /// when its first line is learned, so that its other layouts match from their first line. Session texts of every kind change along the
    /// way: ids of one length and of another, over 16 bytes, escaped; devices and app versions that
    /// keep their length or not, `null`, absent; a line of the session before now and then. Every line
    /// must decode as the scan reads it, and when a session's texts are plain and as long as the
    /// session before's, its other layouts match from their first line.
    @Test func aNewSessionKeepsTheShapesOfTheSessionBefore() {
        var random = SplitMix64(seed: 23)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var count = 0
        /// Whether each line decoded matched a shape.
        var matched: [Bool] = []
        func decode(_ line: String) {
            let before = learning.lineShapes.matchedLines
            #expect(learning.decode(line) == general.decode(line), "\(line)")
            matched.append(learning.lineShapes.matchedLines > before)
        }
        func line(session: String, device: String, version: String, _ members: String) -> String {
            defer { count += 1 }
            return #"{"ts":"2026-11-20T18:\#(10 + count / 6_000 % 50):\#(10 + count / 100 % 50).\#(100 + count % 900)Z","#
                + #""session":\#(session),"type":\#(members),"id":"e\#(count)","device":\#(device),"#
                + #""app_version":\#(version),"screen":"canvas.editor"}"#
        }
        var previous: (session: String, device: String, version: String)?
        /// Sessions whose texts and the session before's are all plain and of the usual lengths.
        let unusual: Set<Int> = [3, 5, 7, 9, 11, 13, 14]
        var carriedSessions = 0
        for number in 0..<128 {
            let firstLine = matched.count
            let session: String
            switch number % 32 {
            case 5: session = #""session-with-a-long-id-\#(100_000 + number)""#
            case 11: session = #""s\u002d\#(10_000 + number)""#
            case 13: session = #""s-\#(number)""#
            default: session = #""s-\#(10_000 + number)""#
            }
            let device = number % 32 == 3 ? "null" : number % 32 == 9 ? #""ipad\u002d0011""# : #""ipad-00\#(10 + number % 80)""#
            let version = number % 32 == 7 ? #""5.10.0""# : number % 32 == 14 ? "null" : #""5.2.\#(number % 3)""#
            // Enough lines of each layout that a session stays a constant of its shapes.
            for index in 0..<80 {
                decode(line(
                    session: session, device: device, version: version,
                    #""touch","phase":"moved","x":\#(random.next() % 1000).5,"y":\#(random.next() % 1000)"#))
                decode(line(session: session, device: device, version: version, #""content.mutation","action":"insert""#))
                decode(line(session: session, device: device, version: version, #""haptic","kind":"selection""#))
                if index == 40, let previous, random.next() % 3 == 0 {
                    decode(line(session: previous.session, device: previous.device, version: previous.version, #""haptic","kind":"selection""#))
                }
            }
            previous = (session, device, version)
            if number > 0, !unusual.contains(number % 32), !unusual.contains((number - 1) % 32) {
                // The session's first line is learned; its other two layouts then match at once.
                #expect(matched[firstLine + 1] && matched[firstLine + 2], "session \(number)")
                carriedSessions += 1
            }
            // Carrying a session's texts over changes the other shapes' `session` values: their keys
            // for finding keys in a new order are counted again.
            #expect(learning.lineShapes.orderKeysAreCounted, "session \(number)")
            // And the word by which carrying finds the shapes of a session is their `session`'s.
            #expect(learning.lineShapes.sessionKeysAreCurrent, "session \(number)")
        }
        #expect(carriedSessions > 64)
    }

    // MARK: Streams

    private static let targets = ["canvas", "canvas", "canvas", "tab:Library", "button:delete", "é-target"]
    private static let screens = ["canvas.editor", "gallery", "settings"]

    /// Touch streams of a few sessions with the occasional other event, members in one order per type,
    /// values changing as they do in the field.
    static func touchStreamLine(using random: inout SplitMix64) -> String {
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let session = chance(2) ? "s-\(random.next() % 4)" : "s-1"
        // One session writes `ts` as milliseconds.
        let ts = session != "s-3"
            ? "\"2026-11-20T18:\(10 + random.next() % 50):\(10 + random.next() % 50).\(100 + random.next() % 900)Z\""
            : "\(1_795_208_645_123 + random.next() % 100_000)"
        let head = #"{"ts":\#(ts),"session":"\#(session)","#
        let common = #""id":"e\#(random.next() % 100_000)","device":"ipad-0011","app_version":"5.2.1","screen":"\#(chance(97) ? "canvas.editor" : pick(screens))""#
        switch random.next() % 30 {
        case 0:
            return head + #""type":"haptic","# + common + #","kind":"\#(pick(["impact.light", "selection"]))"}"#
        case 1:
            return head + #""type":"haptic","# + common + #","kind":"impact.light","duration_ms":\#(random.next() % 40)}"#
        case 2:
            return head + #""type":"nav.tab_switch","# + common + #","from":"tab:\#(pick(["A", "B"]))","to":"tab:\#(pick(["A", "B", "C"]))"}"#
        case 3:
            return head + #""type":"content.mutation","# + common + #","action":"delete","object":"\#(pick(["doc", "layer"]))","undoable":\#(chance(50))}"#
        case 4:
            return head + #""type":"app.ready","# + common + "}"
        case 5:
            let result = chance(30) ? "" : #","result":"\#(pick(["granted", "denied", "already_decided"]))""#
            return head + #""type":"permission.request","# + common + #","permission":"\#(pick(["camera", "location", "notifications"]))""# + result + "}"
        case 6:
            return head + #""type":"rating.prompt","# + common + "}"
        case 7:
            let load = chance(20) ? "" : #","load_ms":\#(chance(50) ? "\(random.next() % 3000)" : "\(random.next() % 3000).\(random.next() % 10)")"#
            return head + #""type":"widget.display","# + common + #","widget":"\#(pick(["recent", "weather"]))","content":"\#(pick(["fresh", "cached", "placeholder"]))""# + load + "}"
        default:
            let phase = chance(75) ? "moved" : pick(["began", "ended", "cancelled"])
            let target = chance(90) ? "canvas" : pick(targets)
            let input = chance(95) ? "pencil" : "finger"
            let x = chance(80) ? "\(random.next() % 1000).\(random.next() % 10)" : "\(random.next() % 1000)"
            let y = chance(5) ? "-\(random.next() % 100)" : "\(random.next() % 1000).\(random.next() % 100)"
            let extra = chance(3) ? #","pressure":[0.5,{"a":null}]"# : ""
            return head + #""type":"touch","# + common + #","phase":"\#(phase)","target":"\#(target)","input":"\#(input)""#
                + #","x":\#(x),"y":\#(y)\#(extra)}"#
        }
    }

    /// The line with one of many kinds of damage, anywhere in it.
    static func damaged(_ line: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = line
        let at = Int(random.next() % UInt64(bytes.count))
        let replacements: [UInt8] = [0x22, 0x5C, 0x2C, 0x3A, 0x20, 0x0A, 0x01, 0x7D, 0x7B, 0x30, 0x2E, 0x65, 0x2D, 0x61, 0xC3, 0xFF]
        let replacement = replacements[Int(random.next() % UInt64(replacements.count))]
        switch random.next() % 5 {
        case 0: bytes[at] = replacement
        case 1: bytes.insert(replacement, at: at)
        case 2: bytes.remove(at: at)
        case 3: bytes = Array(bytes.prefix(at))
        default: bytes += [replacement]
        }
        return bytes
    }
}
