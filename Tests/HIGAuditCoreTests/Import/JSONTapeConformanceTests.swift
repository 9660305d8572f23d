import Foundation
import Testing
@testable import HIGAuditCore

/// The tape an export line is read into (`JSONTape`) validates as strictly as the reference decoder:
/// nst/JSONTestSuite's documents, as a member's value and as an array's element of an export line,
/// are read when they are JSON and refused when they are not.
@Suite struct JSONTapeConformanceTests {
    static func contexts(_ document: [UInt8]) -> [[UInt8]] {
        [
            Array(#"{"event":"x","properties":{"k":"#.utf8) + document + Array("}}".utf8),
            Array(#"{"attributes":[{"key":"a"},"#.utf8) + document + Array(#","b"]}"#.utf8),
        ]
    }

    static func reads(_ line: [UInt8]) -> Bool {
        var tape = JSONTape()
        defer { tape.deallocate() }
        return line.withUnsafeBytes { bytes in
            do throws(MalformedLine) {
                try tape.read(bytes)
                return true
            } catch {
                return false
            }
        }
    }

    @Test(arguments: JSONTestSuiteTests.documents(in: "test_parsing").filter { $0.hasPrefix("y_") })
    func jsonIsRead(name: String) {
        let document = JSONTestSuiteTests.bytes("test_parsing", name)
        for line in Self.contexts(document) {
            #expect(Self.reads(line), "\(name): \(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test(arguments: JSONTestSuiteTests.documents(in: "test_parsing").filter { $0.hasPrefix("n_") })
    func whatIsNotJSONIsRefused(name: String) {
        let document = JSONTestSuiteTests.bytes("test_parsing", name)
        for line in Self.contexts(document) {
            #expect(!Self.reads(line), "\(name): \(String(decoding: line, as: UTF8.self))")
        }
    }
}
