extension EventSchema {
    /// Every type's own fields as the Markdown table of `docs/log-format.md` "Event types", between its
    /// `markdownBegin` and `markdownEnd` lines: `LogFormatSchemaTests` fails when the document's table
    /// is not this one, and prints this one to paste.
    static var markdownTable: String {
        var rows = ["| type | field | value | required |", "| --- | --- | --- | --- |"]
        for kind in EventKind.allCases {
            let type = types[Int(kind.rawValue)]
            let name = "`\(type.wireName)`"
            if type.fields.isEmpty {
                rows.append("| \(name) | none of its own | | |")
            }
            for (index, field) in type.fields.enumerated() {
                rows.append(
                    "| \(index == 0 ? name : "") | `\(field.field.key)` | \(field.value.markdown) | \(field.presence.markdown) |")
            }
        }
        return rows.joined(separator: "\n")
    }

    static let markdownBegin = "<!-- generated from EventSchema.swift: begin -->"
    static let markdownEnd = "<!-- generated from EventSchema.swift: end -->"
}

extension FieldValueType {
    /// How the value column of the document's table reads.
    var markdown: String {
        switch self {
        case .timestamp: "RFC 3339 string or integer milliseconds"
        case .string: "string"
        case .nonEmptyString: "non-empty string"
        case .bool: "bool"
        case .number: "number"
        case .nonNegativeNumber: "number, not negative"
        case .oneOf(let values): values.map { "`\($0)`" }.joined(separator: ", ")
        case .oneOfOrCustom(let values): (values + ["custom:<name>"]).map { "`\($0)`" }.joined(separator: ", ")
        }
    }
}

extension FieldSchema.Presence {
    /// How the required column of the document's tables reads.
    var markdown: String {
        switch self {
        case .required: "yes"
        case .optional: "no"
        case .defaulted(let value): "no, default `\(value)`"
        }
    }
}
