import Testing
@testable import HIGAuditCore

@Suite struct VersionPrefixTests {
    @Test(arguments: [
        ("5.2", "5.2", true), ("5.2.0", "5.2", true), ("5.2.1.7", "5.2", true), ("5.20", "5.2", false),
        ("5.2", "5.2.0", false), ("15.2", "5.2", false), ("5.2-beta", "5.2", false), ("", "5", false), ("5", "", false),
    ])
    func matchesByWholeComponents(version: String, filter: String, matches: Bool) {
        #expect(VersionPrefix.matches(version, filter) == matches)
    }

    @Test func theFilterAdmitsExtendingVersions() {
        let filter = TableFilter(appVersions: ["5.2"])
        #expect(filter.admitsSession(session: "s", device: "d", appVersion: "5.2.1", firstTs: 0, lastTs: 0))
        #expect(!filter.admitsSession(session: "s", device: "d", appVersion: "5.20", firstTs: 0, lastTs: 0))
    }

    @Test func closestValuesShareTheLongestBeginningThenTheFewestEdits() {
        #expect(ClosestValues.to("5.3", among: ["5.1.0", "5.2.0", "5.2.1", "6.0", "5.3"], limit: 3) == ["5.3", "5.1.0", "5.2.0"])
        #expect(ClosestValues.to("ipad-0004", among: ["ipad-0001", "iphone-1", "ipad-0040"], limit: 2) == ["ipad-0001", "ipad-0040"])
        #expect(ClosestValues.to("x", among: [String]()).isEmpty)
    }

    @Test func aValueThatMatchesNothingIsNamedWithWhatExists() {
        let notes = FilterMisses.notes(
            for: TableFilter(appVersions: ["5.2", "5.3"], devices: ["ipad-9"]),
            appVersions: ["5.1.0", "5.2.0", "5.2.1"], devices: ["ipad-1"])
        #expect(notes == [
            "--app-version 5.3 matches no session; app versions seen: 5.1.0, 5.2.0, 5.2.1",
            "--device ipad-9 matches no session; devices seen: ipad-1",
        ])
    }
}
