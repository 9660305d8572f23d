import Testing
@testable import HIGAuditCore

/// Exports from a writer that orders keys anew on every line (a hash map's order, as Foundation's
/// `JSONEncoder` writes): a line whose layout was not seen before teaches no layout
/// (`ExportLineLayouts.learnRepeated`), one seen before does, and every line imports as it does
/// without layouts.
@Suite struct ShuffledKeysImportTests {
    /// The members of the first object of `line` (in text order) with at least four, and at least as
    /// many as `order` holds, reordered by `order` (indices into its members, those it leaves out
    /// after them); nil where the line holds no such object or does not read as JSON this simple
    /// reading understands.
    static func reordered(_ line: String, _ order: [Int]) -> String? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\""), let end = stringEnd(bytes, from: i) {
                i = end
                continue
            }
            if bytes[i] == UInt8(ascii: "{"), let (members, end) = members(bytes, at: i), members.count >= max(4, order.count) {
                let reordered = order.map { members[$0] } + members.indices.filter { !order.contains($0) }.map { members[$0] }
                let object = "{" + reordered.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "}"
                return String(decoding: bytes[..<i], as: UTF8.self) + object + String(decoding: bytes[end...], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// The index after the closing quote of the string whose opening quote is at `start`.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
            if bytes[i] == UInt8(ascii: "\"") { return i + 1 }
            i += 1
        }
        return nil
    }

    /// The members' texts of the object whose `{` is at `start`, and the index after its `}`.
    private static func members(_ bytes: [UInt8], at start: Int) -> (members: [ArraySlice<UInt8>], end: Int)? {
        var members: [ArraySlice<UInt8>] = []
        var depth = 0
        var memberStart = start + 1
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: i) else { return nil }
                i = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    members.append(bytes[memberStart..<i])
                    return (members, i + 1)
                }
            case UInt8(ascii: ",") where depth == 1:
                members.append(bytes[memberStart..<i])
                memberStart = i + 1
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// Every order of `count` members, the identity first.
    static func permutations(of count: Int) -> [[Int]] {
        guard count > 1 else { return [Array(0..<count)] }
        return permutations(of: count - 1).flatMap { shorter in
            (0...shorter.count).reversed().map { place in
                var order = shorter
                order.insert(count - 1, at: place)
                return order
            }
        }
    }

    /// The 24 orders of a line's first four members.
    static let orders = permutations(of: 4)

    static let otlpRequestOfOneRecord = #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"ipad-0011"}}]},"scopeLogs":[{"scope":{"name":"sdk"},"logRecords":[{"timeUnixNano":"1795168810000000000","observedTimeUnixNano":"1795168810000000001","severityNumber":9,"eventName":"hig.haptic","attributes":[{"key":"session.id","value":{"stringValue":"s-1"}},{"key":"kind","value":{"stringValue":"impact.light"}}]}]}]}]}"#

    @Test(arguments: ImportFormat.allCases)
    func aLayoutIsLearnedTheSecondTimeItIsSeenAndLinesImportAlike(format: ImportFormat) throws {
        // OTLP: a request of one record (the fixtures' hold several, which the records' layouts read).
        let fixture = try format == .otlp ? Self.otlpRequestOfOneRecord : #require(
            ExportLineLayoutsTests.fixtureLines(format).first { Self.reordered($0, [0, 1, 2, 3]) != nil },
            "a \(format) fixture line with an object of four members")
        let shuffled = Self.orders.map { Self.reordered(fixture, $0)! }
        #expect(Set(shuffled).count == Self.orders.count)
        // Each order once: no layout is learned.
        let once = shuffled.map { Array($0.utf8) }
        let (_, afterOnce) = ImportOutcomes.read(format, once, writes: false) { _ in }
        #expect(afterOnce.layouts.learned == 0, "\(format): \(afterOnce.layouts.learned) learned")
        #expect(afterOnce.layouts.firstSightings == Self.orders.count)
        #expect(afterOnce.layouts.matched == 0)
        _ = ExportLineLayoutsTests.expectSame(format, once, "\(format), each order once")
        // Each order three times: learned the second time, matched the third.
        let thrice = shuffled.flatMap { [$0, $0, $0] }.map { Array($0.utf8) }
        let (_, afterThrice) = ImportOutcomes.read(format, thrice, writes: false) { _ in }
        #expect(afterThrice.layouts.learned == Self.orders.count, "\(format): \(afterThrice.layouts.learned) learned")
        #expect(afterThrice.layouts.firstSightings == Self.orders.count)
        #expect(afterThrice.layouts.matched == Self.orders.count, "\(format): \(afterThrice.layouts.matched) matched")
        _ = ExportLineLayoutsTests.expectSame(format, thrice, "\(format), each order three times")
    }

    /// After many lines in a row whose layouts are each new, only some lines' layouts are looked at;
    /// a layout that repeats among such lines, line for line, is still learned and matched.
    @Test func aLayoutRepeatedAmongManyNewOnesIsStillLearned() throws {
        let fixture = try #require(
            ExportLineLayoutsTests.fixtureLines(.datadogRUM).first { Self.reordered($0, Array(0..<6)) != nil },
            "a Datadog RUM fixture line with an object of six members")
        let orders = Self.permutations(of: 6)
        let repeated = try #require(Self.reordered(fixture, orders[0]))
        // 600 lines: at first only new layouts, then each new one followed by the repeated one.
        let newOnes = orders.dropFirst().prefix(400).map { Self.reordered(fixture, $0)! }
        let lines = (newOnes.prefix(200) + newOnes.dropFirst(200).flatMap { [$0, repeated] }).map { Array($0.utf8) }
        let (_, importer) = ImportOutcomes.read(.datadogRUM, lines, writes: false) { _ in }
        #expect(importer.layouts.learned == 1, "\(importer.layouts.learned) learned")
        // Fewer than all the new layouts were looked at.
        #expect(importer.layouts.firstSightings < 300, "\(importer.layouts.firstSightings) first sightings")
        #expect(importer.layouts.matched > 100, "\(importer.layouts.matched) matched")
        _ = ExportLineLayoutsTests.expectSame(.datadogRUM, lines, "a repeated layout among new ones")
    }

    /// Lines of one layout have one signature wherever their keys stand: here a key whose last bytes
    /// (past a word) lie within a word of the line's end or not, as the value after it is shorter or
    /// longer. The second line of the layout is learned.
    @Test func linesOfOneLayoutAreOneLayoutWhateverTheirValuesLengths() {
        for (short, long) in [("5", "12"), ("12", "5"), (#""a""#, #""abc""#), ("1", "123456789")] {
            var layouts = ExportLineLayouts()
            defer { layouts.deallocate() }
            var tape = JSONTape()
            defer { tape.deallocate() }
            let learned = [short, long].map { value in
                Array(#"{"id":"e1","duration_ms":\#(value)}"#.utf8).withUnsafeBytes { bytes -> Bool in
                    guard (try? tape.read(bytes)) != nil else { return false }
                    return layouts.learnRepeated(tape) != nil
                }
            }
            #expect(learned == [false, true], "\(short), then \(long): \(learned)")
        }
    }
}
