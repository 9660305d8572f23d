import Testing
@testable import HIGAuditCore

/// `JSONScanner.scanStringBody` reads sixteen bytes at a time (inline for a short plain string, then
/// in its loop), eight at a time, then byte by byte near the end of the line. Most test documents are
/// short, so the wide paths would rarely see a string with sixteen bytes after it; here strings get
/// tails of every length, and the answer (where the string ends and whether it has escapes, or that it
/// is malformed) must be that of a byte-by-byte reading of RFC 8259 and RFC 3629 written here.
@Suite struct StringScanPathTests {
    /// Pieces with every kind of byte the scan treats specially.
    private static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("tab:Library".utf8), Array("\"".utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8),
        Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8), Array(#"\ud83d"#.utf8),
        Array(#"\x"#.utf8), Array("\\".utf8), [0x01], [0x1F], [0x7F], [0x09], Array("é".utf8), Array("😀".utf8),
        [0xC3], [0xFF], [0x80], [0x8F], [0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ]

    @Test func everyPathReadsRandomStringsAsAByteByByteReadingDoes() {
        var random = SplitMix64(seed: 20261123)
        for _ in 0..<20_000 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                body += Self.pieces.randomElement(using: &random)!
            }
            let tail = Array(#"","screen":"canvas.editor"}"#.utf8).prefix(Int.random(in: 0...27, using: &random))
            let line = [0x22] + body + tail
            let expected = Self.reference(line)
            #expect(scan(line, inline: true).agrees(with: expected), "\(line)")
            #expect(scan(line, inline: false).agrees(with: expected), "\(line)")
        }
    }

    /// Near the end of a line the member loop tries a byte-by-byte reading of a plain string first: it
    /// finds the closing quote of every plain ASCII string, and otherwise nothing (the scan decides).
    @Test func thePlainReadingNearTheEndFindsPlainStringsOnly() {
        var random = SplitMix64(seed: 30)
        var found = 0
        for _ in 0..<20_000 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                body += Self.pieces.randomElement(using: &random)!
            }
            let line = [0x22] + body + Array(#""}"#.utf8).prefix(Int.random(in: 0...2, using: &random))
            let expected = Self.reference(line)
            let plainASCII = expected.map { !$0.escaped && line[1..<($0.end - 1)].allSatisfy { $0 < 0x80 } } ?? false
            let quote = line.withUnsafeBufferPointer {
                JSONScanner.plainStringEndNearTheEnd($0.baseAddress!, from: 1, end: $0.count)
            }
            #expect(quote == (plainASCII ? expected!.end - 1 : nil), "\(line)")
            if quote != nil { found += 1 }
        }
        #expect(found > 1_000)
    }

    /// The learned shapes read the `ts` of Python's writers (32 plain bytes) and of System.Text.Json's
    /// (its offset's sign escaped, `\u002B`) without the scanner's loop: what that reading finds is
    /// what a byte-by-byte reading finds (the closing quote, and whether the string has escapes), and it
    /// finds both writers' timestamps; any other string it leaves to the loop.
    @Test func theReadingOfLongerOrSignEscapedStringsFindsOnlyWhatTheLoopFinds() {
        let pieces: [[UInt8]] = Self.pieces + [
            Array(#"\u002B"#.utf8), Array(#"\u002b"#.utf8), Array(#"\u002D"#.utf8), Array(#"\u002d"#.utf8),
            Array(#"\u002C"#.utf8), Array(#"\u0042"#.utf8), Array(#"\u002"#.utf8), Array(#"\u00"#.utf8),
            Array("2026-11-20T23:30:01.759".utf8), Array("05:30".utf8), Array("2026-11-20T18:00:00.003000+00:00".utf8),
        ]
        // Plain pieces too, alone or around one sign, so that both kinds the reading finds are common.
        let plain: [[UInt8]] = [
            Array("a".utf8), Array("tab:Library".utf8), Array("2026-11-20T23:30:01.759".utf8), Array("05:30".utf8),
            Array("2026-11-20T18:00:00.003000+00:00".utf8),
        ]
        let signs: [[UInt8]] = [Array(#"\u002B"#.utf8), Array(#"\u002d"#.utf8)]
        var random = SplitMix64(seed: 20261130)
        var found = (plain: 0, escaped: 0)
        for round in 0..<40_000 {
            var body: [UInt8] = []
            for piece in 0..<Int.random(in: 0...4, using: &random) {
                switch round % 3 {
                case 0: body += pieces.randomElement(using: &random)!
                case 1: body += plain.randomElement(using: &random)!
                default: body += piece == 1 ? signs.randomElement(using: &random)! : plain.randomElement(using: &random)!
                }
            }
            let tail = Array(#"","type":"nav.tab_switch","session":"16a07176dc4925a7"}"#.utf8)
                .prefix(Int.random(in: 0...52, using: &random))
            let line = [0x22] + body + tail
            let expected = Self.reference(line)
            let read = line.withUnsafeBufferPointer {
                JSONScanner.plainOrSignEscapedStringEnd($0.baseAddress!, from: 1, end: $0.count)
            }
            if let read {
                if read.escaped { found.escaped += 1 } else { found.plain += 1 }
                #expect(expected.map { $0 == (read.quote + 1, read.escaped) } ?? false, "\(line)")
            }
        }
        #expect(found.plain > 500 && found.escaped > 500, "\(found)")
        for ts in [#""2026-11-20T23:30:01.759\u002B05:30","type":"app.ready","id":"e3"}"#,
                   #""2026-11-20T16:30:01.7\u002d02:00","type":"app.ready","id":"e3"}"#,
                   #""2026-11-20T18:00:00.003000+00:00", "session": "ca69deb30f1812d6"}"#] {
            let line = Array(ts.utf8)
            let read = line.withUnsafeBufferPointer {
                JSONScanner.plainOrSignEscapedStringEnd($0.baseAddress!, from: 1, end: $0.count)
            }
            let expected = Self.reference(line)
            #expect(read != nil && expected.map { $0 == (read!.quote + 1, read!.escaped) } == true, "\(ts)")
        }
    }

    /// `lanes` is `pmovmskb` on x86-64; the portable multiplication other CPUs use must give the same
    /// bits, lane 0 lowest, for any mask.
    @Test func portableLaneMaskMatchesTheNativeOne() {
        var random = SplitMix64(seed: 16)
        for round in 0..<4_096 {
            let bits = round < 16 ? UInt16(1) << UInt16(round) : UInt16.random(in: .min ... .max, using: &random)
            var lanes = SIMD16<Int8>(repeating: 0)
            for lane in 0..<16 where bits & (1 << UInt16(lane)) != 0 { lanes[lane] = 1 }
            let mask = lanes .== SIMD16(repeating: 1)
            #expect(JSONScanner.lanes(mask) == bits)
            #expect(JSONScanner.portableLanes(mask) == bits)
        }
    }

    @Test func aPlainShortStringWithALongTailEndsAtItsQuote() {
        let line = Array(#""tab:Library","screen":"canvas.editor"}"#.utf8)
        #expect(scan(line, inline: true) == .ended(at: 13, escaped: false))
    }

    private enum Outcome: Equatable {
        case ended(at: Int, escaped: Bool)
        case failed(MalformedLine)

        func agrees(with reference: (end: Int, escaped: Bool)?) -> Bool {
            switch self {
            case .ended(let end, let escaped): reference.map { $0 == (end, escaped) } ?? false
            case .failed: reference == nil
            }
        }
    }

    /// The string opening at byte 0, read one byte at a time: where it ends (after the closing quote)
    /// and whether it has escapes, or nil when it is not a valid JSON string.
    private static func reference(_ line: [UInt8]) -> (end: Int, escaped: Bool)? {
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= line.count else { return nil }
            return UInt32(String(decoding: line[at..<at + 4], as: UTF8.self), radix: 16)
                .flatMap { line[at..<at + 4].allSatisfy { $0 != 0x2B && $0 != 0x2D } ? $0 : nil }
        }
        var i = 1
        var escaped = false
        while i < line.count {
            let byte = line[i]
            switch byte {
            case 0x22:
                return (i + 1, escaped)
            case 0x5C:
                escaped = true
                guard i + 1 < line.count else { return nil }
                switch line[i + 1] {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
                    i += 2
                case 0x75:
                    guard let unit = hex4(i + 2) else { return nil }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard i + 7 < line.count, line[i + 6] == 0x5C, line[i + 7] == 0x75,
                              let low = hex4(i + 8), (0xDC00...0xDFFF).contains(low) else { return nil }
                        i += 12
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        return nil
                    } else {
                        i += 6
                    }
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            case 0x20..<0x80:
                i += 1
            default:
                var bytes = line[i...].makeIterator()
                var decoder = UTF8()
                guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return nil }
                i += UTF8.width(scalar)
            }
        }
        return nil
    }

    /// Scans the string whose opening quote is the line's first byte.
    private func scan(_ line: [UInt8], inline: Bool) -> Outcome {
        line.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(base: buffer.baseAddress!, count: buffer.count)
            scanner.pos = 1
            do throws(MalformedLine) {
                let escaped = inline ? try scanner.scanStringBody() : try scanner.scanStringBodyLoop()
                return .ended(at: scanner.pos, escaped: escaped)
            } catch {
                return .failed(error)
            }
        }
    }
}
