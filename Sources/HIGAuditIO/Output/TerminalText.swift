/// Text from log data or from the file system made safe to show on a terminal: every character a
/// terminal (or a bidirectional-text renderer) would act on instead of showing, written out as an
/// escape (`\n`, `\r`, `\t`, `\u{1B}`, `\u{202E}`), so that a file name or a screen id can neither
/// move the cursor, clear the screen, switch the character set, nor reverse the text around it.
public enum TerminalText {
    /// The text with every hidden character written out, line breaks included: for one value.
    public static func visible(_ text: String) -> String {
        escaping(text) { isHidden($0) }
    }

    /// The text with every hidden character but the line feed written out: for a whole message, whose
    /// own line breaks are meant (values inside it go through `visible` first).
    public static func visibleKeepingLineBreaks(_ text: String) -> String {
        escaping(text) { $0 != "\n" && isHidden($0) }
    }

    /// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
    /// embedding, override and isolate controls.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F..<0xA0).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    private static func escaping(_ text: String, _ hides: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: hides) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard hides(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }
}
