import Foundation
import Testing
@testable import HIGAuditCore

/// A page of Datadog's RUM events API (`GET /api/v2/rum/events`, `POST /api/v2/rum/events/search`:
/// `{"data": [item, …], "links": …, "meta": …}`) saved one page a line: each item imports as the line
/// of that item alone would, numbered by its place in the page (`LINE#K`).
@Suite struct DatadogPageImportTests {
    /// The fixture's and the malformed catalogue's lines that are JSON objects (a page can hold only
    /// those).
    static func itemLines() throws -> [String] {
        try ExportLineLayoutsTests.fixtureLines(.datadogRUM).filter { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any]
        }
    }

    static func page(_ items: [String], cursor: String = "eyJhZnRlciI6IkFRQUFBWXYifQ") -> String {
        #"{"data":[\#(items.joined(separator: ","))],"links":{"next":"https://api.datadoghq.com/api/v2/rum/events?page%5Bcursor%5D=\#(cursor)"},"meta":{"elapsed":132,"page":{"after":"\#(cursor)"},"request_id":"pddv1ChZ","status":"done"}}"#
    }

    /// Each outcome without its place (`LINE#RECORD`, and in an event its source, in a problem its
    /// column), those of each line's records first and the lines written for them after, as a page
    /// is one line: the same for a page as for its items one a line.
    static func unplaced(_ outcomes: [String]) -> [String] {
        let stripped = outcomes.map { outcome in
            outcome.replacing(#/^[0-9]+#[0-9]+ /#, with: "")
                .replacing(#/record: [0-9]+, line: [0-9]+/#, with: "record: _, line: _")
                .replacing(#/ \(at byte [0-9]+ of the line\)/#, with: "")
        }
        return stripped.filter { !$0.hasPrefix("written ") } + stripped.filter { $0.hasPrefix("written ") }
    }

    static func read(_ lines: [String], layouts: Bool) -> [String] {
        readWithImporter(lines, layouts: layouts).outcomes
    }

    static func readWithImporter(_ lines: [String], layouts: Bool) -> (outcomes: [String], importer: EventImporter) {
        ImportOutcomes.read(.datadogRUM, lines.map { Array($0.utf8) }, writes: true) { importer in
            if !layouts { importer.readsLayouts = false }
        }
    }

    @Test(arguments: [true, false])
    func aPageImportsAsItsItemsOneALine(layouts: Bool) throws {
        let items = try Self.itemLines()
        #expect(items.count >= 20, "the fixtures hold the automatic events, conventions and malformed ones")
        let alone = Self.read(items, layouts: layouts)
        let paged = Self.read([Self.page(items)], layouts: layouts)
        #expect(Self.unplaced(paged) == Self.unplaced(alone))
        #expect(alone.contains { $0.contains(" malformed ") } && alone.contains { $0.contains(" unknown ") })
        // Item K of the page is record K of line 1.
        let places = paged.compactMap { $0.firstMatch(of: #/^1#([0-9]+) /#).map { Int($0.1)! } }
        #expect(places.first == 1 && places.last == items.count)
    }

    /// Pages short enough to be learned as layouts, read again and again: the places kept for a
    /// layout are the page's, and its items are read anew on every line.
    @Test func pagesOfOneLayoutImportAsTheirItems() throws {
        let items = try Self.itemLines().filter { $0.contains(#""type":"action""#) && $0.contains(#""custom""#) }
        let pairs = stride(from: 0, to: items.count - 1, by: 2).map { [items[$0], items[$0 + 1]] }
        #expect(pairs.count >= 2)
        let pages = (0..<4).flatMap { _ in pairs.map { Self.page($0) } }
        let (paged, importer) = Self.readWithImporter(pages, layouts: true)
        #expect(importer.layouts.matched >= pages.count - 2 * pairs.count, "\(importer.layouts.matched) pages matched a layout")
        let alone = Self.read(pages.indices.flatMap { pairs[$0 % pairs.count] }, layouts: true)
        #expect(Self.unplaced(paged) == Self.unplaced(alone))
        #expect(paged.contains { $0.hasPrefix("\(pages.count)#2 ") })
    }

    @Test func whatIsAndIsNotAPage() {
        let view = #"{"type":"view","date":1795168800000,"session":{"id":"s-1"},"view":{"name":"Home"}}"#
        let outcomes = Self.read([
            Self.page([]),
            #"{"data":[7,\#(view)]}"#,
            #"{"data":{"items":[]}}"#,
            #"{"type":"view","date":1795168800001,"session":{"id":"s-1"},"view":{"name":"Search"},"data":[1]}"#,
        ], layouts: true)
        #expect(!outcomes.contains { $0.hasPrefix("1#") }, "an empty page has no events")
        #expect(outcomes.contains { $0.hasPrefix("2#1 malformed the page's item is not an object") })
        #expect(outcomes.contains { $0.hasPrefix("2#2 event ") })
        #expect(outcomes.contains { $0.hasPrefix("3#0 malformed missing type") }, "data that is no array makes no page")
        #expect(outcomes.contains { $0.hasPrefix("4#0 event ") && $0.contains("Search") }, "an event with a type is no page")
    }
}
