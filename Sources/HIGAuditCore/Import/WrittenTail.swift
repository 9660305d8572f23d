/// What `import` writes of a planned line after the event's type (`EventImporter.writePlanned`): the
/// rest of the envelope, the event's other members and the closing brace, as the text that is the same
/// on every line of the layout, broken by the values that are not (`steps`). Made once a plan
/// (`ConventionPlan`) from the members the general way writes (`EventImporter.writePending`), so that a
/// line is written as a few copies: the keys, their quotes and commas, and the values that are
/// constants of the layout (a `true`, a `null`) are bytes of `text`, not pieces put together anew on
/// every line.
///
/// The text before each step is `text` from where the previous step's ended to the step's `textEnd`;
/// after the last step, the rest of `text`.
struct WrittenTail {
    enum Form: UInt8 {
        /// The value's bytes as they stand in the line (a string's inside the quotes that `text` holds).
        case asItStands
        /// An OTLP `intValue`: its integer when it is one (`EventImporter.integerAttribute`), else its
        /// bytes as they stand, in quotes for a string.
        case intValue
        /// The device, app version or OS version of the record's resource (`RecordResource`), a string,
        /// with its key, when the resource has it: a plan that `takesResource` serves requests whose
        /// resources differ.
        case resourceDevice, resourceAppVersion, resourceOSVersion
    }

    struct Step {
        var textEnd: Int32
        var form: Form
        var value: ConventionPlan.Value
    }

    /// The text, followed in memory by `padding` bytes more, so that a piece of it can be copied as
    /// 32 bytes at once (`ImportedLineWriter.Cursor.bytes(padded:count:)`).
    var text: UnsafeMutableBufferPointer<UInt8>
    var steps: UnsafeMutableBufferPointer<Step>

    static var padding: Int { 32 }

    static var empty: WrittenTail { WrittenTailBuilder.kept(text: [], steps: []) }

    func deallocate() {
        // The whole allocation, padding and all.
        text.baseAddress?.deallocate()
        steps.deallocate()
    }
}

/// Puts a `WrittenTail` together, member by member in the order they are written.
struct WrittenTailBuilder {
    /// The type's closing quote opens it: the tail follows the type's text.
    private var text: [UInt8] = [UInt8(ascii: "\"")]
    private var steps: [WrittenTail.Step] = []

    /// A member named `key` (bytes as they are written, escapes kept) whose value is `value` in the
    /// line; `constant` is its bytes when they are the same on every line of the layout (a value that
    /// is no slot and holds none), which then go into the text.
    mutating func member(key: UnsafeBufferPointer<UInt8>, _ value: ConventionPlan.Value, constant: [UInt8]? = nil, isIntValue: Bool = false) {
        text.append(UInt8(ascii: ","))
        text.append(UInt8(ascii: "\""))
        text.append(contentsOf: key)
        text.append(UInt8(ascii: "\""))
        text.append(UInt8(ascii: ":"))
        if isIntValue {
            step(.intValue, value)
        } else if let constant {
            text.append(contentsOf: constant)
        } else if value.kind == .string {
            text.append(UInt8(ascii: "\""))
            step(.asItStands, value)
            text.append(UInt8(ascii: "\""))
        } else {
            step(.asItStands, value)
        }
    }

    mutating func member(key: StaticString, _ value: ConventionPlan.Value) {
        member(key: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), value)
    }

    /// One of the resource's values (`WrittenTail.Form.resourceDevice` and the next two).
    mutating func resource(_ form: WrittenTail.Form) {
        step(form, ConventionPlan.Value(slot: -1, kind: .string, start: 0, end: 0, slotsBeforeStart: 0, slotsBeforeEnd: 0))
    }

    private mutating func step(_ form: WrittenTail.Form, _ value: ConventionPlan.Value) {
        steps.append(WrittenTail.Step(textEnd: Int32(text.count), form: form, value: value))
    }

    /// The tail, closed by the line's brace.
    mutating func finished() -> WrittenTail {
        text.append(UInt8(ascii: "}"))
        return Self.kept(text: text, steps: steps)
    }

    static func kept(text: [UInt8], steps: [WrittenTail.Step]) -> WrittenTail {
        let padded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count &+ WrittenTail.padding)
        _ = padded.initialize(from: text + repeatElement(0, count: WrittenTail.padding))
        let keptSteps = UnsafeMutableBufferPointer<WrittenTail.Step>.allocate(capacity: steps.count)
        _ = keptSteps.initialize(from: steps)
        return WrittenTail(text: UnsafeMutableBufferPointer(rebasing: padded[..<text.count]), steps: keptSteps)
    }
}
