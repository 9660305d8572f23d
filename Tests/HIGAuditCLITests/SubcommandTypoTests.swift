import Foundation
import Testing
@testable import HIGAuditCLI
import HIGAuditCore

/// A mistyped subcommand is a usage error with a suggestion, not an analysis of a missing file.
@Suite struct SubcommandTypoTests {
    let names = ["analyze", "rules", "nightly", "query", "compare", "export", "sample"]

    @Test(arguments: [
        (["analyse", "DIR"], "analyze"), (["querry", "--store", "x"], "query"), (["rule"], "rules"),
        (["nigthly"], "nightly"), (["version"], "--version"), (["Help"], "--help"), (["exprot"], "export"),
    ])
    func typosAreCaught(arguments: [String], suggestion: String) {
        #expect(SubcommandTypo.find(in: arguments, subcommands: names, pathExists: { _ in false })?.suggestion == suggestion)
    }

    @Test(arguments: [["analyze", "x"], ["--table", "summary"], ["logs/"], ["q"], ["uploads"], ["zzzzzzzz"], []])
    func inputsAndSubcommandsAreLeftAlone(arguments: [String]) {
        #expect(SubcommandTypo.find(in: arguments, subcommands: names, pathExists: { _ in false }) == nil)
    }

    @Test func anExistingPathIsAnInputWhateverItIsCalled() {
        #expect(SubcommandTypo.find(in: ["analyse"], subcommands: names, pathExists: { $0 == "analyse" }) == nil)
    }

    @Test func editDistanceCountsASwapAsOne() {
        #expect(ClosestValues.editDistance("nigthly", "nightly") == 1)
        #expect(ClosestValues.editDistance("analyse", "analyze") == 1)
        #expect(ClosestValues.editDistance("", "abc") == 3)
        #expect(ClosestValues.editDistance("sample", "sample") == 0)
    }

    @Test func theCommandLineSaysWhatWasMeant() throws {
        let typo = try HigAuditBinary.run(["analyse", "SampleLogs/nope"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("unknown subcommand 'analyse'; did you mean 'analyze'?"))
        #expect(typo.stdout.isEmpty)
        let querry = try HigAuditBinary.run(["querry", "--store", "x.sqlite"])
        #expect(querry.status == 64)
        #expect(querry.stderr.contains("did you mean 'query'?"))
        #expect(!querry.stderr.contains("--since"))
    }
}
