/// SPEC §2's limit on a line of ours, held for imported events too: results on imported data equal
/// those on the NDJSON `import` writes (SPEC §7), and `analyze` finds a line of ours longer than 1 MiB
/// malformed. So an event whose line of ours would be longer is malformed on every path, before the
/// decoder sees it: `import` does not write a line `analyze` refuses, and `--from` does not judge an
/// event that the written line would not give.
///
/// Why a bound before a measure: a line of ours is written from the source's bytes as they stand, a
/// record's values renamed by shorter keys, with few pieces of our own (keys, the type, `#n`, a
/// coverage, numbers written anew). Its length is at most the bytes it is written from
/// (`sourceBytes`: the export's line, or the record or page item in a longer line, with the
/// resource values it takes), a screen view's names of its own (its screen again, the tab it leaves),
/// and `lineGrowth`. Only an event whose bound passes the limit is written to be measured, so the hot
/// path pays one comparison an event; such an event is read the general way, not by a plan
/// (`serves`), which may write no line.
extension EventImporter {
    /// More than the pieces of our own a line of ours can add to the bytes it is written from.
    static let lineGrowth = 4096

    /// The most bytes an event may be written from and need no measure.
    static let unmeasuredSourceBytes = EventDecoder.maxLineLength - lineGrowth

    /// Whether the bytes an event is written from may make a line of ours longer than the limit.
    @inline(__always)
    static func mayPassLineLimit(sourceBytes: Int) -> Bool {
        sourceBytes > unmeasuredSourceBytes
    }

    /// Bytes of the value at a tape entry, 0 for none.
    @inline(__always)
    func spanBytes(_ index: Int?) -> Int {
        guard let index else { return 0 }
        return Int(tape[index].end &- tape[index].start)
    }

    /// The bytes an OTLP record's line of ours is written from, at most: the record's, and the values
    /// it takes from its resource, which stands before it.
    func recordSourceBytes(_ record: Int, _ resource: KnownAttributes) -> Int {
        spanBytes(record) &+ spanBytes(resource.deviceId) &+ spanBytes(resource.serviceVersion) &+ spanBytes(resource.osVersion)
    }

    /// The malformed record the pending event is when its line of ours is longer than the limit, else
    /// nil. Writes the line to measure it (only where its bound may pass the limit), into the line
    /// writer, which it leaves with no line begun.
    func pendingLineTooLong() -> MalformedLine? {
        // A screen view names its screen twice (`screen` and `to`) and a switch the tab it leaves.
        var named = 0
        if case .screenView(let screen) = pending.mapping {
            named = screen.utf8.count &+ (pending.screenView?.from?.utf8.count ?? 0)
        }
        guard Self.mayPassLineLimit(sourceBytes: sourceBytes &+ named) else { return nil }
        return measuredLineTooLong()
    }

    @inline(never)
    private func measuredLineTooLong() -> MalformedLine? {
        writePending()
        let count = writer.count
        writer.clear()
        guard count > EventDecoder.maxLineLength else { return nil }
        return MalformedLine(
            reason: "the event's line in this tool's format would be \(count) bytes, longer than the 1 MiB limit of a line")
    }
}
