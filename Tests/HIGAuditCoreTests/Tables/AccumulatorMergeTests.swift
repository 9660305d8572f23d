@testable import HIGAuditCore
import Testing

/// Two accumulators, each given a disjoint run of sessions and then merged, give the tables one
/// accumulator given every session in the same order gives, byte for byte: what lets a reader count a
/// store's sessions on two threads.
@Suite struct AccumulatorMergeTests {
    /// Sessions whose strings repeat and collide across the split (rules, screens, devices, versions
    /// and details shared by both halves or new to the later one), with equal `violations` rows,
    /// a rule no description names with its own severity, haptics of every kind, sessions without
    /// accepted events and sessions with no violation.
    static func reports(seed: UInt64, count: Int) -> [SessionReport] {
        var random = SplitMix(seed: seed)
        let rules = ["modal-depth", "forced-tab-switch", "haptic-overuse", "undescribed-rule"]
        let screens = ["home", "list", "=cmd", "détail", "", "settings", "canvas"]
        let versions = ["5.2", "5.10", "5.9", "", "6.0"]
        return (0..<count).map { index in
            let session = "s-\(String(format: "%04d", index))"
            let violations = (0..<random.next(below: 6)).map { _ in
                let start = Int64(random.next(below: 4)) * 1000
                return TableFixtures.violation(
                    rules[random.next(below: rules.count)], session: session,
                    screen: screens[random.next(below: screens.count)], start: start,
                    severity: random.next(below: 5) == 0 ? .error : .warning, line: Int64(random.next(below: 3)),
                    detail: "detail \(random.next(below: 4))")
            }
            var haptics: [HapticKind: Int] = [:]
            for kind in HapticKind.allCases where random.next(below: 3) == 0 { haptics[kind] = 1 + random.next(below: 40) }
            return TableFixtures.report(
                session, device: "dev-\(random.next(below: 5))", version: versions[random.next(below: versions.count)],
                first: 0, last: Int64(random.next(below: 600_000)), events: random.next(below: 4) == 0 ? 0 : 10,
                haptics: haptics, violations: violations)
        }
    }

    static func tables(_ accumulator: AnalysisAccumulator) -> [[[String]]] {
        let sources = SourceFileTable(paths: ["a.ndjson"])
        return TableName.allCases.map { name in
            TableFixtures.texts(accumulator.table(name, ingest: IngestStatistics(), sources: sources))
        } + [[accumulator.filterMisses]]
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func mergedHalvesGiveTheTablesOfOneAccumulator(seed: UInt64) {
        let reports = Self.reports(seed: seed, count: 120)
        let filters = [TableFilter.none, TableFilter(appVersions: ["5.2", "7.0"], devices: ["dev-1", "dev-9"])]
        for filter in filters {
          for keepsViolations in [true, false] {
            var whole = AnalysisAccumulator(rules: TableFixtures.rules, filter: filter, keepsViolations: keepsViolations)
            for report in reports { whole.add(report) }
            for split in [0, 1, Int(seed) * 17, reports.count - 1, reports.count] {
                var first = AnalysisAccumulator(rules: TableFixtures.rules, filter: filter, keepsViolations: keepsViolations)
                var later = AnalysisAccumulator(rules: TableFixtures.rules, filter: filter, keepsViolations: keepsViolations)
                for report in reports[..<split] { first.add(report) }
                for report in reports[split...] { later.add(report) }
                first.merge(later)
                #expect(Self.tables(first) == Self.tables(whole), "seed \(seed), split at \(split), \(filter)")
                #expect(first.sessionsTotal == whole.sessionsTotal)
                #expect(first.violationsTotal == whole.violationsTotal)
            }
          }
        }
    }

    /// An accumulator that merged another's sessions and then counts more gives the tables of one
    /// that counted them all: what the other counted never makes a later session count as seen.
    @Test(arguments: [UInt64(7), 8, 9])
    func addingAfterAMergeCountsEverySessionOnce(seed: UInt64) {
        let reports = Self.reports(seed: seed, count: 90)
        var whole = AnalysisAccumulator(rules: TableFixtures.rules)
        for report in reports { whole.add(report) }
        var first = AnalysisAccumulator(rules: TableFixtures.rules)
        var later = AnalysisAccumulator(rules: TableFixtures.rules)
        for report in reports[..<10] { first.add(report) }
        for report in reports[10..<60] { later.add(report) }
        first.merge(later)
        for report in reports[60...] { first.add(report) }
        #expect(Self.tables(first) == Self.tables(whole), "seed \(seed)")
    }

    /// A detail keeps the bytes its rule wrote, also when an earlier one is the same text in another
    /// Unicode spelling: otherwise the spelling would depend on which came first, on which side of a
    /// merge.
    @Test func detailsKeepTheirOwnSpelling() {
        let composed = "caf\u{E9} 3 ms"
        let decomposed = "cafe\u{301} 3 ms"
        #expect(composed == decomposed)
        let reports = [composed, decomposed].enumerated().map { index, detail in
            TableFixtures.report("s-\(index)", violations: [TableFixtures.violation("modal-depth", session: "s-\(index)", detail: detail)])
        }
        var first = AnalysisAccumulator(rules: TableFixtures.rules)
        var later = AnalysisAccumulator(rules: TableFixtures.rules)
        var whole = AnalysisAccumulator(rules: TableFixtures.rules)
        first.add(reports[0])
        later.add(reports[1])
        for report in reports { whole.add(report) }
        first.merge(later)
        for accumulator in [whole, first] {
            let details = accumulator.violationsTable(sources: SourceFileTable(paths: ["a"])).materializedRows.map { row in
                Array(row[9].plainText.utf8)
            }
            #expect(details == [Array(composed.utf8), Array(decomposed.utf8)])
        }
    }

    /// Details of every length up to a few times the 16 bytes hashed at a time, each also with one
    /// byte changed at each place (in the zero-padded last bytes too), and each written twice: every
    /// violation keeps exactly the text its rule wrote, whichever equal detail was kept first.
    @Test func nearlyEqualDetailsKeepTheirOwnText() {
        let base = Array("the modal stack is 4 deep on editor, over settings and é".utf8)
        var details: [String] = []
        for length in 0...base.count {
            let prefix = Array(base.prefix(length))
            details.append(String(decoding: prefix, as: UTF8.self))
            for place in prefix.indices where prefix[place] < 0x80 {
                var changed = prefix
                changed[place] ^= 0x01
                details.append(String(decoding: changed, as: UTF8.self))
            }
            details.append(String(decoding: prefix + [0], as: UTF8.self))
        }
        let written = details + details
        var accumulator = AnalysisAccumulator(rules: TableFixtures.rules)
        for (index, detail) in written.enumerated() {
            let session = "s-\(index)"
            accumulator.add(TableFixtures.report(
                session, violations: [TableFixtures.violation("modal-depth", session: session, detail: detail)]))
        }
        let kept = accumulator.violationsTable(sources: SourceFileTable(paths: ["a"])).materializedRows.map { row in
            Array(row[9].plainText.utf8)
        }
        #expect(kept.count == written.count)
        #expect(kept.sorted { $0.lexicographicallyPrecedes($1) } == written.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }
}

/// A small deterministic generator, so that every run tests the same reports.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
