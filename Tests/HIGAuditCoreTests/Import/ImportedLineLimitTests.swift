import Testing
@testable import HIGAuditCore

/// SPEC §2's 1 MiB limit on a line of ours holds for imported events (`EventImporter+LineLimit`): an
/// event whose line of ours would be longer is malformed whether or not its line is written, so that
/// `--from` and `import` then `analyze` agree; every event accepted is written in a line `analyze`
/// takes; and long export lines of small records (a page, a collector's batch) lose none of them.
@Suite struct ImportedLineLimitTests {
    static let limit = EventDecoder.maxLineLength
    /// Bytes of a value that puts a line of ours over the limit, and of one that keeps it under.
    static let over = limit + 10_000
    static let under = limit - 2_000

    static func filler(_ count: Int, _ letter: Character = "x") -> String { String(repeating: letter, count: count) }

    static func posthog(_ event: String, _ uuid: String, second: Int, _ properties: String = "") -> String {
        #"{"uuid":"\#(uuid)","event":"\#(event)","timestamp":"2026-11-20T10:00:\#(String(format: second))Z","#
            + #""properties":{"$session_id":"S1","$device_id":"dev1","$app_version":"1.0"\#(properties)}}"#
    }

    static func otlpRecord(_ name: String, _ uid: String, second: Int, _ attributes: String = "") -> String {
        #"{"timeUnixNano":"\#(1_795_183_200 + second)000000000","eventName":"\#(name)","attributes":["#
            + #"{"key":"session.id","value":{"stringValue":"S1"}},{"key":"log.record.uid","value":{"stringValue":"\#(uid)"}}"#
            + #"\#(attributes)]}"#
    }

    static func otlpRequest(_ records: [String]) -> String {
        #"{"resourceLogs":[{"resource":{"attributes":[{"key":"device.id","value":{"stringValue":"dev1"}},"#
            + #"{"key":"service.version","value":{"stringValue":"1.0"}}]},"scopeLogs":[{"scope":{"name":"t"},"#
            + #""logRecords":[\#(records.joined(separator: ","))]}]}]}"#
    }

    static func datadogItem(_ name: String, _ id: String, second: Int, context: String = "") -> String {
        #"{"type":"action","date":\#(1_795_183_200_000 + second * 1000),"session":{"id":"S1"},"#
            + #""action":{"type":"custom","target":{"name":"\#(name)"},"id":"\#(id)"},"context":{\#(context)},"#
            + #""usr":{"anonymous_id":"dev1"},"version":"1.0","view":{"name":"home"}}"#
    }

    /// The outcomes of `lines` read every way: with and without layouts, writing lines or not. The
    /// outcomes but the written lines agree between writing and not; each written line is within the
    /// limit, and there is one (with its synthetic start's) for each event.
    static func outcomes(_ format: ImportFormat, _ lines: [String]) -> [String] {
        var seen: [[String]] = []
        for layouts in [true, false] {
            for writes in [true, false] {
                let (outcomes, _) = ImportOutcomes.read(format, lines.map { Array($0.utf8) }, writes: writes) { importer in
                    if !layouts { importer.readsLayouts = false }
                }
                let written = outcomes.filter { $0.hasPrefix("written ") }
                let judged = outcomes.filter { !$0.hasPrefix("written ") }
                if writes {
                    #expect(written.allSatisfy { $0.utf8.count - "written ".utf8.count <= limit })
                    #expect(written.count == judged.filter { $0.contains(" event ") || $0.contains(" start ") }.count)
                }
                seen.append(judged.map(Self.brief))
            }
        }
        #expect(Set(seen.map { $0.joined(separator: "\n") }).count == 1, "every way of reading agrees")
        return seen[0]
    }

    /// An outcome with its event's text cut short (the fillers are long).
    static func brief(_ outcome: String) -> String { String(outcome.prefix(120)) }

    @Test func aPostHogEventTooLongForALineOfOursIsMalformedOnEveryPath() {
        let haptic = { (uuid: String, second: Int, extra: String) in
            Self.posthog("hig.haptic", uuid, second: second, #","kind":"impact.light""# + extra)
        }
        // Lines of one shape first, so that the layouts learn it and plan it.
        var lines = (0..<40).map { haptic("h\($0)", $0 % 50 + 1, "") }
        lines.append(haptic("big", 55, #","blob":"\#(Self.filler(Self.over))""#))
        lines.append(haptic("fits", 56, #","blob":"\#(Self.filler(Self.under))""#))
        lines.append(haptic("after", 57, ""))
        let outcomes = Self.outcomes(.posthog, lines)
        #expect(outcomes.filter { $0.contains(" malformed ") }.count == 1)
        let line41 = outcomes.first { $0.hasPrefix("41#") } ?? ""
        #expect(line41.contains("malformed") && line41.contains("longer than the 1 MiB limit"), "\(line41)")
        #expect(outcomes.contains { $0.hasPrefix("42#0 event") }, "an event just within the limit is kept")
        #expect(outcomes.contains { $0.hasPrefix("43#0 event") })
    }

    /// A screen view's line names its screen twice (`screen`, `to`), and a tab switch's also the tab it
    /// leaves: long tab names make a line longer than the view's export line.
    @Test func aTabSwitchBetweenLongTabNamesIsMeasuredWithBoth() {
        // Each name a third of the limit: a view's line names its screen twice, a switch's three times.
        let third = Self.limit / 3 + 1_000
        let first = "Settings" + Self.filler(third, "a")
        let second = "Settings" + Self.filler(third, "b")
        let lines = [
            Self.posthog("$screen", "v1", second: 1, #","$screen_name":"\#(first)""#),
            Self.posthog("$screen", "v2", second: 2, #","$screen_name":"\#(second)""#),
            Self.posthog("$screen", "v3", second: 3, #","$screen_name":"Library""#),
        ]
        let outcomes = Self.outcomes(.posthog, lines)
        #expect(outcomes.first { $0.hasPrefix("1#") }?.contains(" malformed ") == false, "\(outcomes)")
        #expect(outcomes.first { $0.hasPrefix("2#") }?.contains("longer than the 1 MiB limit") == true, "\(outcomes)")
        // The refused switch taught nothing: the next switch is from the first tab.
        #expect(outcomes.contains { $0.hasPrefix("3#0 event") })
    }

    /// A collector's batch longer than the limit, of small records and one too long: only that one
    /// is malformed, as `LINE#K`.
    @Test func aLongOTLPBatchLosesOnlyItsTooLongRecord() {
        let small = (0..<3_000).map { Self.otlpRecord("hig.haptic", "h\($0)", second: $0 % 50 + 1, #",{"key":"kind","value":{"stringValue":"impact.light"}},{"key":"note","value":{"stringValue":"\#(Self.filler(300))"}}"#) }
        let big = Self.otlpRecord("hig.haptic", "big", second: 55, #",{"key":"kind","value":{"stringValue":"impact.light"}},{"key":"blob","value":{"stringValue":"\#(Self.filler(Self.over))"}}"#)
        let batch = Self.otlpRequest(Array(small[0..<1_500]) + [big] + Array(small[1_500...]))
        #expect(batch.utf8.count > 2 * Self.limit)
        // Single-record requests before it, so that its records have layouts to match.
        let lines = small[0..<20].map { Self.otlpRequest([$0]) } + [batch]
        let outcomes = Self.outcomes(.otlp, lines)
        let malformed = outcomes.filter { $0.contains(" malformed ") }
        #expect(malformed.count == 1 && malformed.first?.hasPrefix("21#1501 ") == true, "\(malformed)")
        #expect(outcomes.filter { $0.hasPrefix("21#") && $0.contains(" event ") }.count == 3_000)
    }

    /// A page of the events API longer than the limit, of small items and one too long.
    @Test func aLongDatadogPageLosesOnlyItsTooLongItem() {
        var items = (0..<3_000).map { Self.datadogItem("hig.haptic", "a\($0)", second: $0 % 50 + 1, context: #""kind":"impact.light","note":"\#(Self.filler(300))""#) }
        items.insert(Self.datadogItem("hig.haptic", "big", second: 55, context: #""kind":"impact.light","blob":"\#(Self.filler(Self.over))""#), at: 10)
        let page = #"{"data":[\#(items.joined(separator: ","))],"meta":{"status":"done"}}"#
        let outcomes = Self.outcomes(.datadogRUM, [page])
        let malformed = outcomes.filter { $0.contains(" malformed ") }
        #expect(malformed.count == 1 && malformed.first?.hasPrefix("1#11 ") == true, "\(malformed)")
        #expect(outcomes.filter { $0.contains(" event ") }.count == 3_000)
    }
}

private extension String {
    /// Two digits, as a timestamp's seconds.
    init(format seconds: Int) { self = seconds < 10 ? "0\(seconds)" : "\(seconds)" }
}
