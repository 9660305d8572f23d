import HIGAuditCore

/// Decodes a file's lines as `analyze` does, but only to note which sessions have events in it and the
/// device of each one's first event there (`SessionFirstDevices`), for planning a sharded run.
public struct SessionStartsSink: LineSink {
    public private(set) var sessions = SessionFirstDevices()
    private var decoder = EventDecoder()

    public init() {}

    public mutating func line(_ bytes: UnsafeRawBufferPointer, number: Int64) {
        var sessions = self.sessions
        self.sessions = SessionFirstDevices()
        _ = decoder.decode(bytes, source: SourceLocation(file: 0, line: number), accept: { sessions.note($0) })
        self.sessions = sessions
    }

    public mutating func oversizedLine(number: Int64, byteCount: Int64) {}

    /// Reads `source` whole and returns its sessions; problems with the file are left to the shards
    /// that read it, which count and report them.
    public static func sessions(in source: InputSource, reader: InputReader) -> SessionFirstDevices {
        var sink = SessionStartsSink()
        var statistics = IngestStatistics()
        _ = reader.read(source, into: &sink, statistics: &statistics, diagnostic: { _ in })
        return sink.sessions
    }
}
