/// What a log the reader cannot take may be instead: another compression, UTF-16 text, the metadata
/// file macOS writes beside a log it copies, or JSON laid out over several lines. Known by a file's name
/// in a directory (`InputResolver`), by its first bytes (`SourceReading`) or by its first line
/// (`sniffFirstLine`), so that the run says what the file is rather than only that its lines are
/// malformed.
enum ForeignFormat: Equatable {
    case gzip, bzip2, xz, lz4, lzma, brotli, zip, snappy
    /// zstd data under a name a directory's walk does not take (`.zstd`).
    case zstdNamedZstd
    case utf16LittleEndian, utf16BigEndian
    /// An AppleDouble file (`._NAME` beside `NAME`): the Finder's metadata of a file copied from a Mac
    /// to a volume that cannot hold it. It takes the log's name and extension, and holds no log.
    case appleDouble
    /// One JSON array of events (`[` then an object a line, each but the last followed by `,`): the
    /// objects that happen to stand alone on their lines are read, the others are malformed.
    case jsonArray
    /// Pretty-printed JSON: an object opened on a line of its own, its members on the lines after.
    case multilineJSON

    var name: String {
        switch self {
        case .gzip: "gzip"
        case .bzip2: "bzip2"
        case .xz: "xz"
        case .lz4: "LZ4"
        case .lzma: "LZMA"
        case .brotli: "Brotli"
        case .zip: "zip"
        case .snappy: "Snappy"
        case .zstdNamedZstd: "zstd"
        case .utf16LittleEndian: "UTF-16 (little-endian)"
        case .utf16BigEndian: "UTF-16 (big-endian)"
        case .appleDouble: "AppleDouble"
        case .jsonArray: "JSON array"
        case .multilineJSON: "multi-line JSON"
        }
    }

    /// The format whose signature the first `count` bytes at `bytes` carry, of those a log file is
    /// likely to be by mistake; nil for anything else. NDJSON starts with `{`, whitespace or a UTF-8
    /// byte order mark, none of which begins a signature here.
    static func sniff(_ bytes: UnsafeRawPointer, count: Int) -> ForeignFormat? {
        let b = bytes.assumingMemoryBound(to: UInt8.self)
        func starts(with signature: [UInt8]) -> Bool {
            count >= signature.count && signature.indices.allSatisfy { b[$0] == signature[$0] }
        }
        if starts(with: [0x1F, 0x8B]) { return .gzip }
        // `BZh` and the block size, `1` to `9`.
        if starts(with: [0x42, 0x5A, 0x68]), count > 3, (0x31...0x39).contains(b[3]) { return .bzip2 }
        if starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if starts(with: [0x04, 0x22, 0x4D, 0x18]) { return .lz4 }
        if starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if starts(with: [0x00, 0x05, 0x16, 0x07]) { return .appleDouble }
        if starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        // Without a byte order mark: `{` or `[`, or the whitespace JSON allows before them, and a zero
        // byte, in either order. UTF-8 text has no zero byte there.
        if count >= 2, isJSONStart(b[0]), b[1] == 0 { return .utf16LittleEndian }
        if count >= 2, b[0] == 0, isJSONStart(b[1]) { return .utf16BigEndian }
        return nil
    }

    /// The layout a file's first line shows, when that line is not an event: a JSON array's opening `[`
    /// (what `json.dump(events)` or `JSONEncoder` writes for a list), or an object's `{` alone on its
    /// line (a pretty-printer's). Nil for anything else: an NDJSON line, malformed or not, is the
    /// decoder's to judge.
    static func sniffFirstLine(_ line: UnsafeRawBufferPointer) -> ForeignFormat? {
        guard let first = line.firstIndex(where: { !isJSONWhitespace($0) }) else { return nil }
        if line[first] == UInt8(ascii: "[") { return .jsonArray }
        if line[first] == UInt8(ascii: "{"), line[(first + 1)...].allSatisfy(isJSONWhitespace) { return .multilineJSON }
        return nil
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `{`, `[` or the whitespace JSON allows before them.
    private static func isJSONStart(_ byte: UInt8) -> Bool {
        byte == 0x7B || byte == 0x5B || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// What the run says of a file that starts like this (its first bytes read as plain text, or its
    /// first line, plain or decompressed).
    var plainTextWarning: String {
        switch self {
        case .appleDouble:
            "the file is AppleDouble metadata that macOS writes beside a file it copies (its name starts "
                + "with ._), not a log: its bytes are read as malformed lines (delete such files, e.g. "
                + "with dot_clean on the Mac or find DIR -name '._*' -delete)"
        case .jsonArray:
            "the file is a JSON array of events, and a log holds one JSON object a line (NDJSON): an "
                + "object alone on its line is read, the other lines are malformed (convert it with jq -c '.[]')"
        case .multilineJSON:
            "the file holds JSON objects laid out over several lines, and a log holds one JSON object a "
                + "line (NDJSON): lines laid out this way are malformed (convert it with jq -c .)"
        case .utf16LittleEndian:
            "the file is \(name) text, and logs are UTF-8: its lines are read as malformed "
                + "(convert it with iconv -f UTF-16LE -t UTF-8, and drop a byte order mark it keeps)"
        case .utf16BigEndian:
            "the file is \(name) text, and logs are UTF-8: its lines are read as malformed "
                + "(convert it with iconv -f UTF-16BE -t UTF-8, and drop a byte order mark it keeps)"
        default:
            "the file starts like \(name) data, which hig-audit does not read: its lines are read as "
                + "malformed (decompress it, or recompress it with zstd)"
        }
    }
}
