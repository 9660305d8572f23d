import Foundation
import Testing
@testable import HIGAuditCore

/// A line that matches a learned layout (`ExportLineLayouts`) must get exactly the tape the general
/// scan gives it, and an importer that reads lines through layouts (and keeps what it found per layout:
/// `LayoutMemo`, `OtherFieldsMemo`) exactly the records, events, reasons and written lines of one that
/// scans every line.
@Suite struct ExportLineLayoutsTests {
    static let formats = ImportFormat.allCases

    static func fixtureLines(_ format: ImportFormat) throws -> [String] {
        var lines: [String] = []
        for name in ["\(format.rawValue).jsonl", "\(format.rawValue)-malformed.jsonl"] {
            lines += try ImportedFieldsDifferentialTests.lines(name).filter { !$0.allSatisfy(\.isWhitespace) }
        }
        return lines
    }

    /// The general scan's entries of `line`, or its error.
    static func scanned(_ line: [UInt8]) -> Result<[JSONTape.Entry], MalformedLine> {
        var tape = JSONTape()
        defer { tape.deallocate() }
        return line.withUnsafeBytes { bytes in
            do throws(MalformedLine) {
                try tape.read(bytes)
                return .success(Array(UnsafeBufferPointer(start: tape.entries, count: tape.entryCount)))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The entries a layout match gives `line`, or nil when it matches none of `layouts`.
    static func matched(_ line: [UInt8], _ layouts: inout ExportLineLayouts) -> [JSONTape.Entry]? {
        var tape = JSONTape()
        defer { tape.deallocate() }
        return line.withUnsafeBytes { bytes in
            guard layouts.match(bytes, into: &tape) != nil else { return nil }
            #expect(tape.count == line.count)
            return Array(UnsafeBufferPointer(start: tape.entries, count: tape.entryCount))
        }
    }

    /// Learns `line` (read by the general scan) into `layouts`.
    static func learn(_ line: [UInt8], into layouts: inout ExportLineLayouts, constantKeys: [StaticString] = []) {
        var tape = JSONTape()
        defer { tape.deallocate() }
        line.withUnsafeBytes { bytes in
            guard (try? tape.read(bytes)) != nil else { return }
            #expect(layouts.learn(tape, constantKeys: constantKeys) != nil)
        }
    }

    /// Bytes put in place of a line's byte: ones that end or escape strings, digits, punctuation,
    /// whitespace, letters and the first byte of a two-byte UTF-8 sequence.
    static let replacements: [UInt8] = Array(#""\0x}],: -.e"#.utf8) + [0xC3, 0x7F, 0x01]

    /// Variants of `line` with one byte replaced, removed or doubled: at every position, several
    /// (`sparse`: one a position, in turn, for the slower tests through the whole importer).
    static func variants(_ line: [UInt8], sparse: Bool = false) -> [[UInt8]] {
        var variants: [[UInt8]] = []
        for i in line.indices {
            let kinds = replacements.count + 2
            for kind in 0..<kinds where sparse ? kind == i % kinds : (kind + i) % 3 == 0 || kind >= replacements.count {
                var variant = line
                if kind == replacements.count {
                    variant.remove(at: i)
                } else if kind == replacements.count + 1 {
                    variant.insert(line[i], at: i)
                } else {
                    guard replacements[kind] != line[i] else { continue }
                    variant[i] = replacements[kind]
                }
                variants.append(variant)
            }
        }
        return variants
    }

    @Test(arguments: formats)
    func aLineThatDiffersFromItsLayoutInOneByteGetsTheGeneralScansTape(format: ImportFormat) throws {
        var matches = 0
        var fallbacks = 0
        for text in try Self.fixtureLines(format) {
            let line = Array(text.utf8)
            guard case .success = Self.scanned(line) else { continue }
            var layouts = ExportLineLayouts()
            defer { layouts.deallocate() }
            Self.learn(line, into: &layouts, constantKeys: EventImporter.layoutConstantKeys(format))
            #expect(Self.matched(line, &layouts) == (try? Self.scanned(line).get()), "\(format): the layout's own line")
            for variant in Self.variants(line) {
                let general = Self.scanned(variant)
                guard let entries = Self.matched(variant, &layouts) else {
                    fallbacks += 1
                    continue
                }
                matches += 1
                guard case .success(let expected) = general else {
                    Issue.record("\(format): a layout matched a line the general scan refuses: \(String(decoding: variant, as: UTF8.self))")
                    continue
                }
                #expect(entries == expected, "\(format): \(String(decoding: variant, as: UTF8.self))")
            }
        }
        // Both ways are reached: values changed within a layout, and lines it must not take.
        #expect(matches > 100 && fallbacks > 100, "\(format): \(matches) matches, \(fallbacks) fallbacks")
    }

    /// An OTLP layout keeps its instrumentation scope's name and version constant: a line of another
    /// scope is not of the layout, while a line with other attribute values is.
    @Test func anOTLPLayoutKeepsItsScopeConstant() {
        func line(scope: String, version: String = "1.0", session: String) -> [UInt8] {
            Array(#"{"resourceLogs":[{"scopeLogs":[{"scope":{"name":"\#(scope)","version":"\#(version)"},"logRecords":[{"timeUnixNano":"1","attributes":[{"key":"session.id","value":{"stringValue":"\#(session)"}}]}]}]}]}"#.utf8)
        }
        var layouts = ExportLineLayouts(countsQuotes: true)
        defer { layouts.deallocate() }
        Self.learn(line(scope: "sdk-a", session: "s-1"), into: &layouts, constantKeys: EventImporter.layoutConstantKeys(.otlp))
        line(scope: "sdk-a", session: "s-22").withUnsafeBytes { #expect(layouts.find($0) != nil) }
        line(scope: "sdk-b", session: "s-1").withUnsafeBytes { #expect(layouts.find($0) == nil) }
        line(scope: "sdk-a", version: "1.1", session: "s-1").withUnsafeBytes { #expect(layouts.find($0) == nil) }
    }

    @Test func valuesOfOtherLengthsShiftTheEntriesAfterThem() {
        let learned = Array(#"{"a":"x","b":[1,{"c":"yy"}],"d":true,"e":-2.5}"#.utf8)
        let line = Array(#"{"a":"a longer value","b":[12345,{"c":""}],"d":true,"e":7e3}"#.utf8)
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        Self.learn(learned, into: &layouts)
        let entries = Self.matched(line, &layouts)
        #expect(entries != nil)
        #expect(entries == (try? Self.scanned(line).get()))
        // A key is no value: a line with another key is left to the general scan.
        #expect(Self.matched(Array(#"{"A":"x","b":[1,{"c":"yy"}],"d":true,"e":-2.5}"#.utf8), &layouts) == nil)
        // Nor is a value of another kind.
        #expect(Self.matched(Array(#"{"a":5,"b":[1,{"c":"yy"}],"d":true,"e":-2.5}"#.utf8), &layouts) == nil)
        #expect(Self.matched(Array(#"{"a":"x","b":[1,{"c":"yy"}],"d":false,"e":-2.5}"#.utf8), &layouts) == nil)
    }

    /// An empty string in the layout's line ends where it begins: the value's own entry must not be
    /// moved by its own change of length (it was, so that a longer value read as empty, and the next
    /// line's, filled over it, ended before it began).
    @Test func anEmptyStringInTheLayoutsLineIsReadWhateverItBecomes() {
        let learned = Array(#"{"a":"","b":{"c":"","d":7},"e":""}"#.utf8)
        let lines = [
            #"{"a":"a longer value","b":{"c":"x","d":7},"e":"yz"}"#, #"{"a":"","b":{"c":"","d":7},"e":""}"#,
            #"{"a":"","b":{"c":"a long one","d":12},"e":""}"#, #"{"a":"q","b":{"c":"","d":7},"e":"r"}"#,
            #"{"a":"q","b":{"c":"","d":7},"e":"a much longer one"}"#,
        ].map { Array($0.utf8) }
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        var tape = JSONTape()
        defer { tape.deallocate() }
        Self.learn(learned, into: &layouts)
        // Each line is matched into the tape that holds the line before it, as an importer matches.
        for line in lines + lines.reversed() {
            let through = Self.matched(line, &layouts, tape: &tape)
            #expect(through?.entries == (try? Self.scanned(line).get()), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func theLeastRecentlyMatchedLayoutMakesRoomForANewOne() {
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        func line(_ n: Int) -> [UInt8] { Array(#"{"k\#(n)":"v"}"#.utf8) }
        for n in 0...ExportLineLayouts.capacity { Self.learn(line(n), into: &layouts) }
        #expect(layouts.used == ExportLineLayouts.capacity)
        #expect(Self.matched(line(ExportLineLayouts.capacity), &layouts) != nil)
        #expect(Self.matched(line(0), &layouts) == nil)
    }

    // MARK: Values compared with the layout's last line

    /// The entries a layout match gives `line` and the values it kept for its numbers (as bit
    /// patterns, NaN included), or nil when it matches none of `layouts`.
    static func matchedWithNumbers(_ line: [UInt8], _ layouts: inout ExportLineLayouts) -> (entries: [JSONTape.Entry], numbers: [UInt64])? {
        var tape = JSONTape()
        defer { tape.deallocate() }
        return line.withUnsafeBytes { bytes in
            guard layouts.match(bytes, into: &tape) != nil else { return nil }
            let entries = Array(UnsafeBufferPointer(start: tape.entries, count: tape.entryCount))
            let numbers = entries.indices.filter { entries[$0].kind == .number }.map { tape.knownNumber($0).bitPattern }
            return (entries, numbers)
        }
    }

    /// What a layout that has matched no line yet (every value scanned) gives `line`.
    static func scannedThroughLayout(_ line: [UInt8], learned: [UInt8], constantKeys: [StaticString] = []) -> (entries: [JSONTape.Entry], numbers: [UInt64])? {
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        learn(learned, into: &layouts, constantKeys: constantKeys)
        return matchedWithNumbers(line, &layouts)
    }

    /// Two layouts learned from the first line of each kind, then twenty lines of each taking turns:
    /// every line matched at its first try and read as the general scan reads it.
    static func expectTakingTurns(
        _ first: (Int) -> [UInt8], _ second: (Int) -> [UInt8], _ layouts: inout ExportLineLayouts,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        learn(first(0), into: &layouts)
        learn(second(0), into: &layouts)
        for n in 1...20 {
            #expect(matched(first(n), &layouts) == (try? scanned(first(n)).get()), sourceLocation: sourceLocation)
            #expect(matched(second(n), &layouts) == (try? scanned(second(n)).get()), sourceLocation: sourceLocation)
        }
        #expect(layouts.matched == 40, sourceLocation: sourceLocation)
        #expect(layouts.missedTries == 0, sourceLocation: sourceLocation)
    }

    @Test func aLineIsTriedFirstAgainstTheLayoutOfTheLastLineThatBeganAlike() {
        // Two layouts whose lines differ only near their ends, taking turns: by recency alone, each
        // line would be tried against the other's layout first.
        let touch = { (n: Int) in Array(#"{"event":"hig.touch","n":\#(n),"properties":{"phase":"ended"}}"#.utf8) }
        let push = { (n: Int) in Array(#"{"event":"hig.nav.push","n":\#(n),"properties":{"to":"Library"}}"#.utf8) }
        var layouts = ExportLineLayouts()
        defer { layouts.deallocate() }
        Self.expectTakingTurns(touch, push, &layouts)
        // A line of neither layout that begins like one of them is still refused.
        #expect(Self.matched(Array(#"{"event":"hig.touch","n":1,"properties":{"phase":"ended","x":1}}"#.utf8), &layouts) == nil)
        #expect(layouts.missedTries == 2)
    }

    /// Layouts whose lines begin alike and hold as many quotes (Datadog RUM actions of other names and
    /// fields), taking turns among more lines of other layouts than are tried by recency: each line
    /// is still found among the last layouts its place kept, not learned again.
    @Test func layoutsThatShareAPlaceAreEachFoundThere() {
        let alike = (0..<4).map { kind in
            { (n: Int) in Array(#"{"type":"action","date":\#(n),"action":{"name":"a\#(n)","k\#(kind)":"v"}}"#.utf8) }
        }
        let others = (0..<ExportLineLayouts.triesPerLine).map { kind in
            { (n: Int) in Array(#"{"other\#(kind), with first bytes of its own":"x","date":\#(n)}"#.utf8) }
        }
        var layouts = ExportLineLayouts(countsQuotes: true)
        defer { layouts.deallocate() }
        for n in 0..<10 {
            for line in alike.map({ $0(n) }) + others.map({ $0(n) }) where Self.matched(line, &layouts) == nil {
                Self.learn(line, into: &layouts)
            }
        }
        #expect(layouts.learned == alike.count + others.count, "learned \(layouts.learned)")
    }

    /// The entries of `line` matched into `tape` (kept from line to line, as an importer keeps its
    /// own), or nil when no layout takes it.
    static func matched(_ line: [UInt8], _ layouts: inout ExportLineLayouts, tape: inout JSONTape) -> (entries: [JSONTape.Entry], numbers: [UInt64])? {
        line.withUnsafeBytes { bytes in
            guard layouts.match(bytes, into: &tape) != nil else { return nil }
            let entries = Array(UnsafeBufferPointer(start: tape.entries, count: tape.entryCount))
            let numbers = entries.indices.filter { entries[$0].kind == .number }.map { tape.knownNumber($0).bitPattern }
            return (entries, numbers)
        }
    }

    @Test(arguments: formats)
    func aTapeThatHeldTheLayoutsLastLineGetsTheGeneralScansEntries(format: ImportFormat) throws {
        let constantKeys = EventImporter.layoutConstantKeys(format)
        var matches = 0
        var tape = JSONTape()
        defer { tape.deallocate() }
        let lines = try Self.fixtureLines(format).map { Array($0.utf8) }
        for (n, line) in lines.enumerated() {
            guard case .success(let own) = Self.scanned(line) else { continue }
            var layouts = ExportLineLayouts()
            defer { layouts.deallocate() }
            Self.learn(line, into: &layouts, constantKeys: constantKeys)
            for (v, variant) in Self.variants(line).enumerated() {
                // The tape holds the line's entries (or, every fifth variant, another line's, read by
                // the general scan) when the variant is matched into it.
                if v % 5 == 4 {
                    let other = lines[(n + 1) % lines.count]
                    other.withUnsafeBytes { _ = try? tape.read($0) }
                }
                if let through = Self.matched(variant, &layouts, tape: &tape) {
                    matches += 1
                    #expect(through.entries == (try? Self.scanned(variant).get()), "\(format): \(String(decoding: variant, as: UTF8.self))")
                    #expect(through.numbers == Self.scannedThroughLayout(variant, learned: line, constantKeys: constantKeys)?.numbers)
                }
                #expect(Self.matched(line, &layouts, tape: &tape)?.entries == own, "\(format): after \(String(decoding: variant, as: UTF8.self))")
            }
        }
        #expect(matches > 100, "\(format): \(matches) matches")
    }

    @Test func linesThatBeginAlikeAreToldApartByTheirQuotesWhereTheLayoutsCountThem() {
        // Datadog RUM's actions: the same first bytes, the event's name deep inside.
        let touch = { (n: Int) in Array(#"{"type":"action","date":\#(n),"action":{"target":{"name":"hig.touch"}},"context":{"phase":"ended","target":"canvas"}}"#.utf8) }
        let push = { (n: Int) in Array(#"{"type":"action","date":\#(n),"action":{"target":{"name":"hig.nav.push"}},"context":{"to":"Library"}}"#.utf8) }
        var layouts = ExportLineLayouts(countsQuotes: true)
        defer { layouts.deallocate() }
        Self.expectTakingTurns(touch, push, &layouts)
    }

    /// OTLP lines of one record whose events have as many attributes of the same kinds, only their
    /// keys differing (here `to` and `from`): the same first bytes and as many quotes, so only their
    /// events' names (`EventImporter.otlpLinePlaces`) keep each line from being tried against the other
    /// layout first when they take turns.
    @Test func otlpLinesWithAsManyQuotesAreToldApartByTheirEventsNames() {
        let push = { (n: Int) in Self.otlpLine(n, name: "hig.nav.push", #"{"key":"to","value":{"stringValue":"tab:Library\#(n)"}}"#) }
        let pop = { (n: Int) in Self.otlpLine(n, name: "hig.nav.pop", #"{"key":"from","value":{"stringValue":"tab:Library\#(n)"}}"#) }
        Self.expectImportedTakingTurns(push, pop, "push and pop")
    }

    /// The same, from exporters that name the event by the record's `eventName` (OTLP's log record
    /// field) rather than by the attribute `event.name`, and from those that write both.
    @Test func otlpLinesNamedByTheirRecordsEventNameAreToldApartToo() {
        let push = { (n: Int) in
            Self.otlpLine(n, eventName: "hig.nav.push", #"{"key":"to","value":{"stringValue":"tab:Library\#(n)"}}"#)
        }
        let pop = { (n: Int) in
            Self.otlpLine(n, eventName: "hig.nav.pop", #"{"key":"from","value":{"stringValue":"tab:Library\#(n)"}}"#)
        }
        Self.expectImportedTakingTurns(push, pop, "push and pop named by eventName")
        let pushNamedTwice = { (n: Int) in
            Self.otlpLine(
                n, eventName: "hig.nav.push",
                #"{"key":"event.name","value":{"stringValue":"hig.nav.push"}},{"key":"to","value":{"stringValue":"tab:Library\#(n)"}}"#)
        }
        let popNamedTwice = { (n: Int) in
            Self.otlpLine(
                n, eventName: "hig.nav.pop",
                #"{"key":"event.name","value":{"stringValue":"hig.nav.pop"}},{"key":"from","value":{"stringValue":"tab:Library\#(n)"}}"#)
        }
        Self.expectImportedTakingTurns(pushNamedTwice, popNamedTwice, "push and pop named both ways")
        // The OpenTelemetry Collector writes `eventName` last, after the attributes; a short name
        // then ends close to the line's end.
        let touchNamedLast = { (n: Int) in
            Self.otlpLine(n, eventName: "hig.touch", last: true, #"{"key":"phase","value":{"stringValue":"ended"}}"#)
        }
        let hapticNamedLast = { (n: Int) in
            Self.otlpLine(n, eventName: "hig.haptic", last: true, #"{"key":"kind","value":{"stringValue":"selection"}}"#)
        }
        Self.expectImportedTakingTurns(touchNamedLast, hapticNamedLast, "touch and haptic named last")
        // Others write the attribute `event.name` after the others, whose string values hold the
        // byte the search from the line's end looks for as well.
        let touchAttributeLast = { (n: Int) in
            Self.otlpLine(n, attributeNameLast: "hig.touch", #"{"key":"phase","value":{"stringValue":"ended"}}"#)
        }
        let hapticAttributeLast = { (n: Int) in
            Self.otlpLine(n, attributeNameLast: "hig.haptic", #"{"key":"kind","value":{"stringValue":"selection"}}"#)
        }
        Self.expectImportedTakingTurns(touchAttributeLast, hapticAttributeLast, "touch and haptic, the name attribute last")
    }

    /// PostHog's batch exports write each event's `uuid` first: lines of two events taking turns are
    /// told apart by their events' names (`EventImporter.postHogLinePlaces`), not by first bytes that
    /// differ on every line.
    @Test func postHogLinesWithTheirUUIDFirstAreToldApartByTheirEventsNames() {
        func uuid(_ n: Int) -> String { String(format: "0192%04x-5b6c-7d8e-9fa0-%012x", n, n &* 7919) }
        let touch = { (n: Int) in
            #"{"uuid":"\#(uuid(n))","event":"hig.touch","properties":{"$session_id":"s-1","phase":"ended"},"timestamp":"2026-11-20T18:00:\#(10 + n).000Z"}"#
        }
        let haptic = { (n: Int) in
            #"{"uuid":"\#(uuid(n))","event":"hig.haptic","properties":{"$session_id":"s-1","kind":"selection"},"timestamp":"2026-11-20T18:00:\#(10 + n).500Z"}"#
        }
        Self.expectImportedTakingTurns(touch, haptic, "touch and haptic, uuid first", format: .posthog)
    }

    /// Touches whose coordinates are of other kinds in another order (`x` an `intValue`, a string, and
    /// `y` a `doubleValue`, a number, or the other way): the same name and as many quotes, told apart
    /// by whether the line's last value is a string.
    @Test func otlpLinesOfOneEventWhoseLastValuesDifferInKindAreToldApart() {
        let intFirst = { (n: Int) in
            Self.otlpLine(n, name: "hig.touch", #"{"key":"x","value":{"intValue":"\#(n)"}},{"key":"y","value":{"doubleValue":\#(n).5}}"#)
        }
        let doubleFirst = { (n: Int) in
            Self.otlpLine(n, name: "hig.touch", #"{"key":"x","value":{"doubleValue":\#(n).5}},{"key":"y","value":{"intValue":"\#(n)"}}"#)
        }
        Self.expectImportedTakingTurns(intFirst, doubleFirst, "coordinates of both kinds")
    }

    /// An OTLP request of one record: the event `name` with `attributes` after its session.
    static func otlpLine(_ n: Int, name: String, _ attributes: String) -> String {
        #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"ipad-0011"}}]},"scopeLogs":[{"scope":{"name":"sdk"},"logRecords":[{"timeUnixNano":"17951688\#(10000 + n)000000","attributes":[{"key":"event.name","value":{"stringValue":"\#(name)"}},{"key":"session.id","value":{"stringValue":"s-1"}},\#(attributes)]}]}]}]}"#
    }

    /// An OTLP request of one record whose attribute `event.name` comes last, after `attributes`.
    static func otlpLine(_ n: Int, attributeNameLast name: String, _ attributes: String) -> String {
        #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"ipad-0011"}}]},"scopeLogs":[{"scope":{"name":"sdk"},"logRecords":[{"timeUnixNano":"17951688\#(10000 + n)000000","attributes":[{"key":"session.id","value":{"stringValue":"s-1"}},\#(attributes),{"key":"event.name","value":{"stringValue":"\#(name)"}}]}]}]}]}"#
    }

    /// An OTLP request of one record named by its `eventName`, before its attributes or `last`, with
    /// `attributes` after its session.
    static func otlpLine(_ n: Int, eventName: String, last: Bool = false, _ attributes: String) -> String {
        let name = #""eventName":"\#(eventName)""#
        let record = #""timeUnixNano":"17951688\#(10000 + n)000000","attributes":[{"key":"session.id","value":{"stringValue":"s-1"}},\#(attributes)]"#
        return #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"ipad-0011"}}]},"scopeLogs":[{"scope":{"name":"sdk"},"logRecords":[{\#(last ? record + "," + name : name + "," + record)}]}]}]}"#
    }

    /// Lines of two layouts with as many quotes taking turns, through an importer: after the first
    /// line of each, every line is found at its first try, and all import as without layouts.
    static func expectImportedTakingTurns(
        _ first: (Int) -> String, _ second: (Int) -> String, _ what: String, format: ImportFormat = .otlp,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(first(0).filter { $0 == "\"" }.count == second(0).filter { $0 == "\"" }.count, sourceLocation: sourceLocation)
        let lines = (0..<20).flatMap { [first($0), second($0)] }.map { Array($0.utf8) }
        let (_, importer) = ImportOutcomes.read(format, lines, writes: false) { _ in }
        // Only the lines before both layouts are learned (each seen, then learned) are tried against
        // a layout they do not match: a few, however many lines follow.
        #expect(importer.layouts.learned == 2, "\(what): \(importer.layouts.learned) learned", sourceLocation: sourceLocation)
        #expect(importer.layouts.missedTries <= 2, "\(what): \(importer.layouts.missedTries) tries missed", sourceLocation: sourceLocation)
        _ = expectSame(format, lines, what)
    }

    @Test func quotesAreCountedInLinesOfEveryLength() {
        var generator = SplitMix64(seed: 47)
        // Up to past 252 blocks of 16 bytes, after which the lanes' sums are added up; lines of
        // quotes only fill every lane's sum.
        let lengths = Array(0..<140) + [4031, 4032, 4033, 4047, 4048, 4049, 4079, 4080, 4081, 4095, 4096, 4097, 8064, 8065, 9000]
        for length in lengths {
            for round in 0..<(length < 140 ? 20 : 3) {
                let line = (0..<length).map { _ in
                    round == 0 ? UInt8(ascii: "\"") : [UInt8(ascii: "\""), UInt8(ascii: "a"), 0x5C, 0xC3][Int.random(in: 0..<4, using: &generator)]
                }
                let counted = line.withUnsafeBufferPointer { ExportLineLayouts.quotes($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: length) }
                #expect(counted == line.filter { $0 == UInt8(ascii: "\"") }.count, "\(length): \(line)")
            }
        }
    }

    // MARK: Runs and strings of every length

    /// Whether `line`, read through `layouts`, is refused or gets exactly the general scan's tape;
    /// returns whether it matched.
    @discardableResult
    static func expectGeneralTapeOrNone(
        _ line: [UInt8], _ layouts: inout ExportLineLayouts, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Bool {
        guard let entries = matched(line, &layouts) else { return false }
        #expect(entries == (try? scanned(line).get()), "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    /// A run between values, or after the last one, is compared byte for byte at every length: a short
    /// run in one block whose lanes outside it are ignored, a longer one in blocks that overlap at its
    /// end (two, four or six blocks, or 32 bytes a step), and a run at the line's end without a block's
    /// room after it (with and without a block's room before it).
    @Test func runsOfEveryLengthAreComparedInEveryByte() {
        for length in 1...140 {
            let spaces = String(repeating: " ", count: length - 1)
            // A run of `length` bytes (`,` or `}` and spaces) between two numbers, at the line's end,
            // and at its end after more than a block of the line.
            let shapes: [(String) -> [UInt8]] = [
                { Array(#"{"a":[\#($0),\#(spaces)2,"s"]}"#.utf8) },
                { Array(#"{"a":\#($0)\#(spaces)}"#.utf8) },
                { Array(#"{"a":"a value longer than a block","b":\#($0)\#(spaces)}"#.utf8) },
            ]
            for shape in shapes {
                let learned = shape("1")
                var layouts = ExportLineLayouts()
                defer { layouts.deallocate() }
                Self.learn(learned, into: &layouts)
                #expect(Self.expectGeneralTapeOrNone(learned, &layouts), "\(length): the layout's own line")
                // A value of another length moves the run; it still matches.
                #expect(Self.expectGeneralTapeOrNone(shape("12345"), &layouts), "\(length): a value of another length")
                for i in learned.indices where Array(" ,}".utf8).contains(learned[i]) {
                    // A tab is whitespace too: the general scan reads the line alike, but it is no
                    // longer the layout's line.
                    var variant = learned
                    variant[i] = learned[i] == UInt8(ascii: " ") ? 0x09 : UInt8(ascii: " ")
                    #expect(!Self.expectGeneralTapeOrNone(variant, &layouts), "\(length): byte \(i) changed")
                }
                // A line that ends inside the run, or runs on past it, is refused.
                #expect(!Self.expectGeneralTapeOrNone(Array(learned.dropLast()), &layouts))
                #expect(!Self.expectGeneralTapeOrNone(learned + [UInt8(ascii: " ")], &layouts))
            }
        }
    }

    /// Strings of every length up to past two blocks, plain, escaped, invalid or unterminated, in the
    /// middle of a line and ending at its end: matched with the general scan's tape, or refused.
    @Test func stringsOfEveryLengthReadAsTheGeneralScanReadsThem() {
        let middle = { (value: [UInt8]) in Array(#"{"a":""#.utf8) + value + Array(#"","b":7}"#.utf8) }
        let last = { (value: [UInt8]) in Array(#"{"b":7,"a":""#.utf8) + value + Array(#""}"#.utf8) }
        for shape in [middle, last] {
            var layouts = ExportLineLayouts()
            defer { layouts.deallocate() }
            Self.learn(shape(Array("x".utf8)), into: &layouts)
            var matches = 0
            for length in 0...40 {
                let plain = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
                if Self.expectGeneralTapeOrNone(shape(plain), &layouts) { matches += 1 }
                for i in 0..<length {
                    // A lone backslash escapes the byte after it, which may or may not be an escape.
                    for (replacement, refused) in [(#"\n"#, false), (#"\"#, false), ("\u{1}", true), ("é", false), ("\"", true)] {
                        let value = Array(plain[..<i]) + Array(replacement.utf8) + Array(plain[(i + 1)...])
                        let through = Self.expectGeneralTapeOrNone(shape(value), &layouts)
                        if refused { #expect(!through, "\(length), \(i): \(replacement)") }
                    }
                }
                // Unterminated at the line's end.
                #expect(!Self.expectGeneralTapeOrNone(Array(#"{"b":7,"a":""#.utf8) + plain, &layouts))
            }
            #expect(matches == 41)
        }
    }

    /// Which place a line takes among `leadPlaces` changes only which layout is tried first: a line
    /// whose quotes put it in another place than its layout's gets the same tape.
    @Test func aLineInAnotherPlaceThanItsLayoutGetsTheSameTape() {
        let learned = Array(#"{"type":"action","date":1,"context":{"k":"v"}}"#.utf8)
        // A value with a quote in it (escaped) counts one more.
        let line = Array(#"{"type":"action","date":2,"context":{"k":"say \"hi"}}"#.utf8)
        var layouts = ExportLineLayouts(countsQuotes: true)
        defer { layouts.deallocate() }
        Self.learn(learned, into: &layouts)
        #expect(Self.expectGeneralTapeOrNone(line, &layouts))
    }

    // MARK: The importer through layouts

    /// What one record became, the line `import` writes for it included, in order, and how many
    /// lines (and with `records`, OTLP records: `EventImporter.translateRecords`) matched a layout.
    static func outcomes(
        _ format: ImportFormat, _ lines: [[UInt8]], layouts: Bool, records: Bool = true
    ) -> (outcomes: [String], matched: Int) {
        let (outcomes, importer) = ImportOutcomes.read(format, lines, writes: true) {
            $0.readsLayouts = layouts
            $0.readsRecordLayouts = records
        }
        return (outcomes, importer.layouts.matched + importer.recordLayouts.matched)
    }

    static func expectSame(_ format: ImportFormat, _ lines: [[UInt8]], _ what: String, records: Bool = true) -> Int {
        let general = outcomes(format, lines, layouts: false).outcomes
        let (through, matched) = outcomes(format, lines, layouts: true, records: records)
        #expect(general.count == through.count, "\(what): \(general.count) outcomes against \(through.count)")
        for (one, other) in zip(general, through) where one != other {
            Issue.record("\(what):\n  general: \(one)\n  layouts: \(other)")
            break
        }
        return matched
    }

    @Test(arguments: formats)
    func fixturesAndMalformedCataloguesImportAlikeThroughLayouts(format: ImportFormat) throws {
        let lines = try Self.fixtureLines(format).map { Array($0.utf8) }
        // Each line three times: its layout is seen the first time, learned the second and matched
        // the third.
        let matched = Self.expectSame(format, lines.flatMap { [$0, $0, $0] }, "\(format) fixtures")
        #expect(matched >= lines.count / 2, "\(format): \(matched) of \(lines.count) lines matched")
    }

    @Test(arguments: formats)
    func linesThatDifferFromALearnedOneInOneByteImportAlike(format: ImportFormat) throws {
        var matched = 0
        for text in try Self.fixtureLines(format) {
            let line = Array(text.utf8)
            // The line twice first (its layout is learned the second time), then before each variant,
            // so that each variant is tried against its layout, and later lines of a session see what
            // earlier ones taught (launches, tabs).
            let sequence = [line] + Self.variants(line, sparse: true).flatMap { [line, $0] }
            matched += Self.expectSame(format, sequence, "\(format) variants of \(text)")
        }
        #expect(matched > 100)
    }

    /// `expectSame` on lines given as text, most of which match their layouts.
    static func expectSameMatching(_ format: ImportFormat, _ lines: [String], _ what: String) {
        let matched = expectSame(format, lines.map { Array($0.utf8) }, what)
        #expect(matched > lines.count / 2, "\(what): \(matched) of \(lines.count) lines matched")
    }

    static func postHog(
        _ n: Int, event: String = "hig.touch", session: String = "s-1", screen: String = "canvas.editor",
        uuid: String? = nil, _ fields: String = #","phase":"ended","target":"canvas","x":600,"y":400"#
    ) -> String {
        let second = String(n % 60).count == 1 ? "0\(n % 60)" : "\(n % 60)"
        return #"{"event":"\#(event)","timestamp":"2026-11-20T18:\#(10 + n / 60):\#(second).125Z","uuid":"\#(uuid ?? "e\(n)")","properties":{"$session_id":"\#(session)","$device_id":"ipad-0011","$app_version":"5.2.1","$screen_name":"\#(screen)"\#(fields)}}"#
    }

    @Test func aValueThatChangesAfterManyEqualLinesImportsAlike() {
        // A tap's target the same for many lines, then a tab bar's (`tab:<name>`), then back.
        var lines = (0..<40).map { Self.postHog($0) }
        lines.append(Self.postHog(40, #","phase":"ended","target":"tab:Gallery","x":600,"y":400"#))
        lines += (41..<45).map { Self.postHog($0) }
        // posthog-ios's taps: the element's class and text, a tab bar button among them.
        let button = #","$event_type":"touch","$touch_x":10,"$touch_y":20,"$elements":[{"text":"Edit","tag_name":"UIButton","order":0}]"#
        let tab = #","$event_type":"touch","$touch_x":10,"$touch_y":20,"$elements":[{"text":"Search","tag_name":"UITabBarButton","order":0}]"#
        lines += (45..<75).map { Self.postHog($0, event: "$autocapture", button) }
        lines.append(Self.postHog(75, event: "$autocapture", tab))
        lines.append(Self.postHog(76, event: "$autocapture", button))
        Self.expectSameMatching(.posthog, lines, "a target that changes")
    }

    @Test func aValueConstantForManyLinesThenChangedImportsAlike() {
        // The screen, the same for many lines, then a tab root (a switch once a tab is known), then
        // the session: a new one, then the first again.
        var lines = (0..<30).map { Self.postHog($0, event: "$screen", screen: "Library", "") }
        lines += (30..<40).map { Self.postHog($0, screen: "Library") }
        lines.append(Self.postHog(40, event: "$screen", screen: "Search", ""))
        lines.append(Self.postHog(41, event: "$screen", screen: "Library", ""))
        lines += (42..<70).map { Self.postHog($0, session: "s-2", screen: "Library") }
        lines += (70..<80).map { Self.postHog($0, screen: "Library") }
        Self.expectSameMatching(.posthog, lines, "a screen and a session that change")
    }

    @Test func launchesOfOneSessionSplitItAndARetriedLaunchDoesNotImportAlike() {
        let opened = #","from_background":false"#
        var lines = [Self.postHog(0, event: "Application Opened", opened)]
        lines += (1..<30).map { Self.postHog($0) }
        // A cold launch in the same session (`<id>#2`), its retried copy (the same uuid), then taps.
        lines.append(Self.postHog(30, event: "Application Opened", opened))
        lines.append(Self.postHog(31, event: "Application Opened", uuid: "e30", opened))
        lines += (32..<50).map { Self.postHog($0) }
        lines.append(Self.postHog(50, event: "Application Backgrounded", ""))
        lines.append(Self.postHog(51, event: "Application Opened", opened))
        lines += (52..<60).map { Self.postHog($0) }
        Self.expectSameMatching(.posthog, lines, "launches in one session")
    }

    @Test func aPrewarmedLaunchAmongColdOnesImportsAlike() throws {
        // Datadog RUM's launch vitals: many cold ones of one session, then a prewarmed one, then cold.
        let fixture = try ImportedFieldsDifferentialTests.lines("datadog-rum.jsonl")
        let launch = try #require(fixture.first { $0.contains(#""is_prewarmed":false"#) })
        func vital(_ n: Int, prewarmed: Bool = false) -> String {
            launch.replacingOccurrences(of: "vit-0001", with: "vit-\(1000 + n)")
                .replacingOccurrences(of: "1795168800000", with: "\(1795168800000 + n * 60_000)")
                .replacingOccurrences(of: #""is_prewarmed":false"#, with: #""is_prewarmed":\#(prewarmed)"#)
        }
        var lines = (0..<30).map { vital($0) }
        lines.append(vital(30, prewarmed: true))
        lines += (31..<40).map { vital($0) }
        Self.expectSameMatching(.datadogRUM, lines, "a prewarmed launch")
    }
}
