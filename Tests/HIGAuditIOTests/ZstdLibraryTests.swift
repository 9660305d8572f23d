import Testing
@testable import HIGAuditIO

@Suite struct ZstdLibraryTests {
    @Test func reportsTheLinkedVersion() {
        #expect(ZstdLibrary.versionNumber >= 10400)
        #expect(ZstdLibrary.versionString.hasPrefix("1."))
    }
}
