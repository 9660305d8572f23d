import Testing
@testable import HIGAuditCore

@Suite struct KeyMatcherTests {
    func match(_ key: String, padding: Int) -> EventField? {
        let matcher = KeyMatcher()
        defer { matcher.deallocate() }
        let bytes = Array(key.utf8) + Array(repeating: UInt8(ascii: "\""), count: padding)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            return matcher.field(start: start, count: key.utf8.count, readableUpTo: start + buffer.count)
        }
    }

    @Test func everyKeyHasItsOwnBucket() {
        var buckets = Set<Int>()
        for field in EventField.allCases {
            let key = Array("\(field.key)".utf8)
            buckets.insert(KeyMatcher.bucket(length: key.count, first: key[0], last: key[key.count - 1]))
        }
        #expect(buckets.count == EventField.count)
        #expect(EventField.allCases.count == EventField.count)
    }

    @Test(arguments: [0, 1, 40])
    func everyKeyIsFoundWithAndWithoutRoomToReadAhead(padding: Int) {
        for field in EventField.allCases {
            #expect(match("\(field.key)", padding: padding) == field)
            #expect(EventField.matching(ByteSlice(start: field.key.utf8Start, count: field.key.utf8CodeUnitCount)) == field)
        }
    }

    @Test(arguments: [0, 40])
    func nearMissesAreNotKeys(padding: Int) {
        for key in ["", "t", "tS", "Ts", "sessio", "sessionx", "xession", "typ", "types", "app_versioN",
                    "pencil_custom_action_enable", "pencil_custom_action_enabled_", "pencil_custom_action_enablex",
                    "duration_ns", "x_doc", "z", "é", "id\u{0}", "sourcE", "screeN", "objeck"] {
            #expect(match(key, padding: padding) == nil, "\(key)")
        }
    }
}
