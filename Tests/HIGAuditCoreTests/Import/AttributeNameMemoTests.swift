import Testing
@testable import HIGAuditCore

/// `EventImporter.attributeNameClass` gives what comparing the name gives (`KnownAttributeName.of`,
/// `isLeftOutAttribute`, `eventField`, the `id`), for names remembered and not, however many names
/// share the memo's slots.
@Suite struct AttributeNameMemoTests {
    static let names: [String] = {
        var names = ["session.id", "screen.name", "event.name", "log.record.uid", "view.name", "app.widget.name",
                     "ios.app.state", "device.id", "service.version", "os.version", "id", "ts", "type", "session",
                     "device", "app_version", "os_version", "screen", "", "a-name-longer-than-sixteen-bytes",
                     #"session\u002Eid"#, #"i\u0064"#, #"ph\u0061se"#]
        names += EventField.allCases.map { String(decoding: UnsafeRawBufferPointer(start: $0.key.utf8Start, count: $0.key.utf8CodeUnitCount), as: UTF8.self) }
        // Beside each name, one that differs in its last byte only, whose class differs.
        names += names.filter { !$0.isEmpty && !$0.contains("\\") }.map { $0.dropLast() + "Z" }
        // Enough names that many share a slot.
        names += (0..<700).map { "custom.\($0)" }
        return names
    }()

    @Test func everyNameGetsTheClassItsComparisonsGive() throws {
        let attributes = Self.names.map { #"{"key":"\#($0)","value":{"stringValue":"v"}}"# }
        // The names twice over, in two orders: remembered the first time, read back later.
        let list = (attributes + attributes.reversed()).joined(separator: ",")
        let line = Array(#"{"attributes":[\#(list)]}"#.utf8)
        let importer = EventImporter(format: .otlp, settings: ImportedFieldsDifferentialTests.settings)
        try line.withUnsafeBytes { bytes in
            try importer.tape.read(bytes)
            let list = try #require(importer.tape.member(0, "attributes"))
            var checked = 0
            importer.tape.forEachElement(list) { _, attribute in
                let name = importer.attributeParts(attribute).key!
                let nameClass = importer.attributeNameClass(name)
                let text = importer.tape.string(name)
                #expect(nameClass.known == EventImporter.KnownAttributeName.of(importer.tape, name), "\(text)")
                #expect(nameClass.leftOut == importer.isLeftOutAttribute(name), "\(text)")
                #expect(nameClass.field == importer.eventField(name), "\(text)")
                #expect(nameClass.isId == (text == "id"), "\(text)")
                checked += 1
            }
            #expect(checked == 2 * Self.names.count)
        }
    }

    /// Two names whose first slot is one, taking turns, are each classified once: the second takes
    /// its other slot. The memo still gives each its own class.
    @Test func twoNamesOfOneSlotTakingTurnsAreClassifiedOnce() throws {
        func words(_ name: String) -> (low: UInt64, high: UInt64, count: UInt8) {
            let bytes = Array(name.utf8)
            let (low, high) = bytes.withUnsafeBufferPointer { CompactText.inlineWords($0.baseAddress!, count: $0.count, readable: $0.count) }
            return (low, high, UInt8(bytes.count))
        }
        func first(_ name: String) -> Int {
            let w = words(name)
            return AttributeNameMemo.places(low: w.low, high: w.high, count: w.count).first
        }
        let candidates = (0..<2_000).map { "name.\($0)" }
        var byFirst: [Int: String] = [:]
        var pair: (String, String)?
        for name in candidates {
            if let other = byFirst[first(name)] {
                let (a, b) = (words(other), words(name))
                if AttributeNameMemo.places(low: a.low, high: a.high, count: a.count).second
                    != AttributeNameMemo.places(low: b.low, high: b.high, count: b.count).second {
                    pair = (other, name)
                    break
                }
            }
            byFirst[first(name)] = name
        }
        let (one, two) = try #require(pair)
        let memo = AttributeNameMemo()
        var classified: [String] = []
        for turn in 0..<100 {
            let name = turn % 2 == 0 ? one : two
            let w = words(name)
            let nameClass = memo.class(low: w.low, high: w.high, count: w.count) {
                classified.append(name)
                return EventImporter.AttributeNameClass(known: nil, leftOut: name == one, field: nil, isId: false)
            }
            #expect(nameClass.leftOut == (name == one), "\(name)")
        }
        #expect(classified == [one, two])
    }
}
