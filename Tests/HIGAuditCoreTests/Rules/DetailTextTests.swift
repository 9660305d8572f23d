import Testing
@testable import HIGAuditCore

/// `DetailText` writes exactly what `String`'s interpolation writes for the same literal and values.
@Suite struct DetailTextTests {
    private enum Style { case sheet, fullScreen }

    private static let texts = [
        "", "a", "tab:Library", "canvas.editor", "é-target", "日本語のタブ", "emoji 🧑‍🎨 and more", "quote \" and \\",
        String(repeating: "long-screen-name/", count: 20), "\u{0301}combining first", "nul\u{0}inside",
    ]

    @Test func textsAndIntegersAsStringInterpolationWritesThem() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let a = Self.texts[Int(random.next() % UInt64(Self.texts.count))]
            let b = Self.texts[Int(random.next() % UInt64(Self.texts.count))]
            let int = Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64)
            let long = Int64(truncatingIfNeeded: random.next()) >> Int64(random.next() % 64)
            #expect(
                DetailText("\(a) modal \(b) at depth \(int) (at most \(long))").string
                    == "\(a) modal \(b) at depth \(int) (at most \(long))")
            #expect(DetailText("\(int)\(a)\(long)").string == "\(int)\(a)\(long)")
        }
        for value in [Int.min, Int.max, 0, -1, 9, 10, -10, 99, 100] {
            #expect(DetailText("n=\(value)").string == "n=\(value)")
            #expect(DetailText("n=\(Int64(value))").string == "n=\(Int64(value))")
        }
    }

    @Test func otherValuesAsTheirDescription() {
        let optional: String? = "x"
        let none: Int? = nil
        let style = Style.fullScreen
        let fraction = 12.5
        let small: Int32 = -7
        let substring = "tab:Library".dropFirst(4)
        #expect(DetailText("\(style) \(fraction) \(small) \(substring)").string == "\(style) \(fraction) \(small) \(substring)")
        #expect(DetailText("\(String(describing: optional)) \(String(describing: none))").string == "Optional(\"x\") nil")
        #expect(DetailText("plain literal").string == "plain literal")
        #expect(DetailText("").string == "")
    }
}
