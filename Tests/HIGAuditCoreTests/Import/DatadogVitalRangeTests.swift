import Testing
@testable import HIGAuditCore

/// An `app_launch` vital whose duration is finite but past any time in milliseconds, or takes the
/// event's `date` past them, is a malformed record located at the duration (it stopped the program:
/// converting it to an integer trapped; found by `ExportLineLayoutsTests`' one-byte variants).
@Suite struct DatadogVitalRangeTests {
    static func records(_ line: String) -> [String] {
        let importer = EventImporter(format: .datadogRUM)
        var records: [String] = []
        var text = line
        text.withUTF8 { utf8 in
            importer.translate(UnsafeRawBufferPointer(utf8)) { _, record in
                switch record {
                case .malformed(let problem): records.append("malformed \(problem)")
                case .unknownType(let name): records.append("unknown \(name)")
                case .event: records.append("event")
                }
                return false
            }
        }
        return records
    }

    static func vital(date: String, duration: String) -> String {
        #"{"type":"vital","date":\#(date),"session":{"id":"s-1"},"vital":{"type":"app_launch","app_launch_metric":"ttid","duration":\#(duration),"is_prewarmed":false}}"#
    }

    @Test func aDurationPastAnyTimeIsMalformedNotACrash() {
        let line = Self.vital(date: "1795168800006", duration: "1e300")
        let records = Self.records(line)
        #expect(records.count == 1)
        #expect(records.first?.contains("vital.duration is out of range") == true, "\(records)")
        let column = line.utf8.count - #"1e300,"is_prewarmed":false}}"#.utf8.count
        #expect(records.first?.contains("(at byte \(column + 1) of the line)") == true, "\(records)")
    }

    @Test func aDurationThatTakesTheDatePastAnyTimeIsMalformed() {
        let records = Self.records(Self.vital(date: "9223372036854775000", duration: "1e12"))
        #expect(records.first?.contains("vital.duration is out of range") == true, "\(records)")
    }

    @Test func anOrdinaryDurationStillGivesAnEvent() {
        #expect(Self.records(Self.vital(date: "1795168800006", duration: "812000000")) == ["event"])
    }
}
