import Foundation
import Testing
@testable import HIGAuditCore

/// OTLP requests of many records read record by record (`EventImporter.translateRecords`: records
/// matched against layouts of records, read by their plans with their resource's attributes) give
/// exactly what the general way gives (the whole line's tape, `otlpRecords`): the same events,
/// unknown types and reasons at the same columns and record positions, in the same order, and for a
/// line that is not valid JSON or not laid out as the record way reads it, the general way's answer.
/// Requests vary in their resources (several a line, of other kinds, absent), their scopes, their
/// records (named by member or attribute, times as strings, numbers or 0, `intValue`s and
/// `doubleValue`s of every kind, malformed records among good ones) and their frames (whitespace,
/// keys escaped or given twice, other members, empty lists).
@Suite struct RecordLayoutsTests {
    /// `lines` read record by record (`records`) or the general way; with `sorts` off, every line as
    /// it stands (no attribute list put in name order, `OTLPAttributeOrder`).
    static func outcomes(
        _ lines: [[UInt8]], records: Bool, plans: Bool = true, writes: Bool = false, sorts: Bool = true
    ) -> (outcomes: [String], importer: EventImporter) {
        ImportOutcomes.read(.otlp, lines, writes: writes) {
            $0.readsRecordLayouts = records
            $0.readsPlans = plans
            $0.sortsAttributes = sorts
        }
    }

    /// Reads `lines` the general way and record by record, with and without plans, and as `import`
    /// reads them (writing each event's line), and expects the same outcomes;
    /// returns the importer that read record by record with plans (for its counters).
    ///
    /// `sorts: false` reads every line as it stands, for batches whose records change their
    /// attributes' order on purpose: read in name order, such a batch is reordered while the layouts
    /// of records serve it (`EventImporter.recordsSortLine`), which the general way does not ask, so
    /// that the two ways would write a record's own fields in other orders.
    @discardableResult
    static func expectReadAlike(_ lines: [[UInt8]], _ what: String, sorts: Bool = true) -> EventImporter {
        func expectSame(_ byRecords: [String], _ general: [String], _ way: String) {
            #expect(byRecords.count == general.count, "\(what), \(way)")
            for (one, other) in zip(byRecords, general) where one != other {
                Issue.record("\(what), \(way):\nby records: \(one)\ngeneral: \(other)")
                break
            }
        }
        let general = outcomes(lines, records: false, sorts: sorts)
        #expect(general.importer.recordLayouts.matched == 0, "\(what)")
        let planned = outcomes(lines, records: true, plans: true, sorts: sorts)
        expectSame(planned.outcomes, general.outcomes, "plans")
        expectSame(outcomes(lines, records: true, plans: false, sorts: sorts).outcomes, general.outcomes, "no plans")
        // `import` writes the same lines from plans (of records, of whole lines) as from the tape.
        let written = outcomes(lines, records: false, plans: false, writes: true, sorts: sorts).outcomes
        expectSame(outcomes(lines, records: true, writes: true, sorts: sorts).outcomes, written, "the lines import writes")
        expectSame(outcomes(lines, records: false, writes: true, sorts: sorts).outcomes, written, "the lines import writes, whole lines")
        return planned.importer
    }

    static func resource(_ generator: inout SplitMix64) -> String {
        let attribute = ConventionPlanTests.attribute
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: return #""resource":{"attributes":[\#(attribute("device.id", #""stringValue":"dev-1""#)),\#(attribute("os.version", #""intValue":"26""#))]},"#
        case 1: return ""
        case 2: return #""resource":{},"#
        case 3: return #""resource":{"attributes":{}},"#
        case 4: return #""resource":{"attributes":[\#(attribute("service.version", #""stringValue":"1.\\u0031""#))],"droppedAttributesCount":0},"#
        default:
            let attributes = [
                attribute("service.name", #""stringValue":"app""#),
                attribute("device.id", #""stringValue":"dev-\#(Int.random(in: 1...3, using: &generator))""#),
                attribute("service.version", #""stringValue":"1.\#(Int.random(in: 0...2, using: &generator))""#),
                attribute("os.version", #""stringValue":"26.\#(Int.random(in: 0...1, using: &generator))""#),
            ]
            return #""resource":{"attributes":[\#(attributes.prefix(Int.random(in: 2...4, using: &generator)).joined(separator: ","))]},"#
        }
    }

    /// A scope's records, their members laid out as one exporter lays them out.
    static func records(_ generator: inout SplitMix64) -> String {
        let layout = Int.random(in: 0..<ConventionPlanTests.otlpRecordLayouts, using: &generator)
        return (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            // Now and then a record that is no object.
            Int.random(in: 0..<40, using: &generator) == 0 ? #"["x"]"# : ConventionPlanTests.otlpRecord(&generator, layout: layout)
        }.joined(separator: ",")
    }

    static func scopeLogs(_ generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 1...2, using: &generator)).map { _ in
            let scope = ConventionPlanTests.mostly([#""scope":{"name":"sdk"},"#, "", #""scope":{"name":"sdk","version":"1.0"},"schemaUrl":"u","#], &generator)
            return #"{\#(scope)"logRecords":[\#(records(&generator))]}"#
        }.joined(separator: ",")
    }

    static func request(_ generator: inout SplitMix64) -> String {
        let resourceLogs = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            #"{\#(resource(&generator))"scopeLogs":[\#(scopeLogs(&generator))]}"#
        }
        return #"{"resourceLogs":[\#(resourceLogs.joined(separator: ","))]}"#
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func requestsOfManyRecordsAreReadAsTheGeneralWayReadsThem(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<300).map { _ in Array(Self.request(&generator).utf8) }
        let importer = Self.expectReadAlike(lines, "seed \(seed)")
        // The record way was taken (at least its first block; scopes laid out at random seldom match
        // at the first try, so it turns sparse and not every request goes), and most of the records
        // that went to it were read from a layout's match, at some try; some lines were planned.
        #expect(importer.recordsAsked >= EventImporter.layoutBlock)
        #expect(importer.recordLayouts.matched * 2 > importer.recordsAsked, "\(importer.recordLayouts.matched) of \(importer.recordsAsked)")
        #expect(importer.linesPlanned > lines.count / 2)
    }

    /// Records of two events taking turns in requests of many, named by their `eventName` after their
    /// attributes (the OpenTelemetry Collector's order) or by the attribute `event.name` after
    /// others, past a record's first bytes: each record is placed by its name
    /// (`EventImporter.recordLead`), so once both layouts are learned each record is found at its first try.
    @Test(arguments: [true, false])
    func recordsTakingTurnsAreToldApartByTheirNamesWhereverTheyAre(namedByMember: Bool) {
        let attribute = ConventionPlanTests.attribute
        func record(_ n: Int, _ name: String, _ own: String) -> String {
            // Attributes of several lengths, longer than a record's first bytes together.
            let session = attribute("session.id", #""stringValue":"s-\#(String(repeating: "1", count: 1 + n % 7))""#)
            let screen = attribute("screen.name", #""stringValue":"canvas.editor.layers.panel.\#(n % 3 == 0 ? "wide" : "compact")""#)
            let uid = attribute("log.record.uid", #""stringValue":"e\#(n)""#)
            let attributes = namedByMember
                ? "\(session),\(screen),\(uid),\(own)"
                : "\(session),\(screen),\(uid),\(own),\(attribute("event.name", #""stringValue":"\#(name)""#))"
            let named = namedByMember ? #","eventName":"\#(name)""# : ""
            return #"{"timeUnixNano":"17951688\#(10000 + n)000000","attributes":[\#(attributes)]\#(named)}"#
        }
        // Lines longer than any line's layout, read record by record whatever came before.
        let lines = (0..<6).map { line in
            let records = (0..<60).map { index in
                let n = line * 60 + index
                return index % 2 == 0
                    ? record(n, "hig.touch", attribute("phase", #""stringValue":"ended""#))
                    : record(n, "hig.haptic", attribute("kind", #""stringValue":"selection""#))
            }
            return Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[\#(records.joined(separator: ","))]}]}]}"#.utf8)
        }
        #expect(lines.allSatisfy { $0.count > ExportLineLayouts.maxLineLength })
        let importer = Self.expectReadAlike(lines, namedByMember ? "named by eventName last" : "named by attribute")
        #expect(importer.recordLayouts.learned == 2)
        // A few while the two layouts are learned, not one a record.
        #expect(importer.recordLayouts.missedTries < 10, "\(importer.recordLayouts.missedTries) tries missed")
    }

    /// A collector's batch of records of one name from writers that order its attributes differently
    /// (twelve layouts taking turns, more than the name's place keeps), each record under a resource of
    /// its own device: each layout is learned once, then found by the record's keys
    /// (`ExportLineLayouts.keysPlace`) whenever its name's place misses it, not learned again. Read as
    /// they stand, so that the twelve orders stay twelve layouts.
    @Test func aNameOfMoreLayoutsThanItsPlaceKeepsIsFoundByItsRecordsKeys() {
        let attribute = ConventionPlanTests.attribute
        let own = [
            attribute("phase", #""stringValue":"ended""#), attribute("target", #""stringValue":"canvas""#),
            attribute("x", #""intValue":"600""#), attribute("y", #""intValue":"400""#),
        ]
        let orders = ShuffledKeysImportTests.permutations(of: 4).prefix(12).map { order in order.map { own[$0] } }
        func resourceLog(_ n: Int) -> String {
            let attributes = order(n).joined(separator: ",")
            let record = #"{"timeUnixNano":"17951688\#(10000 + n)000000","eventName":"hig.touch","attributes":[\#(attribute("session.id", #""stringValue":"s-\#(n % 5)""#)),\#(attributes)]}"#
            let resource = attribute("device.id", #""stringValue":"dev-\#(n % 5)""#)
            return #"{"resource":{"attributes":[\#(resource)]},"scopeLogs":[{"logRecords":[\#(record)]}]}"#
        }
        func order(_ n: Int) -> [String] { orders[n % orders.count] }
        let lines = (0..<8).map { line in
            Array(#"{"resourceLogs":[\#((0..<48).map { resourceLog(line * 48 + $0) }.joined(separator: ","))]}"#.utf8)
        }
        let importer = Self.expectReadAlike(lines, "twelve layouts of one name in turn", sorts: false)
        #expect(importer.recordLayouts.learned == orders.count, "\(importer.recordLayouts.learned) learned")
        #expect(importer.recordLayouts.matched > 8 * 48 - 3 * orders.count)
    }

    /// Requests of many records whose attributes come in a new order on each record (a collector
    /// batching OpenTelemetry Swift's records, whose attributes are a Swift dictionary) go to the
    /// record layouts one request in sixty-four once fewer than three in four of a block's records matched
    /// at their first try; requests whose records repeat one layout after them bring every request back once a
    /// sparse block's records matched. Every record imports as the general way reads it. Read as they
    /// stand: in name order, these records repeat one layout (`OTLPAttributeOrderTests`).
    @Test func recordsThatSeldomMatchAreAskedOneRequestInSixtyFour() {
        let attribute = ConventionPlanTests.attribute
        let own = [
            attribute("phase", #""stringValue":"ended""#), attribute("target", #""stringValue":"canvas""#),
            attribute("x", #""intValue":"600""#), attribute("y", #""doubleValue":4.5"#),
            attribute("session.id", #""stringValue":"s-1""#),
        ]
        let orders = ShuffledKeysImportTests.permutations(of: own.count)
        var generator = SplitMix64(seed: 5)
        func request(_ line: Int, shuffled: Bool) -> [UInt8] {
            let records = (0..<48).map { n in
                let order = shuffled ? orders[Int.random(in: 0..<orders.count, using: &generator)] : orders[0]
                let attributes = order.map { own[$0] }.joined(separator: ",")
                return #"{"timeUnixNano":"17951688\#(10000 + line * 48 + n)000000","eventName":"hig.touch","attributes":[\#(attributes)]}"#
            }
            let resource = attribute("device.id", #""stringValue":"dev-\#(line % 3)""#)
            return Array(#"{"resourceLogs":[{"resource":{"attributes":[\#(resource)]},"scopeLogs":[{"logRecords":[\#(records.joined(separator: ","))]}]}]}"#.utf8)
        }
        let turning = (0..<150).map { request($0, shuffled: true) }
        #expect(turning[0].count > ExportLineLayouts.maxLineLength)
        let sparse = Self.expectReadAlike(turning, "attributes in a new order on each record", sorts: false)
        #expect(sparse.recordsSparse)
        // The first block's records (22 requests), and one request in sixty-four of the 128 after it
        // (one in sixteen would ask eight).
        #expect(sparse.recordsAsked <= 23 * 48 + 2 * 48, "\(sparse.recordsAsked) records asked")
        let steady = (150..<250).map { request($0, shuffled: false) }
        let back = Self.expectReadAlike(turning + steady, "then records of one layout", sorts: false)
        #expect(!back.recordsSparse)
        #expect(back.recordLayouts.matched > 16 * 48, "\(back.recordLayouts.matched) matched")
    }

    /// Batches in which two records in three repeat one layout and the third comes in an order of its
    /// own (seven attributes in any of 5,040 orders) match more than half but fewer than three in four
    /// records at the first try: a record that misses costs several that match, so they too go to
    /// the record layouts one request in sixty-four. Every record imports as the general way reads it.
    @Test func recordsMatchingTwoInThreeAreAskedOneRequestInSixtyFour() {
        let attribute = ConventionPlanTests.attribute
        let own = [
            attribute("phase", #""stringValue":"ended""#), attribute("target", #""stringValue":"canvas""#),
            attribute("x", #""intValue":"600""#), attribute("y", #""doubleValue":4.5"#),
            attribute("session.id", #""stringValue":"s-1""#), attribute("input", #""stringValue":"finger""#),
            attribute("seq", #""intValue":"7""#),
        ]
        let orders = ShuffledKeysImportTests.permutations(of: own.count)
        var generator = SplitMix64(seed: 9)
        let lines = (0..<40).map { line in
            let records = (0..<48).map { n in
                let order = n % 3 == 2 ? orders[Int.random(in: 1..<orders.count, using: &generator)] : orders[0]
                let attributes = order.map { own[$0] }.joined(separator: ",")
                return #"{"timeUnixNano":"17951688\#(10000 + line * 48 + n)000000","eventName":"hig.touch","attributes":[\#(attributes)]}"#
            }
            let resource = attribute("device.id", #""stringValue":"dev-\#(line % 3)""#)
            return Array(#"{"resourceLogs":[{"resource":{"attributes":[\#(resource)]},"scopeLogs":[{"logRecords":[\#(records.joined(separator: ","))]}]}]}"#.utf8)
        }
        let importer = Self.expectReadAlike(lines, "two records in three of one layout")
        let share = Double(importer.recordsMatchedFirst) / Double(importer.recordsAsked)
        #expect(share > 0.5 && share < 0.75, "\(importer.recordsMatchedFirst) of \(importer.recordsAsked) matched at the first try")
        #expect(importer.recordsSparse)
    }

    /// The same requests written as a collector writes a long batch (one line of many records), and
    /// cut, changed or widened by one byte at places all along the first of them.
    @Test func requestsChangedByOneByteAreReadAsTheGeneralWayReadsThem() {
        var generator = SplitMix64(seed: 7)
        let lines = (0..<40).map { _ in Array(Self.request(&generator).utf8) }
        let long = Array((#"{"resourceLogs":["# + lines.map { line in
            String(decoding: line.dropFirst(17).dropLast(2), as: UTF8.self)
        }.filter { !$0.isEmpty }.joined(separator: ",") + "]}").utf8)
        #expect(long.count > ExportLineLayouts.maxLineLength)
        var varied = [long] + lines
        for (index, variant) in ExportLineLayoutsTests.variants(lines[0], sparse: true).enumerated() where index % 3 == 0 {
            varied += [variant, lines[index % lines.count]]
        }
        for cut in stride(from: 1, to: long.count, by: long.count / 50) { varied += [Array(long.prefix(cut)), long] }
        // And bytes changed, dropped or doubled all along the long line, after records that matched.
        let replacements = ExportLineLayoutsTests.replacements
        for (step, place) in stride(from: 0, to: long.count, by: long.count / 60).enumerated() {
            var variant = long
            switch step % (replacements.count + 2) {
            case replacements.count: variant.remove(at: place)
            case replacements.count + 1: variant.insert(long[place], at: place)
            case let kind: variant[place] = replacements[kind]
            }
            varied += [variant, long]
        }
        Self.expectReadAlike(varied, "changed")
    }

    /// Frames the record way does not read (keys escaped or given twice, members it does not know, lists
    /// that are not arrays) and frames it does (whitespace, empty lists) read as the general way reads them.
    @Test func framesOfEveryKindAreReadAsTheGeneralWayReadsThem() {
        let record = #"{"eventName":"hig.haptic","timeUnixNano":"1795168800000000000","attributes":[{"key":"session.id","value":{"stringValue":"s-1"}},{"key":"kind","value":{"stringValue":"impact.light"}}]}"#
        let records = [record, record, record].joined(separator: ",")
        let resource = #""resource":{"attributes":[{"key":"device.id","value":{"stringValue":"dev-1"}}]}"#
        let frames = [
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]}"#,
            #" { "resourceLogs" : [ { \#(resource) , "scopeLogs" : [ { "logRecords" : [ \#(records) , \#(record) ] } ] } ] } "#,
            "{\"resourceLogs\":[{\(resource),\"scopeLogs\":[{\"logRecords\":[\(record),\n\t\(record)]}]}]}\r",
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}],"resourceLogs":[]}"#,
            #"{"resourceLogs":[],"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]}"#,
            #"{"resource\u004cogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"log\u0052ecords":[\#(records)]}]}]}"#,
            #"{"resourceLogs":[{\#(resource),\#(resource.replacingOccurrences(of: "dev-1", with: "dev-2")),"scopeLogs":[{"logRecords":[\#(records)]}]}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)],"logRecords":[\#(record)]}]}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}],"scopeLogs":[]}]}"#,
            #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[\#(records)]}],\#(resource)}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":{}}]}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":{}}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]},7]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[]},{"logRecords":[\#(records)]},{}]},{}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}],"other":1}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]}x"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records),]}]}]}"#,
            #"{"resourceLogs":[{\#(resource),"scopeLogs":[{"logRecords":[\#(records)]}]}]"#,
            #"{"resourceLogs":{}}"#,
            #"{"resourceLogs":[]}"#,
            #"{"other":[]}"#,
        ]
        // Each twice: the second time, the records' layouts are known and planned.
        let lines = (frames + frames).map { Array($0.utf8) }
        let importer = Self.expectReadAlike(lines, "frames")
        #expect(importer.linesPlanned > 0)
    }

    /// Batched requests decode as the lines `import` writes of them decode
    /// (`ImportedFieldsDifferentialTests`' oracle), and the way `import` reads them keeps its records.
    @Test func requestsOfManyRecordsDecodeAsTheirWrittenLines() {
        var generator = SplitMix64(seed: 11)
        let lines = (0..<200).map { _ in Self.request(&generator) }
        let (events, malformed) = ImportedFieldsDifferentialTests.expectSame(.otlp, lines, "batched")
        #expect(events > 200 && malformed > 20)
    }
}
