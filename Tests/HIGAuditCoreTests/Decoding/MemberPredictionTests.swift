import Testing
@testable import HIGAuditCore

/// The decoder recognises a member with a compact head (`"key":`) by its key's first bytes, wherever it
/// stands. Whatever earlier lines taught the decoder, a line's verdict (the event, or the malformed
/// reason and column) must be that of a fresh strict decoder: here on lines that mostly keep one layout
/// and sometimes change it (order, types, whitespace, escapes, duplicates, unknown members, cuts).
@Suite struct MemberPredictionTests {
    @Test func whatEarlierLinesTaughtNeverChangesAVerdict() {
        var random = SplitMix64(seed: 31)
        var reused = EventDecoder()
        var events = 0
        for _ in 0..<10_000 {
            let line = Self.randomLine(using: &random)
            var fresh = EventDecoder(learnsLineShapes: false)
            let verdict = fresh.decode(line)
            #expect(reused.decode(line) == verdict, "\(line)")
            if case .event = verdict { events += 1 }
        }
        // The lines must mostly be valid, or recognised heads would rarely be exercised.
        #expect(events > 5_000)
    }

    private static let stringValues = ["s-7f3a9c", "canvas", "tab:Library", "a", "", "0123456789abcdefghijklmnopqrstuvwxyz", "é", #"t\"q"#]
    private static let otherValues = ["1", "-2.5", "1e3", "null", "true", "false", "{}", #"{"a":[1,"b"]}"#, "[]", "[1,2]"]

    private static func randomLine(using random: inout SplitMix64) -> String {
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let kind = pick(["touch", "session.end", "modal.present", "haptic"])
        var members: [(key: String, value: String)] = [
            ("ts", chance(80) ? #""2026-11-20T18:00:41.612Z""# : "1795208645123"), ("session", #""s-7f3a9c""#),
            ("type", "\"\(kind)\""), ("id", "\"e\(random.next() % 1000)\""), ("device", #""ipad-0011""#),
            ("app_version", #""5.2.1""#), ("screen", "\"\(pick(["canvas.editor", "gallery", "a"]))\""),
        ]
        switch kind {
        case "touch":
            members += [("phase", #""moved""#), ("target", #""canvas""#), ("input", #""pencil""#),
                        ("x", pick(["593.2", "600", "-0.5"])), ("y", pick(["396.1", "400"]))]
        case "modal.present": members += [("modal", #""export-sheet""#), ("style", #""page_sheet""#)]
        case "haptic": members += [("kind", #""impact.light""#), ("duration_ms", "12")]
        default: break
        }
        if chance(10) {
            let (a, b) = (Int(random.next() % UInt64(members.count)), Int(random.next() % UInt64(members.count)))
            members.swapAt(a, b)
        }
        if chance(8) { members.insert(("pad", "\"\(pick(stringValues))\""), at: Int(random.next() % UInt64(members.count))) }
        if chance(4) { members.append(pick(members)) }
        for index in members.indices where chance(4) {
            members[index].value = chance(50) ? "\"\(pick(stringValues))\"" : pick(otherValues)
        }
        var line = chance(3) ? " {" : "{"
        for (index, member) in members.enumerated() {
            if index > 0 { line += chance(3) ? " , " : "," }
            if chance(2) { line += "\n" }
            let key = chance(3) && !member.key.isEmpty ? #"\u00"# + String(member.key.utf8.first!, radix: 16) + member.key.dropFirst() : member.key
            line += "\"\(key)\"" + (chance(3) ? pick([" :", ": ", "\t:\t"]) : ":") + member.value
        }
        line += chance(3) ? " }" : "}"
        if chance(3) { line = String(line.prefix(Int(random.next() % UInt64(line.count)))) }
        return line
    }
}
