import Testing
@testable import HIGAuditCore

/// Exports from a writer that orders keys anew on every line (a hash map's order, as Foundation's
/// `JSONEncoder` writes): a line whose layout was not seen before teaches no layout
/// (`ExportLineLayouts.learnRepeated`), one seen before does, and every line imports as it does
/// without layouts.
@Suite struct ShuffledKeysImportTests {
    /// The members of the first object of `line` (in text order) with at least four, reordered by
    /// `order` (indices into its members); nil where the line holds no such object or does not read
    /// as JSON this simple reading understands.
    static func reordered(_ line: String, _ order: [Int]) -> String? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\""), let end = stringEnd(bytes, from: i) {
                i = end
                continue
            }
            if bytes[i] == UInt8(ascii: "{"), let (members, end) = members(bytes, at: i), members.count >= 4 {
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

    /// The 24 orders of a line's first four members.
    static let orders: [[Int]] = {
        var orders: [[Int]] = []
        for a in 0..<4 {
            for b in 0..<4 where b != a {
                for c in 0..<4 where c != a && c != b {
                    orders.append([a, b, c, 6 - a - b - c])
                }
            }
        }
        return orders
    }()

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
}
