import HIGAuditCore
import Testing

/// Seconds written where SPEC §2 asks for milliseconds read as times in the epoch's first years;
/// those, and only those, are suspect.
@Suite struct SuspectTimestampTests {
    @Test func secondsOfThisCenturyAreSuspectAndMillisecondsAreNot() {
        // `date +%s` on 2026-11-20, and the same instant in milliseconds.
        #expect(SuspectTimestamp.looksLikeSeconds(1_795_208_645))
        #expect(!SuspectTimestamp.looksLikeSeconds(1_795_208_645_123))
        // The range's ends: 2001-09-09 in seconds up to the year 5138.
        #expect(!SuspectTimestamp.looksLikeSeconds(999_999_999))
        #expect(SuspectTimestamp.looksLikeSeconds(1_000_000_000))
        #expect(SuspectTimestamp.looksLikeSeconds(99_999_999_999))
        #expect(!SuspectTimestamp.looksLikeSeconds(100_000_000_000))
        // Test logs' small times, the epoch itself and times before it are taken as written.
        for ts: Int64 in [0, 1, 1_000, 60_000, -1, -1_795_208_645, .min, .max] {
            #expect(!SuspectTimestamp.looksLikeSeconds(ts), "\(ts)")
        }
    }

    @Test func theMessageSaysWhenTheTimeFallsAndWhatItWouldBeInSeconds() {
        let message = SuspectTimestamp.message(1_795_208_645)
        #expect(message.contains("1970-01-21T18:40:08.645Z"))
        #expect(message.contains("1795208645 ms since the epoch"))
        // What the value means as seconds, so that the reader can tell at a glance.
        #expect(message.contains("as seconds it would be 2026-11-20T21:04:05.000Z"))
    }
}
