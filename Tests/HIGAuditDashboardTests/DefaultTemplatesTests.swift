import Foundation
import Testing
@testable import HIGAuditDashboard

/// `Dashboards/templates/` is the one source of the page; `DefaultTemplates.swift` is generated from it
/// so that a release binary carries the templates. This test fails when the two drift apart, and
/// `HIG_AUDIT_UPDATE_TEMPLATES=1` regenerates the Swift file instead.
struct DefaultTemplatesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templateDirectory = packageRoot.appendingPathComponent("Dashboards/templates")
    static let generatedFile = packageRoot.appendingPathComponent("Sources/HIGAuditDashboard/DefaultTemplates.swift")

    @Test func compiledTemplatesAreTheFilesOfDashboards() throws {
        let expected = try Self.generatedSource()
        if ProcessInfo.processInfo.environment["HIG_AUDIT_UPDATE_TEMPLATES"] != nil {
            try expected.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
            return
        }
        let actual = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        #expect(actual == expected, "Dashboards/templates changed: regenerate with HIG_AUDIT_UPDATE_TEMPLATES=1 swift test --filter DefaultTemplatesTests")
    }

    @Test func everyTemplateOfThePageIsAFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.templateDirectory.path)
            .filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
        #expect(Set(files) == Set(DashboardTemplates.names))
    }

    /// The Swift file that holds every template as a raw string literal.
    static func generatedSource() throws -> String {
        var source = """
            // Generated from Dashboards/templates/*.mustache by DefaultTemplatesTests
            // (HIG_AUDIT_UPDATE_TEMPLATES=1 swift test --filter DefaultTemplatesTests). Do not edit.

            /// The built-in templates of the dashboard, so that a binary needs no source tree.
            enum DefaultTemplates {
                static let sources: [String: String] = [

            """
        for name in DashboardTemplates.names {
            let text = try String(contentsOf: templateDirectory.appendingPathComponent("\(name).mustache"), encoding: .utf8)
            precondition(!text.contains("\"\"\"#####"), "\(name).mustache holds the raw string's closing delimiter")
            source += "        \"\(name)\": #####\"\"\"\n\(text)\n\"\"\"#####,\n"
        }
        source += "    ]\n}\n"
        return source
    }
}
