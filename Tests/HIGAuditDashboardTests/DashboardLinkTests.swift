import Testing
@testable import HIGAuditDashboard

/// The page's links run nothing when followed: web addresses and relative paths only.
@Suite struct DashboardLinkTests {
    @Test(arguments: [
        "../tables/violations.csv", "violations.csv", "./out:2026/violations.csv", "a b/violations.csv",
        "https://ci.example.com/hig/violations.csv", "HTTP://example.com/v.csv", "?page=2", "#examples",
    ])
    func pathsAndWebAddressesAreAllowed(link: String) {
        #expect(DashboardLink.isAllowed(link))
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd",
        "vbscript:msgbox", "//evil.example.com/x.csv", "\\\\evil\\share", "", "out:2026/violations.csv",
        "violations.csv ", "\u{7F}javascript:alert(1)",
    ])
    func schemesThatRunOrLeaveTheSiteAreRefused(link: String) {
        #expect(!DashboardLink.isAllowed(link))
    }
}
