import Testing
@testable import HIGAuditCore

/// A planned line's tail (`WrittenTail`): the bytes the same on every line of a layout are one text,
/// broken only where a value varies, and a constant value of the layout (a `true`) is part of the text.
@Suite struct WrittenTailTests {
    static func slot(_ slot: Int32, _ kind: FieldValue.Kind) -> ConventionPlan.Value {
        ConventionPlan.Value(slot: slot, kind: kind, start: 0, end: 0, slotsBeforeStart: 0, slotsBeforeEnd: 0)
    }

    static func texts(_ tail: WrittenTail) -> [String] {
        var from = 0
        var pieces: [String] = []
        for step in tail.steps {
            pieces.append(String(decoding: tail.text[from..<Int(step.textEnd)], as: UTF8.self))
            from = Int(step.textEnd)
        }
        pieces.append(String(decoding: tail.text[from...], as: UTF8.self))
        return pieces
    }

    @Test func constantsJoinTheTextAndVaryingValuesBreakIt() {
        var builder = WrittenTailBuilder()
        builder.member(key: "device", Self.slot(0, .string))
        let ok = Array("ok".utf8), duration = Array("duration_ms".utf8), count = Array("count".utf8)
        ok.withUnsafeBufferPointer {
            builder.member(key: $0, ConventionPlan.Value(slot: -1, kind: .true, start: 40, end: 44, slotsBeforeStart: 1, slotsBeforeEnd: 1),
                           constant: Array("true".utf8))
        }
        duration.withUnsafeBufferPointer { builder.member(key: $0, Self.slot(1, .number)) }
        count.withUnsafeBufferPointer { builder.member(key: $0, Self.slot(2, .string), isIntValue: true) }
        let tail = builder.finished()
        defer { tail.deallocate() }
        #expect(Self.texts(tail) == [#"","device":""#, #"","ok":true,"duration_ms":"#, #","count":"#, "}"])
        #expect(tail.steps.map(\.form) == [.asItStands, .asItStands, .intValue])
        #expect(tail.steps.map(\.value.slot) == [0, 1, 2])
    }

    @Test func aResourcesValuesAreStepsWithTheirKeys() {
        var builder = WrittenTailBuilder()
        builder.resource(.resourceDevice)
        builder.resource(.resourceAppVersion)
        builder.resource(.resourceOSVersion)
        builder.member(key: "screen", Self.slot(3, .string))
        let tail = builder.finished()
        defer { tail.deallocate() }
        #expect(Self.texts(tail) == [#"""#, "", "", #","screen":""#, #""}"#])
        #expect(tail.steps.map(\.form) == [.resourceDevice, .resourceAppVersion, .resourceOSVersion, .asItStands])
    }
}
