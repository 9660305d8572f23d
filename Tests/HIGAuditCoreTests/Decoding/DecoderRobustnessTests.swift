import Testing
@testable import HIGAuditCore

/// Damaged input must come back as a verdict, never a crash; these walk many damaged lines.
@Suite struct DecoderRobustnessTests {
    static let lines = [
        #"{"ts":"2026-11-20T21:04:05.123Z","session":"s-7f3a9c","type":"touch","phase":"began","target":"tab:Library","input":"pencil","x":102.5,"y":88,"screen":"canvas","device":"ipad-42","app_version":"5.2.0","id":"e-918273"}"#,
        #"{"ts":1795208645123,"session":"sé\u00e9\ud83c\udfa8","type":"session.start","haptics_enabled":false,"extra":[{"a":null},-1.5e+3,true]}"#,
        #"{"ts":"2026-11-20T22:04:05.123456789+01:00","session":"s","type":"loading.start","id":"L","indicator":"none"}"#,
    ]

    @Test(arguments: lines)
    func everyProperPrefixIsMalformed(line: String) {
        let bytes = Array(line.utf8)
        var decoder = EventDecoder()
        guard case .event = bytes.withUnsafeBytes({ decoder.decode($0) }) else {
            Issue.record("the whole line must decode")
            return
        }
        for cut in 1..<bytes.count {
            let prefix = Array(bytes[..<cut])
            let result = prefix.withUnsafeBytes { decoder.decode($0) }
            guard case .malformed = result else {
                Issue.record("prefix of \(cut) bytes gave \(result)")
                continue
            }
        }
    }

    @Test(arguments: lines)
    func damagedBytesNeverCrash(line: String) {
        let bytes = Array(line.utf8)
        var decoder = EventDecoder()
        var generator = SplitMix64(seed: UInt64(bytes.count))
        let replacements: [UInt8] = [0x00, 0x09, 0x0A, 0x20, 0x22, 0x2C, 0x2D, 0x2E, 0x30, 0x3A, 0x5B, 0x5C, 0x5D,
                                     0x65, 0x75, 0x7B, 0x7D, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let position = Int(generator.next() % UInt64(damaged.count))
                damaged[position] = replacements[Int(generator.next() % UInt64(replacements.count))]
            }
            let first = damaged.withUnsafeBytes { decoder.decode($0) }
            // Same bytes, same verdict, also after the decoder has seen other lines.
            let again = damaged.withUnsafeBytes { decoder.decode($0) }
            #expect(first == again)
        }
    }
}

