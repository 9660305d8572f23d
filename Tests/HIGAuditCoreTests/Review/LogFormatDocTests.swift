import Foundation
import Testing
@testable import HIGAuditCore

/// `docs/log-format.md` is what apps are instrumented from: every example line in it must decode, and
/// every event type the decoder knows must have an example there.
@Suite struct LogFormatDocTests {
    static func exampleLines() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/log-format.md"), encoding: .utf8)
        var lines: [String] = []
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inExample = !inExample && line == "```ndjson"
            } else if inExample {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test func everyExampleDecodesAndEveryTypeHasOne() throws {
        let lines = try Self.exampleLines()
        #expect(lines.count > EventKind.allCases.count)
        var kinds: Set<EventKind> = []
        for line in lines {
            if let event = decodedEvent(line) { kinds.insert(event.kind) }
        }
        #expect(kinds == Set(EventKind.allCases), "types without an example: \(Set(EventKind.allCases).subtracting(kinds))")
    }
}
