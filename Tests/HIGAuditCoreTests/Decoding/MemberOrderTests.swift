import Testing
@testable import HIGAuditCore

/// The accelerated scan's note of a line's fields in line order (`MemberOrder`), which
/// `LineShapes.learn` hashes to ask whether a layout was seen before, must be what the learned shape's
/// fields sorted by position give (`MemberOrder.of`): otherwise a layout held as a shape would not be
/// recognised as one.
@Suite struct MemberOrderTests {
    /// Scans `line` with the accelerated scan: the scan's note, the field table it filled and whether it read the line.
    static func scanned(_ line: String) -> (members: MemberOrder, table: FieldTable, read: Bool) {
        let table = FieldTable(holdsShapes: true)
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let scan = AcceleratedScan(
                base: UnsafePointer(buffer.baseAddress!), count: buffer.count, fields: table.fields,
                numbers: table.numbers, keys: table.keys)
            var unread = false
            var members = MemberOrder()
            let read = (try? scan.scan(unreadMembers: &unread, members: &members)) == true
            return (members, table, read)
        }
    }

    /// Scans `line` and returns the scan's note and the hash of its fields sorted by position.
    static func orders(_ line: String) -> (scanned: MemberOrder, sorted: UInt64) {
        let (members, table, read) = scanned(line)
        #expect(read, "\(line)")
        let present = (0..<EventField.count).filter { table.fields[$0].kind != .absent }
            .sorted { table.fields[$0].start < table.fields[$1].start }
            .map { UInt8($0) }
        return (members, present.withUnsafeBufferPointer { MemberOrder.of($0) })
    }

    @Test func theScansOrderIsTheFieldsByPosition() {
        let lines = [
            #"{"ts":1,"session":"s","type":"touch","phase":"moved","x":2,"y":3}"#,
            #"{"y":3,"phase":"moved","type":"touch","x":2,"session":"s","ts":1}"#,
            // Unread members, a container, null, an escaped key and a spaced writer.
            #"{"seq":4,"type":"touch","sdk":{"name":"n"},"app":null,"t\u0073":"2026-11-20T18:00:00Z","session":"s"}"#,
            #"{ "type" : "haptic" , "kind" : "selection" , "session" : "s" , "ts" : 1 }"#,
        ]
        for line in lines {
            let (scanned, sorted) = Self.orders(line)
            #expect(scanned.hash == sorted, "\(line)")
            #expect(!scanned.repeated, "\(line)")
            #expect(scanned.fields == Self.present(line), "\(line)")
        }
        // The order counts: the same fields in another order hash otherwise.
        #expect(Self.orders(lines[0]).scanned.hash != Self.orders(lines[1]).scanned.hash)
    }

    /// A key that comes twice is noted (such a line is never learned); its second value is no member.
    @Test func aRepeatedKeyIsNoted() {
        let line = #"{"ts":1,"session":"s","type":"touch","x":2,"x":3}"#
        let (scanned, sorted) = Self.orders(line)
        #expect(scanned.repeated)
        #expect(scanned.hash == sorted)
        #expect(scanned.fields == Self.present(line))
    }

    /// The fields the scan of `line` sets (bit `rawValue` each): those the decoder clears before the
    /// next line.
    static func present(_ line: String) -> FieldMask {
        let table = scanned(line).table
        return (0..<EventField.count).reduce(FieldMask(0)) { mask, field in
            table.fields[field].kind == .absent ? mask : mask | 1 << FieldMask(field)
        }
    }

    /// After a line of the general scan, the next line, matched by a shape that lacks some of its
    /// fields, has those absent: the decoder cleared what the scan set.
    @Test func fieldsOfAScannedLineAreClearedForTheNext() {
        var learning = EventDecoder(learnsLineShapes: true)
        var general = EventDecoder(learnsLineShapes: false)
        let matched = (0..<8).map { #"{"ts":\#($0),"session":"s","type":"touch","phase":"moved","x":\#($0)}"# }
        for line in matched { #expect(learning.decode(line) == general.decode(line)) }
        #expect(learning.lineShapes.matchedLines > 0)
        // Keys in another order: read by the general scan, with fields the shape lacks.
        let scanned = #"{"target":"canvas","y":4,"input":"pencil","type":"touch","phase":"began","session":"s","ts":9}"#
        #expect(learning.decode(scanned) == general.decode(scanned))
        let matchedBefore = learning.lineShapes.matchedLines
        let next = #"{"ts":10,"session":"s","type":"touch","phase":"moved","x":10}"#
        #expect(learning.decode(next) == general.decode(next))
        #expect(learning.lineShapes.matchedLines == matchedBefore + 1)
    }
}
