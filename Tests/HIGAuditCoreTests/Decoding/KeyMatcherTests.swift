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
        let matcher = KeyMatcher()
        defer { matcher.deallocate() }
        var buckets = Set<Int>()
        for field in EventField.allCases {
            let key = Array("\(field.key)".utf8)
            buckets.insert(matcher.bucket(length: key.count, first: key[0], last: key[key.count - 1]))
        }
        #expect(buckets.count == EventField.count)
        #expect(EventField.allCases.count == EventField.count)
    }

    /// Keys the (length, first, last) hash cannot tell apart are found before any table is built.
    @Test func keysOfTheSameLengthFirstAndLastByteAreAClash() {
        let keys = ["ts", "type", "tape", "tyre", "kind"].map { Array($0.utf8) }
        #expect(KeyMatcher.lengthFirstLastClashes(keys).map { [$0.0, $0.1] } == [[1, 2], [2, 3]])
        #expect(KeyMatcher.lengthFirstLastClashes(KeyMatcher.keys).isEmpty)
    }

    /// Keys sharing their first eight bytes are left to the general reading; the others keep their
    /// buckets.
    @Test func keysSharingTheirFirstBytesAreNotRecognisedByTheirHeads() throws {
        let keys = ["content_id", "content_type", "ts", "content"].map { Array($0.utf8) }
        let (hash, buckets) = try #require(KeyMatcher.firstBytesTable(keys))
        #expect(buckets.map(\.key) == [2, 3])
        #expect(Set(buckets.map(\.bucket)).count == 2)
        #expect(buckets[0].bucket == hash.bucket(KeyMatcher.firstBytes(ofKey: keys[2])))
    }

    /// The multipliers are found, not chosen: the same keys always give the same one, and any set of
    /// distinct signatures that fits is separated.
    @Test func aHashIsFoundForAnyDistinctSignatures() throws {
        let signatures = (0..<64).map { UInt64($0) &* 0x0101_0101 }
        let hash = try #require(PerfectHash(separating: signatures, bits: 8))
        #expect(Set(signatures.map(hash.bucket)).count == signatures.count)
        #expect(PerfectHash(separating: signatures, bits: 8)?.multiplier == hash.multiplier)
        #expect(PerfectHash(separating: [1, 2, 1], bits: 8) == nil)
        #expect(PerfectHash(separating: (0..<9).map(UInt64.init), bits: 3) == nil)
        #expect(PerfectHash.bits(forKeys: 36, minimum: 7) == 8)
        #expect(PerfectHash.bits(forKeys: 20, minimum: 7) == 7)
    }

    @Test func aHeadLongerThanOneComparisonIsRefused() {
        #expect(KeyMatcher.longestKey == 29)
        #expect(EventField.allCases.allSatisfy { $0.key.utf8CodeUnitCount <= KeyMatcher.longestKey })
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

    /// What `headField` finds at the start of `text` (the key's opening quote), with `padding` bytes
    /// readable after it.
    func head(_ text: String, padding: Int = 32, recognisesHeads: Bool = true) -> EventField? {
        let matcher = KeyMatcher(recognisesHeads: recognisesHeads)
        defer { matcher.deallocate() }
        let bytes = Array(text.utf8) + Array(repeating: UInt8(ascii: " "), count: padding)
        return bytes.withUnsafeBufferPointer { buffer in
            matcher.headField(start: buffer.baseAddress!, readableUpTo: buffer.baseAddress! + buffer.count)
        }
    }

    @Test func everyKeysFirstBytesHaveTheirOwnBucket() {
        let matcher = KeyMatcher()
        defer { matcher.deallocate() }
        let buckets = Set(EventField.allCases.map {
            matcher.firstBytesBucket(KeyMatcher.firstBytes(ofKey: Array("\($0.key)".utf8)))
        })
        #expect(buckets.count == EventField.count)
    }

    /// The first bytes of a key on a line, whatever follows it, are those the table was built from.
    @Test func firstBytesStopAtTheKeysClosingQuote() {
        for field in EventField.allCases {
            for rest in [#":"x","#, ":1.5}", #":""#, ": null"] {
                let bytes = Array("\(field.key)\"\(rest)        ".utf8)
                var word: UInt64 = 0
                for i in 0..<8 { word |= UInt64(bytes[i]) << (8 * UInt64(i)) }
                #expect(KeyMatcher.firstBytes(word) == KeyMatcher.firstBytes(ofKey: Array("\(field.key)".utf8)), "\(field)")
            }
        }
    }

    /// Far from the line's end and right before it (the value and the closing brace all that follow),
    /// where the key's first bytes can be read: 9 bytes from the key's opening quote.
    @Test(arguments: [0, 32])
    func everyCompactHeadIsRecognisedWhateverTheValue(padding: Int) {
        for field in EventField.allCases {
            for value in [#""text"}"#, "1}", "true}", "null}", "[1]}", #"{"a":1}}"#, " \"spaced\"}"] {
                let text = "\"\(field.key)\":\(value)"
                let expected = text.utf8.count + padding >= 9 ? field : nil
                #expect(head(text, padding: padding) == expected, "\(field) \(value)")
            }
        }
    }

    @Test(arguments: [0, 32])
    func otherHeadsAreLeftToTheGeneralReading(padding: Int) {
        for text in [#""sdk":1}"#, #""t":1}"#, #""tsx":1}"#, #""sessio":"a"}"#, #""sessions":"a"}"#, #""ts" :1}"#,
                     #""ts"x1}"#, #""t\u0073":1}"#, #""app_versioN":"1"}"#, #""pencil_custom_action_enable":true}"#,
                     #""pencil_preferred_actions":"ignore"}"#, #" "ts":1}"#, #"{"ts":1}"#, #""X":1}"#, #""x""#,
                     #""session""#, #""session":"#.dropLast().description] {
            #expect(head(text, padding: padding) == nil, "\(text)")
        }
    }

    @Test func aStrictMatcherRecognisesNoHead() {
        for field in EventField.allCases {
            #expect(head("\"\(field.key)\":1}", recognisesHeads: false) == nil)
        }
    }
}
