import Testing
@testable import HIGAuditCore

/// `PlainList` keeps what was appended across its growths, forgets it when emptied, and is written
/// over in place after: the request reader's lists rely on all three from line to line.
@Suite struct PlainListTests {
    @Test func elementsSurviveGrowthAndTheListIsReusedAfterEmptying() {
        var list = PlainList<Int32>()
        defer { list.deallocate() }
        #expect(list.count == 0 && list.indices.isEmpty)
        for value in 0..<1_000 { list.append(Int32(value) * 3) }
        #expect(list.count == 1_000)
        #expect(list.indices.allSatisfy { list[$0] == Int32($0) * 3 })
        list[500] = -1
        #expect(list[500] == -1 && list[499] == 1_497 && list[501] == 1_503)
        list.removeAll()
        #expect(list.count == 0)
        for value in 0..<10 { list.append(Int32(value) + 7) }
        #expect(list.indices.map { list[$0] } == (0..<10).map { Int32($0) + 7 })
    }

    /// A copy made before the reader's copy grows is not read after: the importer takes the grown
    /// copy back (`EventImporter.readOTLPRequest`); copies share memory while neither grows.
    @Test func copiesShareTheirElementsWhileNeitherGrows() {
        var list = PlainList<Int>()
        list.append(1)
        var copy = list
        defer { copy.deallocate() }
        copy[0] = 2
        #expect(list[0] == 2)
        for value in 0..<100 { copy.append(value) }
        #expect(copy.count == 101 && copy[0] == 2 && copy[100] == 99)
    }
}
