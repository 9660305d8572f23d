import HIGAuditCore

/// `show --format json`: one object for the session, with one object per event, each with its
/// `disposition` and a `violations` array. The accepted events come first, in the order the rules saw
/// them, then the late and duplicate ones in input order.
public enum SessionTraceJSON {
    public static func render(_ trace: SessionTrace, sources: SourceFileTable) -> String {
        let report = trace.report
        var text = "{\n"
        text += "\"session\": \(JSONWriter.string(trace.session)),\n"
        text += "\"device\": \(JSONWriter.string(report?.device ?? "")),\n"
        text += "\"app_version\": \(JSONWriter.string(report?.appVersion ?? "")),\n"
        text += "\"events\": ["
        let entries = trace.accepted + trace.notAccepted
        for (index, entry) in entries.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += object(entry, trace: trace, sources: sources)
        }
        text += entries.isEmpty ? "]\n}\n" : "\n]\n}\n"
        return text
    }

    private static func object(_ entry: SessionTrace.Entry, trace: SessionTrace, sources: SourceFileTable) -> String {
        let event = entry.event
        var fields = "{"
        for (index, field) in event.typeFields.enumerated() {
            if index > 0 { fields += "," }
            fields += JSONWriter.string(field.name) + ":" + value(field.value)
        }
        fields += "}"
        let violations = entry.violations.map { violation in
            "{\"rule\":\(JSONWriter.string(violation.rule)),\"severity\":\(JSONWriter.string(violation.severity.rawValue))"
                + ",\"screen\":\(JSONWriter.string(violation.screen))"
                + ",\"start_ts\":\(JSONWriter.string(TimestampFormatter.rfc3339(violation.startTs)))"
                + ",\"end_ts\":\(JSONWriter.string(TimestampFormatter.rfc3339(violation.endTs)))"
                + ",\"count\":\(violation.count),\"detail\":\(JSONWriter.string(violation.detail))"
                + (trace.suppression.hasEntries ? ",\"suppressed\":\(trace.isSuppressed(violation))" : "")
                + ",\"source\":\(JSONWriter.string(sources.describe(violation.source)))}"
        }
        let reason = trace.reason(for: entry, sources: sources).map(JSONWriter.string) ?? "null"
        return "{\"ts\":\(JSONWriter.string(TimestampFormatter.rfc3339(event.ts)))"
            + ",\"type\":\(JSONWriter.string(event.kind.wireName))"
            + ",\"screen\":\(event.screen.map(JSONWriter.string) ?? "null")"
            + ",\"id\":\(event.id.map(JSONWriter.string) ?? "null")"
            + ",\"fields\":\(fields)"
            + ",\"source\":\(JSONWriter.string(sources.describe(event.source)))"
            + ",\"disposition\":\(JSONWriter.string(entry.disposition.label)),\"reason\":\(reason)"
            + ",\"violations\":[\(violations.joined(separator: ","))]}"
    }

    private static func value(_ value: EventFieldValue) -> String {
        switch value {
        case .text(let text): JSONWriter.string(text)
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number): number.isFinite ? value.plainText : "null"
        }
    }
}
