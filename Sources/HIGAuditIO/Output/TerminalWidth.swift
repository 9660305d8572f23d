/// How many terminal columns text occupies, so that columns line up when cells hold CJK screen names or
/// accented text (a small `wcwidth`).
///
/// Measured per grapheme cluster (`Character`): East Asian wide and fullwidth characters and emoji take
/// two columns, combining marks and format characters none (they join the character before them), and a
/// cluster is as wide as its widest scalar (so `e` + U+0301 is one column, a ZWJ emoji sequence two).
/// Control characters never reach this: `TerminalTableWriter` makes them visible first.
public enum TerminalWidth {
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    public static func of(_ character: Character) -> Int {
        var width = 0
        var emojiPresentation = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0xFE0F { emojiPresentation = true }
            width = max(width, of(scalar))
        }
        return emojiPresentation && width > 0 ? 2 : width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt, coarsened to blocks.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18AFF, 0x1B000...0x1B2FF, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
