import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// A file read as plain text that is gzip data or UTF-16 text gives nothing but malformed lines; the
/// run says once, before them, what the file is.
@Suite struct ForeignFormatTests {
    static func sniff(_ bytes: [UInt8]) -> ForeignFormat? {
        bytes.withUnsafeBytes { ForeignFormat.sniff($0.baseAddress!, count: $0.count) }
    }

    @Test func signaturesAreKnownAndNDJSONIsNot() {
        #expect(Self.sniff([0x1F, 0x8B, 0x08, 0x00]) == .gzip)
        #expect(Self.sniff(Array("BZh9".utf8)) == .bzip2)
        #expect(Self.sniff([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00]) == .xz)
        #expect(Self.sniff([0x04, 0x22, 0x4D, 0x18]) == .lz4)
        #expect(Self.sniff([0x50, 0x4B, 0x03, 0x04]) == .zip)
        #expect(Self.sniff([0xFF, 0xFE, 0x7B, 0x00]) == .utf16LittleEndian)
        #expect(Self.sniff([0x7B, 0x00, 0x22, 0x00]) == .utf16LittleEndian)
        #expect(Self.sniff([0xFE, 0xFF, 0x00, 0x7B]) == .utf16BigEndian)
        // UTF-16 without a byte order mark, starting with `{` or whitespace.
        for start: UInt8 in [0x7B, 0x5B, 0x20, 0x09, 0x0A, 0x0D] {
            #expect(Self.sniff([start, 0x00, 0x7B, 0x00]) == .utf16LittleEndian)
            #expect(Self.sniff([0x00, start, 0x00, 0x7B]) == .utf16BigEndian)
        }
        #expect(Self.sniff([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]) == .appleDouble)
        // A file of zero bytes (preallocated, never written) is none of these.
        #expect(Self.sniff([0x00, 0x00, 0x00, 0x00]) == nil)
        for ndjson in ["{\"ts\":1}", " {", "\t{", "\n{", "\r\n{", "\u{FEFF}{\"ts\"", "{}", "B", "[1,2]", "// comment", "BZhello"] {
            #expect(Self.sniff(Array(ndjson.utf8)) == nil, "\(ndjson)")
        }
        #expect(Self.sniff([0x1F]) == nil)
    }

    /// macOS leaves `._NAME` beside every file it copies to a volume without its metadata, under the
    /// log's own extension, so a directory's walk reads it.
    @Test func anAppleDoubleFileBesideALogIsNamedAsSuch() throws {
        let appleDouble: [UInt8] = [0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8)
            + [UInt8](repeating: 0, count: 4_000)
        let result = try InputFixtures.read(bytes: appleDouble)
        let notes = result.diagnostics.filter { $0.category == .notNDJSON }
        #expect(notes.count == 1)
        #expect(notes.first?.message.contains("AppleDouble metadata") == true, "\(notes)")
        #expect(notes.first?.message.contains("._") == true)
        #expect(result.diagnostics.first?.category == .notNDJSON)
    }

    @Test func aGzippedOrUTF16FileIsNamedOnceBeforeItsMalformedLines() throws {
        let line = #"{"ts":1,"session":"s","type":"session.end"}"# + "\n"
        let utf16: [UInt8] = [0xFF, 0xFE] + line.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x0A] + Array(line.utf8)
        let indented = (" " + line).utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let cases: [(bytes: [UInt8], words: String)] = [
            (gzip, "starts like gzip data"), (utf16, "is UTF-16 (little-endian) text"),
            (indented, "is UTF-16 (big-endian) text"),
        ]
        for (bytes, words) in cases {
            let result = try InputFixtures.read(bytes: bytes)
            #expect(result.diagnostics.first?.category == Diagnostic.Category.notNDJSON)
            #expect(result.diagnostics.first?.location == "input.zst")
            #expect(result.diagnostics.first?.message.contains(words) == true, "\(result.diagnostics)")
            #expect(result.diagnostics.filter { $0.category == .notNDJSON }.count == 1)
            // The lines are read as before: counted, and their faults are the decoder's to find.
            #expect(result.statistics.lines > 0)
            #expect(result.statistics.faults == 0)
        }
        let plain: [[UInt8]] = [Array(line.utf8), [0xEF, 0xBB, 0xBF] + Array(line.utf8), try InputFixtures.frame(line)]
        for plain in plain {
            #expect(try InputFixtures.read(bytes: plain).diagnostics.isEmpty)
        }
    }

    static func sniffFirstLine(_ line: String) -> ForeignFormat? {
        Array(line.utf8).withUnsafeBytes { ForeignFormat.sniffFirstLine($0) }
    }

    @Test func aFirstLineThatOpensAnArrayOrAnObjectAloneIsKnown() {
        for line in ["[", "  [", "[{\"ts\":1,\"session\":\"s\",\"type\":\"session.end\"},", "[]"] {
            #expect(Self.sniffFirstLine(line) == .jsonArray, "\(line)")
        }
        for line in ["{", "{  ", " {\r", "\t{\t"] {
            #expect(Self.sniffFirstLine(line) == .multilineJSON, "\(line)")
        }
        // NDJSON lines, malformed or not, are the decoder's to judge.
        for line in ["", "   ", "{\"ts\":1}", "{\"ts\":", "{ \"ts\"", "]", "// comment", "<html>"] {
            #expect(Self.sniffFirstLine(line) == nil, "\(line)")
        }
    }
}
