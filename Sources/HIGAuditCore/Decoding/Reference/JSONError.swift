/// The reasons a line is not valid JSON, worded for the person who has to find the bad byte.
///
/// Built only on the failure path, so the scanner's happy path never touches a `String`.
enum JSONError {
    static func unexpectedEnd(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: unexpected end of line", column: column)
    }

    static func unterminatedString(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: unterminated string", column: column)
    }

    static func controlCharacter(_ byte: UInt8, at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: unescaped control character \(hex(byte)) in string", column: column)
    }

    static func invalidEscape(_ byte: UInt8, at column: Int) -> MalformedLine {
        let shown = byte >= 0x21 && byte < 0x7F ? "'\\\(Character(Unicode.Scalar(byte)))'" : "before \(hex(byte))"
        return MalformedLine(reason: "invalid JSON: invalid escape \(shown)", column: column)
    }

    static func invalidUnicodeEscape(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: \\u must be followed by four hex digits", column: column)
    }

    static func loneSurrogate(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: lone surrogate in \\u escape", column: column)
    }

    static func invalidUTF8(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid UTF-8", column: column)
    }

    static func leadingZero(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: leading zero in number", column: column)
    }

    static func digitExpected(at column: Int) -> MalformedLine {
        MalformedLine(reason: "invalid JSON: digit expected in number", column: column)
    }

    static func tooDeep(at column: Int) -> MalformedLine {
        MalformedLine(reason: "nesting deeper than \(JSONScanner.maxNestingDepth)", column: column)
    }

    static func trailingContent(_ base: UnsafePointer<UInt8>, at column: Int, end: Int) -> MalformedLine {
        var error = unexpected(base, at: column, end: end)
        if error.reason.hasPrefix("invalid JSON: unexpected") { error.reason += " after the value" }
        return error
    }

    /// A byte that cannot start or continue what the grammar expects at `column`.
    static func unexpected(_ base: UnsafePointer<UInt8>, at column: Int, end: Int) -> MalformedLine {
        let byte = base[column]
        let reason: String
        if byte >= 0x80 {
            if byte == 0xEF, column + 2 < end, base[column + 1] == 0xBB, base[column + 2] == 0xBF {
                reason = "invalid JSON: unexpected byte order mark"
            } else if JSONScanner.utf8SequenceEnd(base, at: column, end: end) == nil {
                reason = "invalid UTF-8"
            } else {
                reason = "invalid JSON: unexpected non-ASCII character"
            }
        } else if byte >= 0x20 && byte < 0x7F {
            reason = "invalid JSON: unexpected '\(Character(Unicode.Scalar(byte)))'"
        } else {
            reason = "invalid JSON: unexpected byte \(hex(byte))"
        }
        return MalformedLine(reason: reason, column: column)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }
}
