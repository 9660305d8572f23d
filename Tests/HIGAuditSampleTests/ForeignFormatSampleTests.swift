import Foundation
import Testing
import HIGAuditCore
@testable import HIGAuditSample

/// `sample --format`: the same events as the NDJSON sample, each line re-encoded into the export's
/// envelope exactly where SPEC §7's table puts each common field, the event named `hig.<type>`, its
/// fields as the format's "other fields" (OTLP: typed values, integers as `intValue` strings), and each
/// `session.start` saying `touches: all`. The envelope is read back here by the SPEC's table, written
/// out below, not by an importer.
@Suite struct ForeignFormatSampleTests {
    static func configuration(_ format: SampleFormat) -> SampleConfiguration {
        var configuration = SampleConfiguration(size: .sessions(12), seed: 5, days: 1, noise: .none, moveSamplingMs: 200)
        configuration.format = format
        return configuration
    }

    /// A JSON value as one comparable text: numbers and booleans by their value, strings quoted.
    static func normalized(_ value: Any) -> String {
        if let text = value as? String { return "\"" + text + "\"" }
        if let number = value as? NSNumber { return String(number.doubleValue) }
        return "\(value)"
    }

    /// An NDJSON line as the fields the export must carry: `app` has no place in the envelope, `ts` is
    /// milliseconds, a `session.start` says its `touches`.
    static func expected(fromNDJSON line: String) throws -> [String: String] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        object["app"] = nil
        let ts: Int64 = try #require(TimestampParser.milliseconds(object["ts"]))
        object["ts"] = ts
        if object["type"] as? String == "session.start", object["touches"] == nil { object["touches"] = "all" }
        return object.mapValues(normalized)
    }

    static func hig(_ name: Any?) throws -> String {
        let name = try #require(name as? String)
        #expect(name.hasPrefix("hig."))
        return String(name.dropFirst(4))
    }

    /// PostHog: `event`, `timestamp` (RFC 3339), `uuid`, `properties.$…` and the other properties.
    static func fromPostHog(_ object: [String: Any]) throws -> [String: String] {
        var ours: [String: Any] = ["type": try hig(object["event"])]
        #expect(object["timestamp"] is String)
        let ts: Int64 = try #require(TimestampParser.milliseconds(object["timestamp"]))
        ours["ts"] = ts
        ours["id"] = object["uuid"]
        let envelope = ["$session_id": "session", "$device_id": "device", "$app_version": "app_version",
                        "$os_version": "os_version", "$screen_name": "screen"]
        for (key, value) in try #require(object["properties"] as? [String: Any]) {
            ours[envelope[key] ?? key] = value
        }
        #expect(Set(object.keys).isSubset(of: ["event", "timestamp", "uuid", "properties"]))
        return ours.mapValues(normalized)
    }

    /// Datadog RUM: an `action` of type `custom` named by `action.target.name`, `date` (ms),
    /// `session.id`, `usr.anonymous_id`, `version`, `os.version`, `view.name`, `action.id`, `context.…`.
    static func fromDatadogRUM(_ object: [String: Any]) throws -> [String: String] {
        #expect(object["type"] as? String == "action")
        let action = try #require(object["action"] as? [String: Any])
        #expect(action["type"] as? String == "custom")
        var ours: [String: Any] = ["type": try hig((action["target"] as? [String: Any])?["name"])]
        let date = try #require(object["date"] as? NSNumber)
        #expect(!(object["date"] is String))
        ours["ts"] = date.int64Value
        ours["id"] = action["id"]
        ours["session"] = (object["session"] as? [String: Any])?["id"]
        ours["device"] = (object["usr"] as? [String: Any])?["anonymous_id"]
        ours["app_version"] = object["version"]
        ours["os_version"] = (object["os"] as? [String: Any])?["version"]
        ours["screen"] = (object["view"] as? [String: Any])?["name"]
        for (key, value) in try #require(object["context"] as? [String: Any]) { ours[key] = value }
        return ours.compactMapValues { $0 }.mapValues(normalized)
    }

    /// An OTLP `AnyValue` as plain JSON, checking that integers are `intValue` strings.
    static func plain(_ value: [String: Any]) throws -> Any {
        #expect(value.count == 1)
        if let text = value["stringValue"] as? String { return text }
        if let flag = value["boolValue"] { return flag }
        if let double = value["doubleValue"] { return double }
        let integer = try #require(value["intValue"] as? String, "intValue must be a string: \(value)")
        return NSNumber(value: try #require(Int64(integer)))
    }

    static func attributes(_ list: Any?) throws -> [String: Any] {
        var attributes: [String: Any] = [:]
        for entry in try #require(list as? [[String: Any]]) {
            let key = try #require(entry["key"] as? String)
            #expect(attributes[key] == nil, "attribute \(key) twice")
            attributes[key] = try plain(try #require(entry["value"] as? [String: Any]))
        }
        return attributes
    }

    /// OTLP: one `ExportLogsServiceRequest` a line; resource attributes `device.id`, `service.version`,
    /// `os.version`; the record's `timeUnixNano` (ns, a string) and attributes `event.name`,
    /// `session.id`, `screen.name`, `log.record.uid` and the other fields.
    static func fromOTLP(_ object: [String: Any]) throws -> [String: String] {
        let resourceLogs = try #require(object["resourceLogs"] as? [[String: Any]])
        #expect(resourceLogs.count == 1)
        let resource = try attributes((resourceLogs[0]["resource"] as? [String: Any])?["attributes"])
        let scopeLogs = try #require(resourceLogs[0]["scopeLogs"] as? [[String: Any]])
        let records = try #require(scopeLogs.first?["logRecords"] as? [[String: Any]])
        #expect(scopeLogs.count == 1 && records.count == 1)
        let record = records[0]
        let nanoText = try #require(record["timeUnixNano"] as? String)
        let nanos = try #require(Int64(nanoText))
        #expect(nanos % 1_000_000 == 0)
        var ours: [String: Any] = ["ts": nanos / 1_000_000]
        ours["device"] = resource["device.id"]
        ours["app_version"] = resource["service.version"]
        ours["os_version"] = resource["os.version"]
        let envelope = ["session.id": "session", "screen.name": "screen", "log.record.uid": "id"]
        for (key, value) in try attributes(record["attributes"]) {
            if key == "event.name" { ours["type"] = try hig(value) } else { ours[envelope[key] ?? key] = value }
        }
        return ours.compactMapValues { $0 }.mapValues(normalized)
    }

    @Test(arguments: [SampleFormat.posthog, .datadogRUM, .otlp])
    func everyEventLineCarriesTheSameEventInTheFormatsEnvelope(_ format: SampleFormat) throws {
        let native = try SampleFixtures.generate(Self.configuration(.ndjson))
        let foreign = try SampleFixtures.generate(Self.configuration(format))
        #expect(foreign.manifest.sessions == native.manifest.sessions)
        #expect(foreign.files.map(\.path) == native.files.map(\.path))
        var lines = 0
        var starts = 0
        for (ours, theirs) in zip(native.files, foreign.files) {
            let nativeLines = SampleFixtures.lines(of: ours.contents)
            let foreignLines = SampleFixtures.lines(of: theirs.contents)
            #expect(nativeLines.count == foreignLines.count, "\(theirs.path)")
            for (nativeLine, foreignLine) in zip(nativeLines, foreignLines) {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(foreignLine.utf8)) as? [String: Any])
                let decoded = switch format {
                case .posthog: try Self.fromPostHog(object)
                case .datadogRUM: try Self.fromDatadogRUM(object)
                case .otlp, .ndjson: try Self.fromOTLP(object)
                }
                let expected = try Self.expected(fromNDJSON: nativeLine)
                #expect(decoded == expected, "\(theirs.path): \(foreignLine)")
                if expected["type"] == "\"session.start\"" {
                    starts += 1
                    #expect(decoded["touches"] == "\"all\"")
                }
                lines += 1
            }
        }
        #expect(lines > 100 && starts == native.manifest.sessions)
    }

    @Test func integersAreIntValueStringsAndFractionsDoubles() throws {
        var out: [UInt8] = []
        let event = HIGAuditCore.Event(
            ts: 1_795_197_600_123, session: "s", payload: .touch(Touch(phase: .ended, target: "tab:Home", x: 12, y: 3.5)))
        ForeignLineEncoder.append(event, format: .otlp, to: &out)
        let line = String(decoding: out, as: UTF8.self)
        #expect(line.contains(#"{"key":"x","value":{"intValue":"12"}}"#))
        #expect(line.contains(#"{"key":"y","value":{"doubleValue":3.5}}"#))
        #expect(line.contains(#""timeUnixNano":"1795197600123000000""#))
        #expect(!line.contains("\n"))
    }
}
