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
}
