import Testing
@testable import HIGAuditCore

/// The decoder's memory of recent minutes (`RecentMinute`, read through `RecentValues.timestamp`):
/// interleaved writers in other zones, days or minutes that share a place, and offsets that change
/// under one prefix all read as the reference parser reads them, in any order.
@Suite struct RecentMinuteTests {
    static let timestamps = [
        // One instant written in four zones, as interleaved writers do.
        "2026-11-20T18:00:00.000Z", "2026-11-20T18:00:00.003000+00:00", "2026-11-20T10:00:00.01-08:00",
        "2026-11-20T19:00:00.013+01:00",
        // The same prefix under other offsets.
        "2026-11-20T10:00:59-08:00", "2026-11-20T10:00:00+05:30", "2026-11-20T10:00:00Z",
        // The same hour and minute parity (one place) on other days and minutes.
        "2026-11-21T10:00:05Z", "2026-11-20T10:02:05Z", "2026-12-20T10:00:05Z",
        // Across midnight, the year's end and leap days.
        "2026-12-31T23:59:59.999Z", "2027-01-01T00:00:00.000Z", "2028-02-29T23:59:30Z", "2028-03-01T00:00:10Z",
        "2027-02-28T23:59:59Z", "2027-03-01T00:00:00Z", "2028-02-29T00:00:00+14:00",
        // Not dates, at places valid ones took.
        "2027-02-29T23:59:59Z", "2026-11-20T24:00:00Z", "2026-11-20T10:60:00Z", "2026-11-20T10:00:00",
    ]

    @Test func everyTimestampReadsAsTheReferenceReadsIt() {
        let recent = RecentStrings(slots: 0)
        let minutes = UnsafeMutablePointer<RecentMinute>.allocate(capacity: RecentMinute.count)
        minutes.initialize(repeating: RecentMinute(), count: RecentMinute.count)
        defer {
            minutes.deallocate()
            recent.deallocate()
        }
        let memory = RecentValues(recent: recent, minute: minutes)
        var generator = SplitMix64(seed: 49)
        for round in 0..<4 {
            let order = round == 0 ? Self.timestamps : Self.timestamps.shuffled(using: &generator)
            for text in order {
                var bytes = Array(text.utf8)
                let read: Int64? = bytes.withUnsafeMutableBufferPointer { buffer in
                    if case .success(let milliseconds) = memory.timestamp(ByteSlice(start: buffer.baseAddress!, count: buffer.count)) {
                        return milliseconds
                    }
                    return nil
                }
                #expect(read == TimestampParser.parse(rfc3339: text), "\(text), round \(round)")
            }
        }
    }

    @Test func everyPrefixHasAPlace() {
        for text in Self.timestamps + ["\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{FF}\u{FF}\u{FF}\u{FF}\u{FF}\u{FF}\u{FF}\u{FF}"] {
            let bytes = Array(text.utf8.prefix(16)) + Array(repeating: 0xFF, count: max(0, 16 - text.utf8.count))
            let prefix = bytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
            #expect((0..<RecentMinute.places).contains(RecentMinute.place(prefix)), "\(text)")
        }
    }
}
