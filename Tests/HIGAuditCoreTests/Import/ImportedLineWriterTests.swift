import Testing
@testable import HIGAuditCore

/// The line `import` writes is read back by our own decoder and by anyone's JSON parser: integers at
/// both ends of `Int64`, texts with every escape, and lines longer than the writer's first buffer must
/// come out as valid JSON that says what was given.
@Suite struct ImportedLineWriterTests {
    static func text(_ writer: ImportedLineWriter) -> String { String(decoding: writer.bytes, as: UTF8.self) }

    @Test func integersAtEveryLengthAndBothEnds() {
        var values: [Int64] = [0, 7, -7, 1_795_197_622_277, .max, .min, .min + 1]
        var power: Int64 = 10
        for _ in 1...18 {
            values += [power - 1, power, power + 1, -power, -(power - 1)]
            if power <= .max / 10 { power *= 10 }
        }
        for value in values {
            let writer = ImportedLineWriter()
            writer.begin()
            writer.integer("ts", value)
            writer.end()
            #expect(Self.text(writer) == "{\"ts\":\(value)}")
        }
    }

    /// The eight digits a number is written by (`Cursor.eightDigits`), at every boundary of their
    /// lanes and across the range.
    @Test func eightDigitsAreTheNumbersDigitsLeadingZerosAndAll() {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 10_001, 99_999_999, 12_345_678, 1_000_100]
        for _ in 0..<2_000 { values.append(UInt64.random(in: 0..<100_000_000, using: &generator)) }
        for value in values {
            let word = ImportedLineWriter.Cursor.eightDigits(value)
            let text = String(decoding: (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }, as: UTF8.self)
            let plain = String(value)
            #expect(text == String(repeating: "0", count: 8 - plain.count) + plain)
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

    /// Bytes copied as they stand, at every length a copy takes a different way for.
    @Test func rawBytesOfEveryShortLengthAreCopiedWhole() {
        let source = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let writer = ImportedLineWriter()
        for length in 0...source.count {
            source.withUnsafeBufferPointer { all in
                let raw = UnsafeBufferPointer(rebasing: all[0..<length])
                writer.begin()
                writer.value("k", raw: raw, quoted: true)
                writer.member(rawKey: raw, raw: raw, quoted: false)
                writer.member(rawKey: raw, integer: Int64(length))
                writer.end()
            }
            let text = String(decoding: source[0..<length], as: UTF8.self)
            #expect(Self.text(writer) == "{\"k\":\"\(text)\",\"\(text)\":\(text),\"\(text)\":\(length)}", "length \(length)")
        }
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
