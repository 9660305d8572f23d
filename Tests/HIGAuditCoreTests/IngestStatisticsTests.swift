import Testing
@testable import HIGAuditCore

/// `IngestStatistics.counters` says who counts each counter; a run merges the engine's part into the
/// reader's and decoder's by it, so a counter under the wrong owner would be dropped or doubled.
@Suite struct IngestStatisticsTests {
    /// An engine fed accepted, duplicate, late and unbalanced events counts only what the list says it
    /// counts, and each of those counters.
    @Test func theEngineCountsExactlyItsCounters() {
        let result = run([
            at(0, .sessionStart(.defaults), id: "1"),
            at(0, .sessionStart(.defaults), id: "1"),  // duplicate
            dismiss(100, "never-presented"),  // unbalanced
            haptic(60_000),
            haptic(100),  // late: more than max lateness behind the session's newest
        ])
        for counter in IngestStatistics.counters {
            let value = counter.value(in: result.statistics)
            switch counter.countedBy {
            case .input: #expect(value == 0, "\(counter.name) is the input's, but the engine counted it")
            case .engine where counter.name != "unverified_duplicates":
                #expect(value > 0, "\(counter.name) is the engine's, but it counted none")
            case .engine: break
            }
        }
    }

    /// Merging takes the engine's counters from the engine and sums the input's, unknown types by name.
    @Test func mergingTakesEachCounterFromItsOwner() {
        func numbered(_ base: Int64) -> IngestStatistics {
            var statistics = IngestStatistics()
            for (index, counter) in IngestStatistics.counters.enumerated() { counter.set(&statistics, base + Int64(index)) }
            statistics.unknownTypes = ["x.new": base]
            return statistics
        }
        let engine = numbered(1000)
        var merged = numbered(10)
        merged.addInputCounters(of: numbered(100))
        for (index, counter) in IngestStatistics.counters.enumerated() where counter.countedBy == .engine {
            #expect(counter.value(in: merged) == 10 + Int64(index), "\(counter.name) is left to the engine")
        }
        merged.takeEngineCounters(from: engine)
        for (index, counter) in IngestStatistics.counters.enumerated() where counter.isSettable {
            let expected = counter.countedBy == .engine ? 1000 + Int64(index) : 110 + 2 * Int64(index)
            #expect(counter.value(in: merged) == expected, "\(counter.name)")
        }
        #expect(merged.unknownTypes == ["x.new": 110])
        #expect(Set(IngestStatistics.counters.map(\.name)).count == IngestStatistics.counters.count)
    }
}
