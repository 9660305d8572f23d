import Foundation
import Testing
@testable import HIGAuditCore

/// What the importer keeps from line to line to read the next one faster (a matched line's number
/// values, the minute of the last time, the envelope's checks kept per layout, the event's own fields
/// per layout and container) never changes what a line becomes: each is held here against the way
/// that keeps nothing.
@Suite struct ImportReadingMemoTests {
    /// Number literals, valid and not, for the end of a line: short and long, signs, fractions,
    /// exponents, leading zeros, a sign or a point alone.
    static let literals = [
        "0", "-0", "7", "400", "-12", "603.2", "0.5", "-0.25", "1234567", "12345678", "1234567.1234567",
        "123456789012345", "1234567890123456789", "12345678901234567890123", "1e5", "1E+2", "2.5e-3", "-7e0",
        "1.7976931348623157e308", "1e400", "4.9e-324", "0.1000000000000000055511151231257827",
        "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "1795197639488",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "01", "-", "1.", ".5", "1e", "1e+", "--1", "1..2", "+1",
    ]

    /// The layout's line, and lines like it whose last number is each literal, with 0 to 30 bytes
    /// after it (so that the number is read near the line's end and away from it).
    static func numberLines(after: Int) -> (learned: [UInt8], lines: [(literal: String, line: [UInt8])]) {
        let padding = String(repeating: "p", count: after)
        func line(_ literal: String) -> [UInt8] { Array(#"{"s":"x","n":\#(literal),"t":"\#(padding)"}"#.utf8) }
        return (line("1"), literals.map { ($0, line($0)) })
    }

    @Test(arguments: [0, 1, 3, 8, 12, 15, 16, 17, 20, 24, 25, 30])
    func aMatchedLinesNumbersHoldTheValuesTheDecoderReads(after: Int) {
        let (learned, lines) = Self.numberLines(after: after)
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        ExportLineLayoutsTests.learn(learned, into: &layouts)
        for (literal, line) in lines {
            var tape = JSONTape()
            defer { tape.deallocate() }
            let general = ExportLineLayoutsTests.scanned(line)
            line.withUnsafeBytes { bytes in
                guard layouts.match(bytes, into: &tape) != nil else {
                    if case .success = general { Issue.record("\(literal) (\(after) after): a valid line matched no layout") }
                    return
                }
                guard case .success(let entries) = general else {
                    Issue.record("\(literal) (\(after) after): a layout took a line the general scan refuses")
                    return
                }
                #expect(Array(UnsafeBufferPointer(start: tape.entries, count: tape.entryCount)) == entries, "\(literal)")
                let number = 4
                #expect(tape[number].kind == .number)
                let known = tape.knownNumber(number)
                let read = JSONNumber.double(ByteSlice(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + Int(entries[number].start),
                                                       count: Int(entries[number].end - entries[number].start)))
                // The value the decoder would read from the literal, or NaN to have it read it.
                #expect(known.isNaN || known.bitPattern == read.bitPattern, "\(literal) (\(after) after): \(known) against \(read)")
                #expect(tape.double(number).bitPattern == read.bitPattern, "\(literal)")
                // The integer as the general scan's tape gives it.
                var scanned = JSONTape()
                defer { scanned.deallocate() }
                _ = try? scanned.read(bytes)
                #expect(tape.integer(number) == scanned.integer(number), "\(literal)")
            }
        }
    }

    /// A line read by the general scan after a layout's match holds its own numbers' values, never
    /// the match's; NaN where the scan leaves a literal to the standard library.
    @Test func aLineReadByTheGeneralScanHoldsItsOwnNumberValues() throws {
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        var tape = JSONTape()
        defer { tape.deallocate() }
        let learned = Array(#"{"n":5}"#.utf8)
        ExportLineLayoutsTests.learn(learned, into: &layouts)
        learned.withUnsafeBytes { #expect(layouts.match($0, into: &tape) != nil) }
        #expect(tape.knownNumber(2) == 5)
        try Array(#"{"n":6,"m":-1.25,"e":2.5e3,"x":12345678901234567890123}"#.utf8).withUnsafeBytes { try tape.read($0) }
        #expect(tape.knownNumber(2) == 6)
        #expect(tape.knownNumber(4) == -1.25)
        #expect(tape.knownNumber(6) == 2500)
        // Past what the fast path reads: read again from the literal, as before.
        #expect(tape.knownNumber(8).isNaN)
        #expect(tape.double(8) == 12345678901234567890123)
    }

    /// The general scan keeps every number's value across the growth of the tape's buffers (a line of
    /// more values than any before), each equal to the literal read again alone.
    @Test func numberValuesSurviveTheTapesGrowth() throws {
        var tape = JSONTape()
        defer { tape.deallocate() }
        let values = (0..<2_000).map { "\($0).\($0 % 7 + 1)" }
        let line = Array(("{\"v\":[" + values.joined(separator: ",") + "]}").utf8)
        try line.withUnsafeBytes { try tape.read($0) }
        #expect(tape.entryCount == 2 + 1 + values.count)
        let differing = (3..<tape.entryCount).filter { index in
            let entry = tape[index]
            let read = line.withUnsafeBufferPointer { JSONNumber.double(ByteSlice(start: $0.baseAddress! + Int(entry.start), count: Int(entry.end - entry.start))) }
            return tape.knownNumber(index).bitPattern != read.bitPattern
        }
        #expect(differing.isEmpty, "values \(differing.prefix(5).map { $0 - 3 })")
    }

    @Test func theMinuteOfTheLastTimeGivesTheParsersMilliseconds() {
        let times = [
            "2026-11-20T18:00:39.488Z", "2026-11-20T18:00:39.826Z", "2026-11-20T18:00:59.999Z",
            "2026-11-20T18:00:60.000Z", "2026-11-20T18:00:39.8Z", "2026-11-20T18:00:39+02:00",
            "2026-11-20T18:01:00.000Z", "2026-11-20T18:01", "2026-11-20T18:01:0", "2026-11-20T18:01:00",
            "2026-13-20T18:01:00.000Z", "2026-13-20T18:01:00.001Z", "2026-11-20T18:01:00.000Z",
            "2026-02-30T00:00:00.000Z", "2026-02-28T00:00:00.000Z", "2026-02-28T00:00:00.000z",
            "2026-02-28 00:00:00.000Z", "", "2026", "2026-02-28T00:00:00.000ZZ",
        ]
        var recent = RecentExportMinute()
        for time in times {
            var text = time
            let (remembered, parsed) = text.withUTF8 { utf8 in
                (recent.parse(utf8), TimestampParser.parse(rfc3339: UnsafeRawBufferPointer(utf8)))
            }
            #expect(remembered == parsed, "\(time)")
        }
    }

    /// A layout's line, then lines of the same layout whose time or values break a check the layout's
    /// line passed, or whose values are of another kind (another layout).
    @Test func checksKeptPerLayoutStillJudgeEachLine() {
        let postHog = [
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:43.161Z","uuid":"e4","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"began","x":600,"y":400}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:43.177Z","uuid":"e5","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"moved","x":603.2,"y":-0}}"#,
            #"{"event":"hig.touch","timestamp":"2026-13-20T18:00:43.177Z","uuid":"e6","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"moved","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:61.177Z","uuid":"e7","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"moved","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:4\u0033.177Z","uuid":"e8","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"moved","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:44.000Z","uuid":"e9","properties":{"$session_id":"","$device_id":"d","$screen_name":"a","phase":"ended","x":1e400,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:44.000Z","uuid":null,"properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"ended","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:44.000Z","uuid":7,"properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"ended","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:45.000Z","uuid":"e10","properties":{"$session_id":"s1","$device_id":7,"$screen_name":"a","phase":"ended","x":1,"y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:46.000Z","uuid":"e11","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"ended","x":"1","y":2}}"#,
            #"{"event":"hig.touch","timestamp":"2026-11-20T18:00:47.000Z","uuid":"e12","properties":{"$session_id":"s1","$device_id":"d","$screen_name":"a","phase":"ended","x":1,"y":2}}"#,
        ]
        let datadog = [
            #"{"type":"action","date":1763661643161,"action":{"id":"a1","type":"custom","target":{"name":"hig.touch"}},"session":{"id":"s1"},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"began","x":600,"y":400}}"#,
            #"{"type":"action","date":1763661643162,"action":{"id":"a2","type":"custom","target":{"name":"hig.touch"}},"session":{"id":"s1"},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"moved","x":1.5,"y":-0}}"#,
            #"{"type":"action","date":1763661643162.5,"action":{"id":"a3","type":"custom","target":{"name":"hig.touch"}},"session":{"id":"s1"},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"moved","x":1,"y":2}}"#,
            #"{"type":"action","date":1763661643163,"action":{"id":null,"type":"custom","target":{"name":"hig.touch"}},"session":{"id":"s1"},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"moved","x":1,"y":2}}"#,
            #"{"type":"action","date":1763661643164,"action":{"id":"a5","type":"custom","target":{"name":"hig.touch"}},"session":{"id":5},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"moved","x":1,"y":2}}"#,
            #"{"type":"action","date":1763661643165,"action":{"id":"a6","type":"custom","target":{"name":"hig.touch"}},"session":{"id":"s1"},"usr":{"anonymous_id":"d"},"view":{"name":"a"},"context":{"phase":"ended","x":1,"y":2}}"#,
        ]
        for (format, lines) in [(ImportFormat.posthog, postHog), (.datadogRUM, datadog)] {
            // Each line after the first, then again, so that each is tried against a layout learned
            // from a line that passed every check.
            let sequence = lines.flatMap { [lines[0], $0, $0] }.map { Array($0.utf8) }
            let matched = ExportLineLayoutsTests.expectSame(format, sequence, "\(format) checks per layout")
            #expect(matched > lines.count, "\(format): \(matched) matched")
        }
    }

    @Test func theOwnFieldsOfManyRecordsOfOneLayoutAreEachTheirOwn() throws {
        // More records in one line than the memos a layout keeps, each with fields of its own.
        let records = (0..<(OtherFieldsMemo.capacity + 4)).map { n in
            #"{"timeUnixNano":"\#(1_763_661_643_000_000_000 + n * 1_000_000)","eventName":"hig.haptic","attributes":[{"key":"session.id","value":{"stringValue":"s1"}},{"key":"kind","value":{"stringValue":"\#(n % 2 == 0 ? "success" : "warning")"}}\#(n % 3 == 0 ? #",{"key":"duration_ms","value":{"intValue":"\#(n)"}}"# : "")]}"#
        }
        let line = #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"d"}}]},"scopeLogs":[{"logRecords":["# + records.joined(separator: ",") + "]}]}]}"
        let lines = [line, line, line, line].map { Array($0.utf8) }
        // A line no longer than a layout's, of a request of many records, is learned whole the second
        // time it is seen: the record way is taken only after such a request (`lastRequestWasMany`).
        let matched = ExportLineLayoutsTests.expectSame(.otlp, lines, "many records", records: false)
        #expect(matched == 2)
        // After a request of many records of another layout (a record fewer), the line matches no
        // layout of a whole line and is read record by record, its records matching those before.
        let other = Array((#"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"d"}}]},"scopeLogs":[{"logRecords":["#
            + records.dropLast().joined(separator: ",") + "]}]}]}").utf8)
        let importer = RecordLayoutsTests.expectReadAlike([other] + lines, "many records, record by record")
        #expect(importer.recordLayouts.matched > 0)
    }

    @Test func ownFieldsAreForgottenWhenAnotherLayoutTakesTheirPlace() {
        let memo = OtherFieldsMemo()
        let first = ExportLineLayouts.LayoutID(index: 3, serial: 1)
        let second = ExportLineLayouts.LayoutID(index: 3, serial: 2)
        let place = OtherFieldPlace(field: .x, key: 5, value: .asItStands(6))
        var finds = 0
        func places(_ layout: ExportLineLayouts.LayoutID, container: Int, _ found: [OtherFieldPlace]) -> [OtherFieldPlace] {
            Array(memo.places(layout, container, .object(skipDollar: true), keepId: false) {
                finds += 1
                return found
            })
        }
        #expect(places(first, container: 2, [place]).map(\.key) == [5])
        #expect(places(first, container: 2, []).map(\.key) == [5])
        #expect(finds == 1)
        // Another container of the same layout, then another layout in the same place.
        #expect(places(first, container: 9, []).isEmpty)
        #expect(places(second, container: 2, []).isEmpty)
        #expect(places(first, container: 2, [place]).map(\.key) == [5])
        #expect(finds == 4)
        // A line read without a layout finds its fields every time, and keeps no memo.
        let unmemoized = { (found: [OtherFieldPlace]) in
            Array(memo.places(nil, 2, .object(skipDollar: true), keepId: false) {
                finds += 1
                return found
            })
        }
        #expect(unmemoized([place]).map(\.key) == [5])
        #expect(unmemoized([]).isEmpty)
        #expect(finds == 6)
        #expect(places(first, container: 2, []).map(\.key) == [5])
        #expect(finds == 6)
    }
}
