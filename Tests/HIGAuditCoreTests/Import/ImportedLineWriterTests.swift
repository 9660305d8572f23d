import Testing
@testable import HIGAuditCore

/// The line `import` writes is read back by our own decoder and by anyone's JSON parser: integers at
/// both ends of `Int64`, texts with every escape, and lines longer than the writer's first buffer must
/// come out as valid JSON that says what was given.
@Suite struct ImportedLineWriterTests {
    static func text(_ writer: ImportedLineWriter) -> String { String(decoding: writer.bytes, as: UTF8.self) }

    @Test func integersAtEveryLengthAndBothEnds() {
        let values: [Int64] = [0, 7, -7, 10, 99, 100, -100, 1_795_197_622_277, .max, .min, .min + 1]
        for value in values {
            let writer = ImportedLineWriter()
            writer.begin()
            writer.integer("ts", value)
            writer.end()
            #expect(Self.text(writer) == "{\"ts\":\(value)}")
        }
    }

    @Test func textsAreEscapedAsJSONWantsThem() {
        let writer = ImportedLineWriter()
        writer.begin()
        writer.string("target", "a\"b\\c\nd\re\tf\u{01}g\u{1F}h é")
        writer.bool("synthetic", true)
        writer.end()
        #expect(Self.text(writer) == #"{"target":"a\"b\\c\nd\re\tf\u0001g\u001fh é","synthetic":true}"#)
    }

    @Test func aLineLongerThanTheFirstBufferKeepsEveryByte() {
        let long = String(repeating: "x", count: 5_000)
        let writer = ImportedLineWriter()
        for _ in 0..<3 {
            writer.begin()
            writer.string("screen", "s")
            writer.string("target", long)
            writer.number("x", 1.5)
            writer.number("y", 2)
            writer.end()
            #expect(Self.text(writer) == "{\"screen\":\"s\",\"target\":\"\(long)\",\"x\":1.5,\"y\":2}")
        }
    }

    @Test func aSessionsLaunchIsAddedInsideItsQuotes() {
        let writer = ImportedLineWriter()
        writer.begin()
        writer.string("session", "abc")
        writer.dropLastByte()
        writer.appendRawBytes("#2")
        writer.appendRawBytes("\"")
        writer.end()
        #expect(Self.text(writer) == #"{"session":"abc#2"}"#)
    }
}
