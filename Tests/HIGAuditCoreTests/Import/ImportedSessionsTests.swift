import Foundation
import Testing
@testable import HIGAuditCore

/// `ImportedSessions` finds a session by its name as Swift strings compare names, whatever bytes the
/// name stood as and however many sessions there are: what a `[String: SessionLaunches]` found.
@Suite struct ImportedSessionsTests {
    static func place(_ sessions: inout ImportedSessions, _ bytes: [UInt8], _ name: String) -> Int? {
        bytes.withUnsafeBufferPointer { raw in sessions.place(raw: raw, name: { name }) }
    }

    static func keep(_ sessions: inout ImportedSessions, _ bytes: [UInt8], _ name: String, launches: Int) -> Int {
        var state = EventImporter.SessionLaunches()
        state.launches = launches
        return bytes.withUnsafeBufferPointer { raw in sessions.keep(state, at: nil, raw: raw, name: { name }) }
    }

    /// Names of every kind a session id takes: short, a UUID in either case, long, not ASCII.
    static func names(_ count: Int) -> [String] {
        var random = SplitMix64(seed: 49)
        return (0..<count).map { index in
            let word = random.next()
            switch index % 5 {
            case 0: return String(word, radix: 16)
            case 1: return "\(String(word, radix: 16, uppercase: false).padding(toLength: 8, withPad: "0", startingAt: 0))-0000-4000-8000-\(String(index, radix: 10).padding(toLength: 12, withPad: "0", startingAt: 0))"
            case 2: return "\(String(word, radix: 16, uppercase: true).padding(toLength: 8, withPad: "0", startingAt: 0))-ABCD-4000-8000-\(String(index, radix: 10).padding(toLength: 12, withPad: "0", startingAt: 0))"
            case 3: return "session-of-a-long-name-\(index)-\(word)"
            default: return "séance-\(index)"
            }
        }
    }

    @Test func everyNameKeptIsFoundAtItsPlaceAndNoOther() {
        var sessions = ImportedSessions()
        let names = Self.names(5_000)
        #expect(Set(names).count == names.count)
        // The first half kept, then all looked up twice (found by `String`, then remembered).
        let order = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var kept: [String: Int] = [:]
        for (index, name) in names.enumerated() where index % 2 == 0 {
            kept[name] = Self.keep(&sessions, Array(name.utf8), name, launches: index)
        }
        for _ in 0..<2 {
            for name in names {
                let place = Self.place(&sessions, Array(name.utf8), name)
                #expect(place == kept[name], "\(name)")
                if let place { #expect(sessions.states[place].launches == order[name]) }
            }
        }
        #expect(sessions.count == kept.count)
    }

    @Test func namesThatAreEqualStringsAreOneSessionWhateverTheirBytes() {
        var sessions = ImportedSessions()
        // Precomposed and decomposed; the Kelvin sign and the letter it is canonically equivalent to.
        let pairs: [(String, String)] = [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}-1", "K-1")]
        for (first, second) in pairs {
            let place = Self.keep(&sessions, Array(first.utf8), first, launches: 1)
            #expect(first == second && Array(first.utf8) != Array(second.utf8))
            for _ in 0..<2 {
                #expect(Self.place(&sessions, Array(second.utf8), second) == place)
                #expect(Self.place(&sessions, Array(first.utf8), first) == place)
            }
        }
        // A UUID in uppercase is another string than in lowercase: another session.
        let lower = "6f1c2a3b-0000-4000-8000-00000000002a"
        _ = Self.keep(&sessions, Array(lower.utf8), lower, launches: 1)
        #expect(Self.place(&sessions, Array(lower.uppercased().utf8), lower.uppercased()) == nil)
    }

    /// A name with escapes, as it stands in its line, is remembered by those bytes and found by its
    /// unescaped `String`.
    @Test func aNameWithEscapesIsFoundByItsBytesAndByItsString() {
        var sessions = ImportedSessions()
        let escaped = Array(#"s\u002D1"#.utf8)
        let place = Self.keep(&sessions, escaped, "s-1", launches: 2)
        #expect(Self.place(&sessions, escaped, "s-1") == place)
        #expect(Self.place(&sessions, Array("s-1".utf8), "s-1") == place)
        #expect(Self.place(&sessions, Array("s-2".utf8), "s-2") == nil)
    }
}
