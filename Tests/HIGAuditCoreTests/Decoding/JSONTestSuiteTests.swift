import Foundation
import Testing
@testable import HIGAuditCore

/// nst/JSONTestSuite (`Tests/Conformance/json-test-suite`, see `Tests/Conformance/README.md`): strict
/// RFC 8259 validation, also inside fields the decoder otherwise skips. Run on the reference decoder
/// directly; `FastPathContractTests` holds the accelerated path to the same verdicts.
@Suite struct JSONTestSuiteTests {
    static let suiteFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/json-test-suite")

    static func documents(in folder: String) -> [String] {
        let path = suiteFolder.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static func bytes(_ folder: String, _ name: String) -> [UInt8] {
        let url = suiteFolder.appendingPathComponent(folder).appendingPathComponent(name)
        return (try? [UInt8](Data(contentsOf: url))) ?? []
    }

    /// The document as the value of an unknown field of an otherwise valid event.
    static func wrapped(_ document: [UInt8]) -> [UInt8] {
        Array(#"{"ts":1,"session":"s","type":"outcome","result":"success","x_doc":"#.utf8) + document + Array("}".utf8)
    }

    static func isJSONWhitespace(_ document: [UInt8]) -> Bool {
        document.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The reference decoder's verdict, a fresh decoder for each document.
    static func decodeBytes(_ bytes: [UInt8]) -> DecodedLine {
        var decoder = ReferenceDecoder()
        var event: Event?
        let verdict = bytes.withUnsafeBytes { decoder.decode($0, source: .unknown, accept: { event = $0 }) }
        return switch verdict {
        case .blank: .blank
        case .event: event.map { .event($0) } ?? .blank
        case .unknownType(let name): .unknownType(name)
        case .malformed(let problem): .malformed(problem)
        }
    }

    static func isMalformed(_ line: DecodedLine) -> Bool {
        if case .malformed = line { return true }
        return false
    }

    @Test func theSuiteIsThere() {
        #expect(Self.documents(in: "test_parsing").count == 318)
        #expect(Self.documents(in: "test_transform").count == 22)
    }

    @Test(arguments: documents(in: "test_parsing").filter { $0.hasPrefix("y_") })
    func acceptedDocumentsAreAcceptedInsideAnEvent(name: String) {
        let document = Self.bytes("test_parsing", name)
        let result = Self.decodeBytes(Self.wrapped(document))
        guard case .event(let event) = result else {
            Issue.record("\(name): \(result)")
            return
        }
        #expect(event.payload == .outcome(result: .success, task: nil))
        // As a whole line it is valid JSON, so whatever is wrong is not the JSON itself.
        if case .malformed(let problem) = Self.decodeBytes(document) {
            #expect(!problem.reason.hasPrefix("invalid"), "\(name): \(problem)")
            #expect(!problem.reason.hasPrefix("nesting"), "\(name): \(problem)")
        } else {
            Issue.record("\(name) as a whole line is not an event, yet was not malformed")
        }
    }

    @Test(arguments: documents(in: "test_parsing").filter { $0.hasPrefix("n_") })
    func rejectedDocumentsMakeTheLineMalformed(name: String) {
        let document = Self.bytes("test_parsing", name)
        let wrapped = Self.decodeBytes(Self.wrapped(document))
        #expect(Self.isMalformed(wrapped), "\(name) inside an event: \(wrapped)")
        let whole = Self.decodeBytes(document)
        if Self.isJSONWhitespace(document) {
            // SPEC §2: a line of JSON whitespace is blank, not malformed.
            #expect(whole == .blank, "\(name)")
        } else {
            #expect(Self.isMalformed(whole), "\(name) as a whole line: \(whole)")
        }
    }

    @Test(arguments: documents(in: "test_parsing").filter { $0.hasPrefix("i_") })
    func implementationDefinedDocumentsReturn(name: String) {
        let document = Self.bytes("test_parsing", name)
        // Either answer is allowed; the decoder only has to come back.
        _ = Self.decodeBytes(Self.wrapped(document))
        _ = Self.decodeBytes(document)
    }

    /// A whole document (a baseline file) is held to the same grammar as a line: `y_` accepted, `n_`
    /// refused, `i_` answered either way.
    @Test func wholeDocumentsAreCheckedAsLinesAre() {
        let names = Self.documents(in: "test_parsing")
        // The suite is in the repository: a missing folder must fail, not pass with nothing checked.
        #expect(names.filter { $0.hasPrefix("y_") }.count > 50 && names.filter { $0.hasPrefix("n_") }.count > 100, "\(names.count) documents")
        for name in names {
            let accepted = Self.bytes("test_parsing", name).withUnsafeBytes { bytes in
                (try? JSONDocument.validate(bytes)) != nil
            }
            if name.hasPrefix("y_") { #expect(accepted, "\(name)") }
            if name.hasPrefix("n_") { #expect(!accepted, "\(name)") }
        }
    }

    @Test(arguments: [
        // Numbers inside unknown fields: grammar only, any size.
        ("number_-9223372036854775808.json", true), ("number_-9223372036854775809.json", true),
        ("number_1.0.json", true), ("number_1.000000000000000005.json", true),
        ("number_1000000000000000.json", true), ("number_10000000000000000999.json", true),
        ("number_1e-999.json", true), ("number_1e6.json", true),
        ("number_9223372036854775807.json", true), ("number_9223372036854775808.json", true),
        // Keys are compared as bytes, no Unicode normalisation; duplicates inside unknown fields are fine.
        ("object_key_nfc_nfd.json", true), ("object_key_nfd_nfc.json", true),
        ("object_same_key_different_values.json", true), ("object_same_key_same_value.json", true),
        ("object_same_key_unclear_values.json", true),
        // Lone surrogates, escaped or as (invalid) UTF-8, are rejected.
        ("string_1_escaped_invalid_codepoint.json", false), ("string_1_invalid_codepoint.json", false),
        ("string_2_escaped_invalid_codepoints.json", false), ("string_2_invalid_codepoints.json", false),
        ("string_3_escaped_invalid_codepoints.json", false), ("string_3_invalid_codepoints.json", false),
        ("string_with_escaped_NULL.json", true),
    ])
    func transformDocumentsInsideAnEvent(name: String, accepted: Bool) {
        let result = Self.decodeBytes(Self.wrapped(Self.bytes("test_transform", name)))
        #expect(Self.isMalformed(result) == !accepted, "\(name): \(result)")
    }

    /// Integers are read exactly up to the bounds of the years 0000–9999, in whichever JSON spelling
    /// (`1.0`, `1E6`); beyond them, in or out of `Int64`'s range, or with a fractional part however
    /// small, the line is malformed.
    @Test(arguments: [
        ("-62167219200000", -62_167_219_200_000 as Int64?), ("253402300799999", 253_402_300_799_999),
        ("-9223372036854775808", nil), ("9223372036854775807", nil), ("1000000000000000", nil),
        ("-9223372036854775809", nil), ("9223372036854775808", nil), ("10000000000000000999", nil),
        ("1.0", 1), ("1.000000000000000005", nil), ("1E6", 1_000_000), ("1e-999", nil),
        ("2.53402300799999e14", 253_402_300_799_999), ("2.534023008e14", nil),
    ])
    func transformNumbersAsTimestamps(literal: String, milliseconds: Int64?) {
        let result = decodeLine(#"{"ts":\#(literal),"session":"s","type":"session.end"}"#)
        if let milliseconds {
            #expect(result == .event(Event(ts: milliseconds, session: "s", payload: .sessionEnd)))
        } else {
            #expect(Self.isMalformed(result), "\(literal): \(result)")
        }
    }

    @Test func duplicateKeysOfTheEventAreMalformedOthersAreNot() {
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"session.end","a":1,"a":2}"#)
            == .event(Event(ts: 1, session: "s", payload: .sessionEnd)))
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"session.end","session":"t"}"#)
            == .malformed(MalformedLine(reason: #"duplicate key "session""#, column: 43)))
        // The first repetition is the one reported, also when there are more.
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"session.end","session":"t","session":"u"}"#)
            == .malformed(MalformedLine(reason: #"duplicate key "session""#, column: 43)))
        // Same value twice is still a duplicate: the line is ambiguous to other readers.
        #expect(Self.isMalformed(decodeLine(#"{"ts":1,"ts":1,"session":"s","type":"session.end"}"#)))
    }

    /// Valid JSON, so accepted where it is skipped; refused in a text the event keeps (see
    /// `EventDecoder.unescapedText`).
    @Test func escapedNullIsSkippedButNeverKept() {
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"outcome","result":"success","x":"A\u0000B"}"#)
            == .event(Event(ts: 1, session: "s", payload: .outcome(result: .success, task: nil))))
        #expect(decodeLine(#"{"ts":1,"session":"s","type":"outcome","result":"success","task":"A\u0000B"}"#)
            == .malformed(MalformedLine(reason: #"field "task" holds U+0000, at which stores and spreadsheets cut a text"#, column: 65)))
    }
}
