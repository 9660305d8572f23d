import Testing
@testable import HIGAuditCore

/// One decoder decodes line after line and remembers recent values; none of that may leak into results.
@Suite struct DecoderReuseTests {
    @Test func recentValuesNeverLeakIntoTheNextLine() {
        var decoder = EventDecoder()
        let long = String(repeating: "q", count: 40)
        let cases: [(String, String?, String)] = [
            ("s-1", "canvas", "tab:A"), ("s-1", "canvas", "tab:A"), ("s-2", "canvas", "tab:B"),
            ("s-3", "canvaz", "tab:B"), ("s-3", nil, "tab:Bb"), ("s-3", "c", "t"),
            ("s-12345678", "screen-abcdefgh", "tab:ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"),
            ("s-12345679", "screen-abcdefgi", "tab:ABCDEFGHIJKLMNOPQRSTUVWXYZ0124"),
            (long, long, long), (long + "r", long, long + "s"), ("s-1", "canvas", "tab:A"),
        ]
        for (session, screen, target) in cases {
            let screenField = screen.map { #","screen":"\#($0)""# } ?? ""
            let line = #"{"ts":1,"session":"\#(session)","type":"touch","phase":"ended","target":"\#(target)"\#(screenField)}"#
            let expected = Event(ts: 1, session: session, payload: .touch(Touch(phase: .ended, target: target)), screen: screen)
            #expect(decoder.decode(line) == .event(expected))
        }
    }

    @Test func timestampsInTheSameMinuteAreStillReadWhole() {
        var decoder = EventDecoder()
        let cases: [(String, Int64?)] = [
            ("2026-11-20T21:04:05.123Z", 1_795_208_645_123),
            ("2026-11-20T21:04:59.9Z", 1_795_208_699_900),
            ("2026-11-20T21:04:05.123+01:00", 1_795_208_645_123 - 3_600_000),
            ("2026-11-20T21:04:05.123-00:30", 1_795_208_645_123 + 1_800_000),
            ("2026-11-20T21:04:61Z", nil),
            ("2026-11-20T21:04:05", nil),
            ("2026-11-20T21:04:60Z", 1_795_208_699_999),
            ("2026-11-20T21:05:00Z", 1_795_208_700_000),
            ("2026-02-30T21:05:00Z", nil),
            ("2026-02-30T21:05:00Z", nil),
            ("2026-02-28T21:05:00Z", 1_772_312_700_000),
            ("2026-11-20t21:04:05.123z", 1_795_208_645_123),
        ]
        for (text, milliseconds) in cases {
            let result = decoder.decode(#"{"ts":"\#(text)","session":"s","type":"session.end"}"#)
            if let milliseconds {
                #expect(result == .event(Event(ts: milliseconds, session: "s", payload: .sessionEnd)), "\(text)")
            } else if case .malformed = result {
            } else {
                Issue.record("\(text) gave \(result)")
            }
        }
    }

    @Test func aMalformedLineLeavesNothingBehind() {
        var decoder = EventDecoder()
        _ = decoder.decode(#"{"ts":1,"session":"s","type":"touch","phase":"began","x":3,"input":"pencil"}"#)
        _ = decoder.decode(#"{"ts":1,"session":"s","type":"touch","phase":"began","x":"#)
        #expect(decoder.decode(#"{"ts":2,"session":"s","type":"touch","phase":"moved"}"#)
            == .event(Event(ts: 2, session: "s", payload: .touch(Touch(phase: .moved)))))
    }

    @Test func copiesOfADecoderAreIndependent() {
        var first = EventDecoder()
        _ = first.decode(#"{"ts":1,"session":"a","type":"session.end"}"#)
        var second = first
        #expect(second.decode(#"{"ts":2,"session":"b","type":"session.end"}"#) == .event(Event(ts: 2, session: "b", payload: .sessionEnd)))
        #expect(first.decode(#"{"ts":3,"session":"a","type":"session.end"}"#) == .event(Event(ts: 3, session: "a", payload: .sessionEnd)))
    }

    /// The decoder first tries the key the previous line had at the same position; a key that only
    /// starts like it, is longer, is escaped or is another key must still be read as what it is.
    @Test(arguments: [
        #"{"ts":2,"session":"s","type":"touch","idx":"e9","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"ts":2,"session":"s","type":"touch","i":"e9","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"ts":2,"session":"s","type":"touch","\u0069d":"e9","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"ts":2,"session":"s","type":"touch","phase":"began","id":"e9","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"tsx":2,"ts":2,"session":"s","type":"touch","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"ts":2,"session":"s","type":"touch","id":"e9","id":"e9","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
        #"{"ts":2,"session":"s","type":"touch","id":"e9","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#,
    ])
    func keysAtTheSamePositionAsOnThePreviousLineAreReadAfresh(line: String) {
        var primed = EventDecoder()
        let previous = #"{"ts":1,"session":"s","type":"touch","id":"e1","phase":"began","padding":"0123456789abcdefghijklmnopqrstuvwxyz"}"#
        _ = primed.decode(previous)
        var fresh = EventDecoder()
        #expect(primed.decode(line) == fresh.decode(line))
    }
}

/// The hot-path entry point hands the event to a consumer instead of returning it; it must agree with
/// the value-returning one line for line, and call the consumer exactly for events.
@Suite struct DecoderHandOffTests {
    @Test func handOffAgreesWithTheReturnedValue() {
        let lines = [
            #"{"ts":"2026-11-20T21:04:05.123Z","session":"s","type":"touch","phase":"began","x":1.5,"id":"e1"}"#,
            #"{"ts":1,"session":"s","type":"loading.start","id":"L","indicator":"spinner"}"#,
            #"{"ts":1,"session":"s","type":"telemetry.ping"}"#,
            #"{"ts":1,"session":"s","type":"touch"}"#,
            #"{"ts":1,"session":"","type":"session.end"}"#,
            "   ",
            #"{"ts":2,"session":"s","type":"modal.present","modal":"m","style":"popover","screen":"a"}"#,
        ]
        var handing = EventDecoder()
        var returning = EventDecoder()
        for (index, line) in lines.enumerated() {
            let source = SourceLocation(file: 3, line: Int64(index + 1))
            var handed: [Event] = []
            var text = line
            let verdict = text.withUTF8 { bytes in
                handing.decode(UnsafeRawBufferPointer(bytes), source: source, accept: { handed.append($0) })
            }
            let value = text.withUTF8 { returning.decode(UnsafeRawBufferPointer($0), source: source) }
            switch value {
            case .event(let event):
                #expect(verdict == .event)
                #expect(handed == [event])
                #expect(event.source == source)
            case .blank:
                #expect(verdict == .blank && handed.isEmpty)
            case .unknownType(let name):
                #expect(verdict == .unknownType(name) && handed.isEmpty)
            case .malformed(let problem):
                #expect(verdict == .malformed(problem) && handed.isEmpty)
            }
        }
    }
}
