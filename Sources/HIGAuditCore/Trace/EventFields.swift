/// A value of one of an event's type-specific fields, as `show` prints it.
public enum EventFieldValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)

    /// The value as `name=value` text shows it: numbers without a needless `.0`.
    public var plainText: String {
        switch self {
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }
}

extension Event {
    /// The fields that matter for the event's type (SPEC §2 "Event types"), by their wire names, in
    /// the schema's order (`EventSchema`, the SPEC's): what `show` prints beside the type. Defaults the
    /// log left out are shown as the engine read them (a `touch` without `input` is a finger), except
    /// where the schema says the default is the common case not worth showing (a finger `input`).
    ///
    /// Read from the payload itself (`EventPayload.valuesByKey`), so a new type needs nothing here.
    public var typeFields: [(name: String, value: EventFieldValue)] {
        let values = payload.valuesByKey
        return EventSchema.types[Int(kind.rawValue)].fields.compactMap { entry in
            let name = entry.field.key.description
            guard let value = values[name] else { return nil }
            if !entry.showsDefault, case .defaulted(let defaultValue) = entry.presence, value.plainText == defaultValue {
                return nil
            }
            return (name, value)
        }
    }

    /// `typeFields` as one line of text: `name=value` pairs separated by spaces.
    public var typeFieldsText: String {
        typeFields.map { "\($0.name)=\($0.value.plainText)" }.joined(separator: " ")
    }
}

extension EventPayload {
    /// The payload's values by the wire keys of its fields, absent optionals left out: read by
    /// reflection from its case's associated values (or the properties of the one struct it holds),
    /// whose labels are the keys in camel case (`durationMs` is `duration_ms`); a case holding one
    /// unlabelled value holds its type's one field. `EventSchemaTests` checks every type's labels
    /// against its schema entry, so a label that is not a key fails there. For `show`, off the hot path.
    var valuesByKey: [String: EventFieldValue] {
        guard let associated = Mirror(reflecting: self).children.first?.value else { return [:] }
        var values: [String: EventFieldValue] = [:]
        let mirror = Mirror(reflecting: associated)
        if mirror.displayStyle == .tuple || mirror.displayStyle == .struct {
            for child in mirror.children {
                guard let label = child.label, let value = Self.fieldValue(child.value) else { continue }
                values[Self.wireKey(label)] = value
            }
        } else if let only = EventSchema.types[Int(kind.rawValue)].fields.first,
            EventSchema.types[Int(kind.rawValue)].fields.count == 1, let value = Self.fieldValue(associated)
        {
            values[only.field.key.description] = value
        }
        return values
    }

    /// `durationMs` → `duration_ms`.
    static func wireKey(_ label: String) -> String {
        var key = ""
        for character in label {
            if character.isUppercase {
                key += "_" + character.lowercased()
            } else {
                key.append(character)
            }
        }
        return key
    }

    /// A value as `show` prints it: nil for an absent optional, or a value of no field type.
    private static func fieldValue(_ value: Any) -> EventFieldValue? {
        switch value {
        case let text as String: return .text(text)
        case let number as Double: return .number(number)
        case let flag as Bool: return .flag(flag)
        case let wire as any WireTextConvertible: return .text(wire.wireText)
        case let enumerated as any RawRepresentable<String>: return .text(enumerated.rawValue)
        default:
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return nil }
            return mirror.children.first.flatMap { fieldValue($0.value) }
        }
    }
}

/// A field value whose wire text is not a raw value (a double-tap's `custom:<name>`).
protocol WireTextConvertible {
    var wireText: String { get }
}

extension PencilTapAction: WireTextConvertible {
    var wireText: String { wireValue }
}
