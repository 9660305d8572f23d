import Testing
@testable import HIGAuditCore

/// Exports seen in the field hold hundreds of layouts taking turns: an SDK that orders an event's keys
/// by each process's hash order, optional properties, events of many kinds. Each is found among the
/// others by its keys (`ExportLineLayouts.keysPlace`) once learned, and not learned again; more of
/// them in turn than the layouts kept are learned sparingly; lines import alike either way.
@Suite struct ManyLayoutsImportTests {
    /// The fixture's line of `format` with its first object's first `members` members in each order
    /// (the first `count` orders).
    static func reorderings(_ format: ImportFormat, members: Int, count: Int) throws -> [String] {
        let fixture = try #require(
            ExportLineLayoutsTests.fixtureLines(format).first { ShuffledKeysImportTests.reordered($0, Array(0..<members)) != nil },
            "a \(format) fixture line with an object of \(members) members")
        let orders = ShuffledKeysImportTests.permutations(of: members).prefix(count)
        return orders.map { ShuffledKeysImportTests.reordered(fixture, $0)! }
    }

    /// A line with every string and number replaced by another of another length: the same layout.
    static func revalued(_ line: String, _ round: Int) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var afterColon = false
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" {
                    inString = false
                    if afterColon { out += String(repeating: "v", count: round % 5) }
                    afterColon = false
                }
                if !afterColon || character == "\"" { out.append(character) }
                continue
            }
            if character == "\"" { inString = true }
            if character == ":" { afterColon = true } else if character != "\"" { afterColon = false }
            out.append(character)
        }
        return out
    }

    /// 120 layouts of one event in turn (more than a name and a count of quotes tell apart): once seen
    /// twice, a layout is found among the others in every round after. After many new layouts in a
    /// row only some lines are looked at (`learnRepeated`'s sparse draw), so a few may still wait to
    /// be learned in the sixth round; a cache of a few dozen layouts would find almost none.
    @Test(arguments: [ImportFormat.posthog, .datadogRUM])
    func aHundredAndTwentyLayoutsInTurnAreAllFound(format: ImportFormat) throws {
        let layouts = try Self.reorderings(format, members: 5, count: 120)
        #expect(layouts.count == 120 && Set(layouts).count == 120)
        let importer = EventImporter(format: format, settings: ImportedFieldsDifferentialTests.settings)
        var matchedInLastRound = 0
        for round in 0..<6 {
            for layout in layouts {
                let before = importer.layouts.matched
                Array(layout.utf8).withUnsafeBytes { bytes in importer.translate(bytes) { _, _ in false } }
                if round == 5, importer.layouts.matched > before { matchedInLastRound += 1 }
            }
        }
        #expect(matchedInLastRound >= layouts.count - 4, "\(format): \(matchedInLastRound) matched in the last round")
        let lines = (0..<6).flatMap { _ in layouts }.map { Array($0.utf8) }
        _ = ExportLineLayoutsTests.expectSame(format, lines, "\(format), 120 layouts in turn")
    }

    /// Lines of one layout take one place by their keys, whatever their values' lengths (a short key's
    /// last eight bytes would reach into the value before it); other key orders take other places.
    @Test func linesOfOneLayoutTakeOnePlaceByTheirKeys() throws {
        let layouts = try Self.reorderings(.posthog, members: 5, count: 120)
        var places: [Int] = []
        for layout in layouts {
            let own = Set((0..<6).map { round -> Int in
                let line = Array(Self.revalued(layout, round).utf8)
                return line.withUnsafeBufferPointer { ExportLineLayouts.keysPlace($0.baseAddress!, count: $0.count, attributeNames: false) }
            })
            #expect(own.count == 1, "\(layout)")
            places.append(own.first!)
        }
        // 120 layouts among 1,024 places: a few share one.
        #expect(Set(places).count > 100, "\(Set(places).count) places")
        #expect(Self.revalued(#"{"a":"xy","b":12}"#, 3) == #"{"a":"vvv","b":12}"#)
    }

    /// More layouts in turn than are kept, among lines of one layout (so that layouts match most lines
    /// and all go to them): after the cache fills with layouts no line comes back to, only some of
    /// the lines seen before are learned; every line imports as without layouts.
    @Test func moreLayoutsInTurnThanKeptAreLearnedSparingly() throws {
        let layouts = try Self.reorderings(.posthog, members: 6, count: 701)
        #expect(Set(layouts).count == 701)
        let steady = Array(layouts[700].utf8)
        let lines = (0..<3).flatMap { _ in layouts.prefix(700) }.flatMap { [Array($0.utf8), steady, steady] }
        let (_, importer) = ImportOutcomes.read(.posthog, lines, writes: false) { _ in }
        #expect(!importer.layoutsSparse)
        #expect(importer.layouts.unmatchedEvictions > ExportLineLayouts.churnBar)
        // Without the guard, every new line of the second and third rounds would be learned (1,400).
        #expect(importer.layouts.learned < 700, "\(importer.layouts.learned) learned")
        _ = ExportLineLayoutsTests.expectSame(.posthog, lines, "700 layouts in turn")
    }

    /// Lines whose keys come in an order never seen before (5,040 orders of seven members, each once)
    /// go to the layouts one in sixteen after a block of them matched fewer than half, and one in
    /// sixty-four after a block of those in which none matched. Every line imports as without layouts.
    @Test func layoutsThatNeverMatchAreAskedOneLineInSixtyFour() throws {
        let layouts = try Self.reorderings(.posthog, members: 7, count: 5_040)
        #expect(Set(layouts).count == 5_040)
        let lines = layouts.map { Array($0.utf8) }
        let (_, importer) = ImportOutcomes.read(.posthog, lines, writes: false) { _ in }
        #expect(importer.layoutsSparse)
        #expect(importer.layoutOdds == EventImporter.rareLayoutOdds)
        #expect(importer.layouts.matched == 0)
        // The first block, a block at one in sixteen, then one in sixty-four.
        let asked = 1_024 + 64 + (5_040 - 2_048) / 64
        #expect(importer.linesAsked <= asked + 1, "\(importer.linesAsked) lines asked")
        _ = ExportLineLayoutsTests.expectSame(.posthog, Array(lines.prefix(2_600)), "5,040 orders, each once")
    }

    /// Lines of layouts that seldom repeat (700 in turn, alone) go to the layouts one in sixteen after
    /// a block of them matched fewer than half; lines of one layout after them bring every line back
    /// to the layouts once a sparse block's lines matched (the layout is learned from the few lines
    /// looked at, within a few blocks). Every line imports as without layouts.
    @Test func layoutsThatSeldomMatchAreAskedOneLineInSixteen() throws {
        let layouts = try Self.reorderings(.posthog, members: 6, count: 701)
        let turning = (0..<3).flatMap { _ in layouts.prefix(700) }.map { Array($0.utf8) }
        let (_, sparse) = ImportOutcomes.read(.posthog, turning, writes: false) { _ in }
        #expect(sparse.layoutsSparse)
        // The first block's second sightings (324) and a few sampled lines after it.
        #expect(sparse.layouts.learned < 400, "\(sparse.layouts.learned) learned")
        let steady = Array(repeating: Array(layouts[700].utf8), count: 4 * EventImporter.layoutBlock)
        let (_, back) = ImportOutcomes.read(.posthog, turning + steady, writes: false) { _ in }
        #expect(!back.layoutsSparse)
        #expect(back.layouts.matched > EventImporter.layoutBlock, "\(back.layouts.matched) matched")
        _ = ExportLineLayoutsTests.expectSame(.posthog, turning + steady, "700 layouts, then one")
    }
}
