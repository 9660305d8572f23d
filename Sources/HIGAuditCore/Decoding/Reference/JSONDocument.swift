/// The RFC 8259 check every log line gets, for a whole file the tool reads beside its logs (the
/// `--baseline` file): Foundation's `JSONSerialization` reads more than JSON (a trailing comma), so
/// such a file is checked here first and only then handed to it.
public enum JSONDocument {
    /// Throws the first place where `bytes` stop being one JSON value with only whitespace around it;
    /// `column` is then a byte offset in the file.
    public static func validate(_ bytes: UnsafeRawBufferPointer) throws(MalformedLine) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw JSONError.unexpectedEnd(at: 0)
        }
        var scanner = JSONScanner(base: base, count: bytes.count)
        scanner.skipWhitespace()
        try scanner.skipValue(depth: 0)
        scanner.skipWhitespace()
        if scanner.pos < scanner.end { throw JSONError.trailingContent(base, at: scanner.pos, end: scanner.end) }
    }
}
