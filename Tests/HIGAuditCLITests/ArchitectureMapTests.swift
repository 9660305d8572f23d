import Foundation
import Testing

/// `ARCHITECTURE.md` is a newcomer's map: every file and folder it names must exist, so that a file
/// moved or renamed takes the map along.
@Suite struct ArchitectureMapTests {
    @Test func everyPathTheMapNamesExists() throws {
        let root = HigAuditBinary.packageRoot
        let map = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let files = Self.repositoryFiles(under: root)
        let named = Self.namedPaths(in: map)
        #expect(named.count > 20)
        for path in named {
            if path.hasSuffix("/") {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                #expect(exists && isDirectory.boolValue, "ARCHITECTURE.md names the folder \(path)")
            } else if let top = path.split(separator: "/").first, path.contains("/"),
                      files.contains(String(top)) {
                #expect(files.contains(path), "ARCHITECTURE.md names \(path)")
            } else {
                // A name relative to the step's folder: some file of the repository ends so.
                #expect(files.contains { $0.hasSuffix("/" + path) }, "ARCHITECTURE.md names \(path)")
            }
        }
    }

    /// The code spans that are paths: with a `/`, or a file name with an extension; placeholders such
    /// as `<Name>` left out.
    static func namedPaths(in text: String) -> Set<String> {
        let spans = text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return Set(spans.filter { span in
            !span.contains("<") && !span.contains(" ") && !span.hasPrefix("--")
                && (span.contains("/") || span.hasSuffix(".swift") || span.hasSuffix(".md"))
        })
    }

    static func repositoryFiles(under root: URL) -> Set<String> {
        var files = Set<String>()
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return files }
        while let path = enumerator.nextObject() as? String {
            if path.hasPrefix(".") || path.contains("/.build") { enumerator.skipDescendants(); continue }
            files.insert(path)
        }
        return files
    }
}
