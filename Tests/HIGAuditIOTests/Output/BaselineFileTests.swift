import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// The baseline file is committed beside an app's code: the same pairs are always the same bytes, one
/// pair a line, sorted; anything that is not a version-1 baseline is refused with the path and why.
@Suite struct BaselineFileTests {
    static let pairs = [
        BaselinePair(rule: "slow-launch", screen: ""), BaselinePair(rule: "modal-depth", screen: "settings \"beta\""),
        BaselinePair(rule: "modal-depth", screen: "home"),
    ]

    @Test func textIsSortedOnePairALineWithATrailingNewline() {
        #expect(BaselineFile.text(Baseline(pairs: Self.pairs)) == """
            {
              "version": 1,
              "pairs": [
                {"rule": "modal-depth", "screen": "home"},
                {"rule": "modal-depth", "screen": "settings \\"beta\\""},
                {"rule": "slow-launch", "screen": ""}
              ]
            }

            """)
        #expect(BaselineFile.text(Baseline(pairs: [])) == "{\n  \"version\": 1,\n  \"pairs\": []\n}\n")
    }

    @Test func theSamePairsInAnyOrderGiveTheSameBytesAndReadBack() throws {
        let text = BaselineFile.text(Baseline(pairs: Self.pairs))
        #expect(BaselineFile.text(Baseline(pairs: Self.pairs.reversed())) == text)
        #expect(try BaselineFile.parse(Data(text.utf8), path: "b.json") == Baseline(pairs: Self.pairs))
    }

    @Test(arguments: [
        ("not json", "is not JSON"),
        ("[]", "expected a JSON object"),
        (#"{"version": 2, "pairs": []}"#, "\"version\" is 2, and this hig-audit reads version 1"),
        (#"{"pairs": []}"#, "\"version\" is missing"),
        (#"{"version": 1}"#, "\"pairs\" is missing or not a list"),
        (#"{"version": 1, "pairs": [{"rule": "a"}]}"#, "pair 1 is not"),
        (#"{"version": 1, "pairs": [{"rule": "a", "screen": 3}]}"#, "pair 1 is not"),
        (#"{"version": 1, "pairs": [], "pair": []}"#, "unknown key \"pair\""),
        // Strict RFC 8259, as log lines are read: no trailing comma, in an object or a list.
        (#"{"version": 1, "pairs": [],}"#, "it is not JSON: unexpected '}' at byte 28"),
        (#"{"version": 1, "pairs": [{"rule": "a", "screen": "b"},]}"#, "it is not JSON: unexpected ']' at byte 55"),
        // The version is the integer 1, and the message shows what stands there instead.
        (#"{"version": "1", "pairs": []}"#, "\"version\" is the string \"1\", and this hig-audit reads version 1"),
        (#"{"version": true, "pairs": []}"#, "\"version\" is true, and this hig-audit reads version 1"),
        (#"{"version": 1.0, "pairs": []}"#, "\"version\" is 1.0, and this hig-audit reads version 1"),
        (#"{"version": null, "pairs": []}"#, "\"version\" is null, and this hig-audit reads version 1"),
    ])
    func badFilesAreRefusedSayingWhy(text: String, problem: String) {
        #expect {
            _ = try BaselineFile.parse(Data(text.utf8), path: "ci/baseline.json")
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("cannot use the baseline ci/baseline.json: ") && message.contains(problem)
        }
    }

    @Test func aMissingFileSaysHowToWriteOne() {
        #expect {
            _ = try BaselineFile.read("/nonexistent/baseline.json")
        } throws: { error in
            "\(error)".contains("no such file; write one with `hig-audit baseline --out /nonexistent/baseline.json`")
        }
    }
}
