import Testing
@testable import HIGAuditCore

/// `EventImporter.OTLPRequestReader` reads a request as the general scan does (SPEC §7: OTLP/JSON):
/// the same tape for every line it reads, nothing read that the scan refuses, and the same records,
/// events and written lines as the tape's look-ups, on requests of any member and attribute order,
/// spacing, escapes and kinds, and on every one-byte change of them.
@Suite struct OTLPRequestReaderTests {
    /// The reader's tape of `line`, or nil when it declines it.
    static func readerTape(_ line: [UInt8]) -> [JSONTape.Entry]? {
        line.withUnsafeBufferPointer { bytes -> [JSONTape.Entry]? in
            guard let base = bytes.baseAddress else { return nil }
            var reader = EventImporter.OTLPRequestReader(tape: JSONTape(), parts: .init(), line: base, count: bytes.count)
            let read = reader.read()
            defer { reader.tape.deallocate() }
            return read ? (0..<reader.tape.entryCount).map { reader.tape[$0] } : nil
        }
    }

    /// Requests as exporters write them and as they may: members and attributes in any order, an
    /// attribute's `value` before its `key`, members the importer does not read, spaces between
    /// tokens, escapes in values, a value of each OTLP kind, lists and records that are not what they
    /// should be, names given twice. `escapedKeys` adds keys with escapes, which the reader declines.
    static func requests(count: Int, seed: UInt64, escapedKeys: Bool) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        func chance(_ percent: Int) -> Bool { Int(random.next() % 100) < percent }
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func space() -> String { chance(8) ? pick([" ", "\t", "  ", "\r\n "]) : "" }
        func object(_ members: [(String, String)]) -> String {
            let written = members.map { "\(space())\"\($0.0)\"\(space()):\(space())\($0.1)\(space())" }
            return "{" + written.joined(separator: ",") + "}"
        }
        func array(_ elements: [String]) -> String {
            "[" + elements.map { space() + $0 + space() }.joined(separator: ",") + "]"
        }
        func typed() -> String {
            switch random.next() % 12 {
            case 0, 1, 2, 3: return object([("stringValue", pick([#""canvas.editor""#, #""s-1""#, #""say \"hi\"""#, #""caf\u00e9""#, #""""#, "\"\u{1F600}\""]))])
            case 4, 5: return object([("intValue", pick([#""600""#, "600", #""-3""#, #""12x""#, "1e3"]))])
            case 6, 7: return object([("doubleValue", pick(["400.5", "-0.25", #""NaN""#, "1e400", "7"]))])
            case 8: return object([("boolValue", pick(["true", "false", #""true""#]))])
            case 9: return object([("arrayValue", object([("values", array([object([("stringValue", #""a""#)])]))]))])
            case 10: return object([("kvlistValue", object([("values", "[]")]))])
            default: return pick([object([("bytesValue", #""AAE=""#)]), "{}", "null", #""plain""#,
                                  object([("intValue", "1"), ("stringValue", #""both""#)])])
            }
        }
        let names = ["session.id", "screen.name", "log.record.uid", "event.name", "view.name", "app.widget.name",
                     "ios.app.state", "phase", "target", "x", "y", "id", "ts", "type", "pressure", "amount"]
        func attribute(_ name: String) -> String {
            let key = escapedKeys && chance(3) ? "\"ke\\u0079\"" : "\"key\""
            var members = [(String(key.dropFirst().dropLast()), "\"\(name)\""), ("value", typed())]
            if chance(10) { members.reverse() }
            if chance(5) { members.append(("extra", "1")) }
            if chance(3) { members.append(("value", typed())) }
            if chance(2) { members = [("key", "7"), ("value", typed())] }
            return object(members)
        }
        func attributes(_ pool: [String]) -> String {
            if chance(3) { return pick(["{}", "null", #""none""#]) }
            var list = (0..<Int(random.next() % 9)).map { _ in attribute(pick(pool)) }
            if chance(4) { list.insert(pick(["1", "null", "[]"]), at: Int(random.next() % UInt64(list.count + 1))) }
            return array(list)
        }
        func record() -> String {
            if chance(3) { return pick(["1", "null", #""record""#, "[]"]) }
            var members: [(String, String)] = [
                ("timeUnixNano", pick([#""1795168810000000000""#, "1795168810000000000", #""0""#, #""-5""#, #""later""#])),
                ("observedTimeUnixNano", #""1795168811000000000""#),
                ("eventName", pick([#""hig.touch""#, #""hig.haptic""#, #""emb-screen-view""#, #""emb-ui-tap""#,
                                    #""device.app.lifecycle""#, #""other""#, "3"])),
                ("severityNumber", "9"), ("body", object([("stringValue", #""text""#)])),
                ("attributes", attributes(names)),
            ]
            members.shuffle(using: &random)
            members.removeAll { $0.0 != "attributes" && chance(8) }
            if chance(4) { members.append(("attributes", attributes(names))) }
            if chance(4) { members.append(("eventName", #""hig.haptic""#)) }
            if escapedKeys, chance(3) { members.append(("event\\u004Eame", #""hig.touch""#)) }
            return object(members)
        }
        func resourceLog() -> String {
            if chance(2) { return pick(["1", "null"]) }
            let resource = object([("attributes", attributes(["device.id", "service.version", "os.version", "service.name"]))])
            let scopeLog = {
                chance(3) ? "null" : object([("scope", object([("name", #""bench""#)])),
                                             ("logRecords", chance(3) ? "{}" : array((0..<Int(1 + random.next() % 3)).map { _ in record() }))])
            }
            var members: [(String, String)] = [("resource", chance(3) ? "[]" : resource),
                                                ("scopeLogs", array((0..<Int(1 + random.next() % 2)).map { _ in scopeLog() }))]
            if chance(30) { members.reverse() }
            if chance(3) { members.append(("resource", resource)) }
            if chance(3) { members.append(("schemaUrl", #""https://opentelemetry.io/schemas/1.24.0""#)) }
            return object(members)
        }
        return (0..<count).map { _ in
            var members = [("resourceLogs", array((0..<Int(1 + random.next() % 2)).map { _ in resourceLog() }))]
            if chance(3) { members.insert(("resourceSpans", "[]"), at: 0) }
            if chance(2) { members = [("resourceLogs", pick(["{}", "null"]))] }
            return Array((space() + object(members) + space()).utf8)
        }
    }

    static func expectSameTape(_ line: [UInt8], _ what: String) -> Bool {
        let scanned = ExportLineLayoutsTests.scanned(line)
        guard let read = readerTape(line) else { return false }
        switch scanned {
        case .success(let entries):
            #expect(read == entries, "\(what): \(String(decoding: line, as: UTF8.self))")
        case .failure(let problem):
            Issue.record("\(what): the reader read a line the general scan refuses (\(problem)): \(String(decoding: line, as: UTF8.self))")
        }
        return true
    }

    @Test func everyRequestItReadsGetsTheGeneralScansTapeAndItDeclinesNoneWithoutEscapedKeys() {
        for (index, line) in Self.requests(count: 400, seed: 47, escapedKeys: false).enumerated() {
            let read = Self.expectSameTape(line, "request \(index)")
            // Without a key with escapes, the reader declines only what the scan refuses.
            let refused = if case .failure = ExportLineLayoutsTests.scanned(line) { true } else { false }
            #expect(read != refused, "request \(index): \(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func oneByteChangesOfRequestsAreReadAsTheScanReadsThemOrDeclined() throws {
        var lines = try ExportLineLayoutsTests.fixtureLines(.otlp).map { Array($0.utf8) }
        lines += Self.requests(count: 12, seed: 5, escapedKeys: true)
        var read = 0
        for line in lines {
            for variant in ExportLineLayoutsTests.variants(line, sparse: true) {
                if Self.expectSameTape(variant, "a variant") {
                    read += 1
                } else if !variant.contains(0x5C), case .success = ExportLineLayoutsTests.scanned(variant) {
                    // Without a backslash, no key has escapes: declined only when refused.
                    Issue.record("a valid variant declined: \(String(decoding: variant, as: UTF8.self))")
                }
            }
        }
        #expect(read > 0)
    }

    /// The same records, events, problems and written lines whether a request's places come from the
    /// reader or from the tape's look-ups.
    @Test(arguments: [false, true])
    func recordsImportAlikeReadInOnePassOrLookedUp(escapedKeys: Bool) throws {
        var lines = try ExportLineLayoutsTests.fixtureLines(.otlp).map { Array($0.utf8) }
        lines += Self.requests(count: 600, seed: escapedKeys ? 11 : 12, escapedKeys: escapedKeys)
        func outcomes(_ lines: [[UInt8]], onePass: Bool, layouts: Bool) -> [String] {
            ImportOutcomes.read(.otlp, lines, writes: true) {
                $0.readsLayouts = layouts
                $0.readsRequestsInOnePass = onePass
            }.outcomes
        }
        func expectSame(_ one: [String], _ other: [String], _ what: String) {
            #expect(one.count == other.count, "\(what)")
            for (one, other) in zip(one, other) where one != other {
                Issue.record("\(what), looked up: \(one)\none pass:  \(other)")
                break
            }
        }
        let lookedUp = outcomes(lines, onePass: false, layouts: false)
        expectSame(lookedUp, outcomes(lines, onePass: true, layouts: false), "without layouts")
        // Each line three times through the layouts: learned from the reader's tape, its places kept
        // by the layout, then matched.
        let thrice = lines.flatMap { [$0, $0, $0] }
        expectSame(outcomes(thrice, onePass: false, layouts: false), outcomes(thrice, onePass: true, layouts: true), "through layouts")
        // The corpus makes events, unknown types and problems alike.
        #expect(lookedUp.contains { $0.contains(" event ") })
        #expect(lookedUp.contains { $0.contains(" malformed ") })
        #expect(lookedUp.contains { $0.contains(" unknown ") })
    }

    /// A session id written with escapes and the same id written plain are one SDK session: one
    /// synthetic start, one launch, whichever comes first and however they alternate.
    @Test func aSessionIdWithEscapesAndWithoutIsOneSession() {
        func line(session: String) -> [UInt8] {
            var attributes = OTLPAttributeReadingTests.touchAttributes
            attributes[0] = OTLPAttributeReadingTests.attribute("session.id", #""stringValue":"\#(session)""#)
            return OTLPAttributeReadingTests.line(attributes)
        }
        let escaped = line(session: #"s\u002D1"#)
        let plain = line(session: "s-1")
        for lines in [[escaped, plain, escaped, plain], [plain, escaped, escaped, plain]] {
            let (outcomes, _) = ImportOutcomes.read(.otlp, lines, writes: true) { _ in }
            #expect(outcomes.filter { $0.contains(" start ") }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0.contains(" event ") }.count == 4, "\(outcomes)")
            let written = outcomes.filter { $0.hasPrefix("written ") }
            // The id as it stood in its line, never numbered as a second launch (`s-1#2`).
            #expect(written.count == 5, "\(written)")
            #expect(written.allSatisfy { $0.contains(#""session":"s-1""#) || $0.contains(#""session":"s\u002D1""#) }, "\(written)")
        }
    }
}
