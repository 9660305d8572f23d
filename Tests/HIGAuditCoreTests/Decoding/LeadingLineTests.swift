import Testing
@testable import HIGAuditCore

/// `EventDecoder.decodeLeadingLine`: a line decoded before its end is known must end exactly where the
/// line splitter would cut it and get the verdict `decode` gives the cut line; when it declines, `decode`
/// of the line (at the same bytes, or at a copy when the try saw only part of it) must still be right.
@Suite struct LeadingLineTests {
    @Test func leadingLinesEndWhereTheSplitterCutsAndDecodeAsWholeLines() {
        var random = SplitMix64(seed: 4242)
        let stream = Self.stream(lines: 20_000, using: &random)
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        var taken = 0
        var takenBeforeCRLF = 0
        var declined = 0
        stream.forEachSplitLine { line in
            let expected = general.decode(line.bytes)
            // Mostly the rest of the stream; sometimes cut inside the line or its terminator, as at
            // the end of a decompressed block.
            let rest = line.restOfStream
            let cut = random.next() % 8 == 0
            let readable = cut ? min(rest, Int(random.next() % UInt64(line.newline - line.start + 2))) : rest
            var event: Event?
            if let (length, verdict) = learning.decodeLeadingLine(
                line.head, readable: readable, source: .unknown, accept: { event = $0 }) {
                #expect(length == line.end - line.start, "\(line.text)")
                #expect(Self.decoded(verdict, event) == expected, "\(line.text)")
                taken += 1
                if line.end < line.newline { takenBeforeCRLF += 1 }
            } else {
                // The splitter delivers a line it saw whole where it lies, and copies a cut one.
                let actual = cut ? Array(line.bytes).withUnsafeBytes { learning.decode($0) } : learning.decode(line.bytes)
                #expect(actual == expected, "\(line.text)")
                declined += 1
            }
        }
        // Many lines must have been taken, CRLF ones among them, and some declined. (These streams are
        // hard on shapes on purpose: about half their lines match one at all, see `LineShapeTests`.)
        #expect(taken > 6_000 && takenBeforeCRLF > 800 && declined > 1_000, "\(taken) \(takenBeforeCRLF) \(declined)")
    }

    /// A line never reaches past what may be read, nor past its terminator.
    @Test func aLineIsTakenOnlyWithItsTerminatorInView() {
        let line = #"{"ts":1795208645123,"session":"s1","type":"touch","id":"e1","phase":"moved","x":1,"y":2}"#
        var decoder = EventDecoder(learnsLineShapes: true)
        for index in 0..<4 {
            // Learn the shape, then match lines with new values.
            _ = decoder.decode(line.replacingOccurrences(of: "e1", with: "e\(index)"))
        }
        func take(_ text: String, readable: Int? = nil) -> Int? {
            var bytes = Array(text.utf8)
            return bytes.withUnsafeMutableBytes { buffer in
                decoder.decodeLeadingLine(
                    buffer.baseAddress!, readable: readable ?? buffer.count, source: .unknown, accept: { _ in })?.length
            }
        }
        let next = line.replacingOccurrences(of: "e1", with: "e77")
        let length = next.utf8.count
        #expect(take(next + "\n") == length)
        #expect(take(next + "\r\n") == length)
        #expect(take(next + "\n{\"other\":1}\n") == length)
        #expect(take(next) == nil)
        #expect(take(next + "\r") == nil)
        #expect(take(next + "\r\n", readable: length + 1) == nil)
        #expect(take(next + "\n", readable: length) == nil)
        // The splitter strips one `\r`: this line is the shape plus a `\r`, which the shape lacks.
        #expect(take(next + "\r\r\n") == nil)
        #expect(take(next + " \n") == nil)
        #expect(take("\n" + next + "\n") == nil)
    }

    private static func decoded(_ verdict: LineVerdict, _ event: Event?) -> DecodedLine {
        switch verdict {
        case .blank: .blank
        case .event: event.map { .event($0) } ?? .blank
        case .unknownType(let name): .unknownType(name)
        case .malformed(let problem): .malformed(problem)
        }
    }

    /// Touch-stream lines, some damaged (a `\n` inserted among the damage), ended by `\n`, `\r\n`,
    /// `\r\r\n` or a blank line, some with trailing spaces.
    private static func stream(lines: Int, using random: inout SplitMix64) -> [UInt8] {
        var stream: [UInt8] = []
        for _ in 0..<lines {
            var line = Array(LineShapeTests.touchStreamLine(using: &random).utf8)
            if random.next() % 100 < 4 { line = LineShapeTests.damaged(line, using: &random) }
            if random.next() % 100 < 2 { line += [0x20, 0x20] }
            stream += line
            switch random.next() % 12 {
            case 0, 1: stream += [0x0D, 0x0A]
            case 2: stream += [0x0D, 0x0D, 0x0A]
            case 3: stream += [0x0A, 0x0A]
            default: stream += [0x0A]
            }
        }
        return stream
    }
}
