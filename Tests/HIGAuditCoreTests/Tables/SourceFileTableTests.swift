import Testing
@testable import HIGAuditCore

/// `describe` writes `PATH:LINE` byte by byte; it must say what the plain interpolation says.
@Suite struct SourceFileTableTests {
    @Test func describesEveryLocationAsPathColonLine() {
        var table = SourceFileTable()
        let paths = ["logs/2026-11-20/device-0001.ndjson.zst", "-", "日本/é.ndjson", ""]
        for path in paths { _ = table.add(path) }
        var lines: [Int64] = [0, 1, 9, 10, 99, 100, 367_103, .max, -1, .min]
        var power: Int64 = 1
        while power <= Int64.max / 10 {
            power *= 10
            lines += [power - 1, power]
        }
        for line in lines {
            for file in Int32(-2)...Int32(paths.count) {
                let path = file >= 0 && Int(file) < paths.count ? paths[Int(file)] : "?"
                #expect(table.describe(SourceLocation(file: file, line: line)) == "\(path):\(line)")
            }
        }
    }
}
