extension EventImporter {
    /// What `OTLPRequestReader` found in a request: where the members and attributes that
    /// `otlpPlaces` looks up by name are, as tape entries. Its lists are kept from line to line, and
    /// freed by the importer (`deallocate`).
    struct OTLPRequestParts {
        var resourceLogs: Int?
        /// The parts of each attribute of every list the importer reads (a resource's, a record's),
        /// in the line's order; the lists below name their ranges.
        var attributes = PlainList<AttributeParts>()
        /// Per element of `resourceLogs` that is an object, its resource's attributes.
        var resources = PlainList<PartsRange>()
        var records = PlainList<RecordParts>()
        /// The first place where the request's frame is not OTLP/JSON's (`OTLPPlaces.misframed`).
        var misframed: (reason: String, entry: Int)?

        /// One element of a `logRecords` array.
        struct RecordParts {
            var record: Int
            /// Its request's resource, in `resources`.
            var resource: Int
            /// Nil when the element is no object.
            var members: RecordMembers?
            var attributes: PartsRange
        }

        /// A range of `attributes`, kept in 32 bits a bound (a `Range` is not a plain value to `PlainList`).
        struct PartsRange {
            private var lower: Int32
            private var upper: Int32

            init(_ range: Range<Int>) {
                lower = Int32(truncatingIfNeeded: range.lowerBound)
                upper = Int32(truncatingIfNeeded: range.upperBound)
            }

            var indices: Range<Int> { Int(lower)..<Int(upper) }
        }

        mutating func clear() {
            resourceLogs = nil
            misframed = nil
            attributes.removeAll()
            resources.removeAll()
            records.removeAll()
        }

        func deallocate() {
            attributes.deallocate()
            resources.deallocate()
            records.deallocate()
        }
    }

    /// Reads an OTLP/JSON logs request as `JSONTape.read` reads a line, writing the same entries, and
    /// notes on the way where its resources, records, record members and attributes are: each the
    /// first of its name, as the look-ups of `otlpPlaces` find them.
    ///
    /// Why: records whose attributes come in an order of their own (OpenTelemetry Swift writes a Swift
    /// dictionary, whose order is per instance) seldom repeat a layout, and a line read the general way
    /// paid for the tape and then again for walking it by name. Where a request keeps what the importer
    /// reads is fixed by OTLP/JSON; the order of members and attributes is not, and this reader
    /// takes them in any order, as the tape does.
    ///
    /// It declines a line (`read` returns false) that has a key with escapes (keys then compare
    /// unescaped: the general way does that) and a malformed line (`JSONTape.read` says why).
    struct OTLPRequestReader {
        private(set) var tape: JSONTape
        private(set) var parts: OTLPRequestParts
        private var s: JSONScanner

        init(tape: JSONTape, parts: OTLPRequestParts, line: UnsafePointer<UInt8>, count: Int) {
            self.tape = tape
            self.parts = parts
            s = JSONScanner(base: line, count: count)
        }

        /// Reads the line; false when it declines it (the tape's entries are then not the line's:
        /// `JSONTape.read` reads it).
        mutating func read() -> Bool {
            parts.clear()
            guard s.end > 0, s.end < Int(Int32.max) else { return false }
            tape.begin(UnsafeRawBufferPointer(start: s.base, count: s.end))
            do {
                s.skipWhitespace()
                guard at(0x7B) else { return false }
                try request()
                s.skipWhitespace()
                return s.pos == s.end
            } catch {
                return false
            }
        }

        private mutating func request() throws {
            try object(depth: 1) { reader, key in
                guard reader.parts.resourceLogs == nil, key == "resourceLogs" else { return false }
                reader.parts.resourceLogs = reader.tape.entryCount
                guard reader.at(0x5B) else { return false }
                var position = 0
                try reader.array(depth: 2) { reader in
                    position += 1
                    try reader.resourceLog(position)
                }
                return true
            }
        }

        /// Notes the request's first place whose frame is not OTLP/JSON's, as `otlpPlaces` finds it
        /// (the same reason, at the same entry: both walk the frame in the line's order), and reads on:
        /// the tape is the general scan's all the same.
        private mutating func noteMisframed(_ reason: @autoclosure () -> String) {
            if parts.misframed == nil { parts.misframed = (reason(), tape.entryCount) }
        }

        /// A list's value that is no array, read as any value: a null is an empty list, as the
        /// general way reads it; anything else misframes the request.
        private mutating func notList(_ key: String) -> Bool {
            if !at(0x6E) { noteMisframed("\(key) is not an array") }
            return false
        }

        /// The `position`-th element of `resourceLogs`, 3 deep.
        private mutating func resourceLog(_ position: Int) throws {
            guard at(0x7B) else {
                noteMisframed("element \(position) of resourceLogs is not an object")
                return try value(depth: 2)
            }
            let resource = parts.resources.count
            parts.resources.append(.init(0..<0))
            var sawResource = false
            var sawScopeLogs = false
            try object(depth: 3) { reader, key in
                if !sawResource, key == "resource" {
                    sawResource = true
                    guard reader.at(0x7B) else { return false }
                    try reader.resourceObject(resource)
                    return true
                }
                if !sawScopeLogs, key == "scopeLogs" {
                    sawScopeLogs = true
                    guard reader.at(0x5B) else { return reader.notList("scopeLogs") }
                    var position = 0
                    try reader.array(depth: 4) { reader in
                        position += 1
                        try reader.scopeLog(resource, position)
                    }
                    return true
                }
                return false
            }
        }

        private mutating func resourceObject(_ resource: Int) throws {
            var sawAttributes = false
            try object(depth: 4) { reader, key in
                guard !sawAttributes, key == "attributes" else { return false }
                sawAttributes = true
                guard reader.at(0x5B) else { return false }
                let first = reader.parts.attributes.count
                try reader.attributeList(depth: 5)
                reader.parts.resources[resource] = .init(first..<reader.parts.attributes.count)
                return true
            }
        }

        /// The `position`-th element of a `scopeLogs`, 5 deep.
        private mutating func scopeLog(_ resource: Int, _ position: Int) throws {
            guard at(0x7B) else {
                noteMisframed("element \(position) of scopeLogs is not an object")
                return try value(depth: 4)
            }
            var sawRecords = false
            try object(depth: 5) { reader, key in
                guard !sawRecords, key == "logRecords" else { return false }
                sawRecords = true
                guard reader.at(0x5B) else { return reader.notList("logRecords") }
                try reader.array(depth: 6) { reader in try reader.record(resource) }
                return true
            }
        }

        /// An element of a `logRecords`, 7 deep.
        private mutating func record(_ resource: Int) throws {
            let record = tape.entryCount
            guard at(0x7B) else {
                try value(depth: 6)
                parts.records.append(.init(record: record, resource: resource, members: nil, attributes: .init(0..<0)))
                return
            }
            var members = RecordMembers()
            var attributes = OTLPRequestParts.PartsRange(0..<0)
            try object(depth: 7) { reader, key in
                let value = reader.tape.entryCount
                switch key.count {
                case 10:
                    guard members.attributes == nil, key == "attributes" else { return false }
                    members.attributes = value
                    guard reader.at(0x5B) else { return false }
                    let first = reader.parts.attributes.count
                    try reader.attributeList(depth: 8)
                    attributes = .init(first..<reader.parts.attributes.count)
                    return true
                case 9:
                    if members.eventName == nil, key == "eventName" { members.eventName = value }
                case 12:
                    if members.timeUnixNano == nil, key == "timeUnixNano" { members.timeUnixNano = value }
                case 20:
                    if members.observedTimeUnixNano == nil, key == "observedTimeUnixNano" { members.observedTimeUnixNano = value }
                default:
                    break
                }
                return false
            }
            parts.records.append(.init(record: record, resource: resource, members: members, attributes: attributes))
        }

        /// A list of attributes whose `[` is at `s.pos`, `depth` deep: each object's parts appended to
        /// `parts.attributes` (`attributeParts` of an element that is none is empty: left out).
        private mutating func attributeList(depth: Int) throws {
            try array(depth: depth) { reader in
                guard reader.at(0x7B) else { return try reader.value(depth: depth) }
                var attribute = AttributeParts()
                if try reader.compactAttribute(depth: depth + 1, &attribute) {
                    reader.parts.attributes.append(attribute)
                    return
                }
                try reader.object(depth: depth + 1) { reader, key in
                    if key.count == 3 {
                        if attribute.key == nil, key == "key" { attribute.key = reader.tape.entryCount }
                        return false
                    }
                    guard attribute.value == nil, key == "value" else { return false }
                    attribute.value = reader.tape.entryCount
                    guard reader.at(0x7B) else { return false }
                    try reader.typedValue(depth: depth + 2, &attribute)
                    return true
                }
                reader.parts.attributes.append(attribute)
            }
        }

        /// An attribute's `value` object: its typed members, the first of each name.
        private mutating func typedValue(depth: Int, _ attribute: inout AttributeParts) throws {
            try object(depth: depth) { reader, key in
                let value = reader.tape.entryCount
                switch key.count {
                case 11:
                    if attribute.stringValue == nil, key == "stringValue" { attribute.stringValue = value }
                    else if attribute.doubleValue == nil, key == "doubleValue" { attribute.doubleValue = value }
                case 8:
                    if attribute.intValue == nil, key == "intValue" { attribute.intValue = value }
                case 9:
                    if attribute.boolValue == nil, key == "boolValue" { attribute.boolValue = value }
                default:
                    break
                }
                return false
            }
        }

        /// The attribute whose `{` is at `s.pos`, `depth` deep, when it is written as OTLP/JSON
        /// writers write one, `{"key":"…","value":{"<kind>Value":…}}` with nothing between its tokens
        /// and a plain key whose closing quote `JSONScanner.plainStringEnd` finds (within its first 32
        /// bytes, 16 when fewer remain in the line): read by comparing its fixed bytes, not by the
        /// object grammar's loop. False, with the tape and the place as they were, for another.
        @inline(__always)
        private mutating func compactAttribute(depth: Int, _ attribute: inout AttributeParts) throws -> Bool {
            let start = s.pos
            guard matches(start, "{\"key\":\"") else { return false }
            let keyStart = start &+ 8
            guard let keyEnd = JSONScanner.plainStringEnd(s.base, from: keyStart, end: s.end),
                  matches(keyEnd, "\",\"value\":{\"") else { return false }
            let kindStart = keyEnd &+ 12
            let kindLength: Int
            if matches(kindStart, "stringValue\":") { kindLength = 11 }
            else if matches(kindStart, "intValue\":") { kindLength = 8 }
            else if matches(kindStart, "doubleValue\":") { kindLength = 11 }
            else if matches(kindStart, "boolValue\":") { kindLength = 9 }
            else { return false }
            // The value, with no space before it (read by the grammar's loop).
            let valueStart = kindStart &+ kindLength &+ 2
            guard valueStart < s.end, s.base[valueStart] > 0x20 else { return false }
            // The entries `JSONTape.container` writes: the attribute, "key", its name, "value", the
            // value's object, its kind's key; then the typed value itself.
            let object = tape.entryCount
            let entries = tape.reserve(6)
            entries[0] = .container(object: true, at: start)
            entries[1] = .plainString(from: start &+ 2, to: start &+ 5, at: object &+ 1)
            entries[2] = .plainString(from: keyStart, to: keyEnd, at: object &+ 2)
            entries[3] = .plainString(from: keyEnd &+ 3, to: keyEnd &+ 8, at: object &+ 3)
            entries[4] = .container(object: true, at: keyEnd &+ 10)
            entries[5] = .plainString(from: kindStart, to: kindStart &+ kindLength, at: object &+ 5)
            tape.commit(6)
            attribute.key = object &+ 2
            attribute.value = object &+ 4
            let value = object &+ 4
            let typed = object &+ 6
            s.pos = valueStart
            try self.value(depth: depth &+ 1)
            guard matches(s.pos, "}}") else {
                tape.truncate(to: object)
                s.pos = start
                attribute = AttributeParts()
                return false
            }
            switch kindLength {
            case 8: attribute.intValue = typed
            case 9: attribute.boolValue = typed
            default:
                if s.base[kindStart] == 0x73 { attribute.stringValue = typed } else { attribute.doubleValue = typed }
            }
            s.pos &+= 2
            tape.close(value, end: s.pos &- 1)
            tape.close(object, end: s.pos)
            return true
        }

        /// Whether `literal` is at `place`, within the line.
        @inline(__always)
        private func matches(_ place: Int, _ literal: StaticString) -> Bool {
            s.end &- place >= literal.utf8CodeUnitCount
                && ByteComparison.equal(s.base + place, literal.utf8Start, count: literal.utf8CodeUnitCount)
        }

        // MARK: The grammar, as `JSONTape.container` reads it

        @inline(__always)
        private func at(_ byte: UInt8) -> Bool {
            s.pos < s.end && s.base[s.pos] == byte
        }

        /// Any value at `s.pos`, `depth` containers deep, read as the tape reads it.
        @inline(__always)
        private mutating func value(depth: Int) throws {
            if at(0x22) {
                let start = s.pos &+ 1
                s.pos = start
                let escaped = try s.scanStringBody()
                tape.appendString(from: start, to: s.pos &- 1, escaped: escaped)
            } else {
                try tape.appendValue(&s, depth: depth)
            }
        }

        /// The object whose `{` is at `s.pos`, `depth` deep. `member` is handed each key, with `s` at
        /// the value, and reads the value itself (true) or leaves it to be read as any value (false).
        @inline(__always)
        private mutating func object(
            depth: Int, _ member: (inout Self, ByteSlice) throws -> Bool
        ) throws {
            let index = tape.open(object: true, at: s.pos)
            s.pos &+= 1
            s.skipWhitespace()
            if at(0x7D) {
                s.pos &+= 1
            } else {
                while true {
                    guard at(0x22) else { throw MalformedLine(reason: "expected a quoted key in a JSON object", column: s.pos) }
                    let start = s.pos &+ 1
                    s.pos = start
                    guard try !s.scanStringBody() else { throw MalformedLine(reason: "a key with escapes", column: start) }
                    let end = s.pos &- 1
                    tape.appendString(from: start, to: end, escaped: false)
                    try s.expectColon()
                    if try !member(&self, ByteSlice(start: s.base + start, count: end &- start)) { try value(depth: depth) }
                    if try next(close: 0x7D) { break }
                }
            }
            tape.close(index, end: s.pos)
        }

        /// The array whose `[` is at `s.pos`, `depth` deep; `element` reads each element.
        @inline(__always)
        private mutating func array(depth: Int, _ element: (inout Self) throws -> Void) throws {
            let index = tape.open(object: false, at: s.pos)
            s.pos &+= 1
            s.skipWhitespace()
            if at(0x5D) {
                s.pos &+= 1
            } else {
                while true {
                    guard s.pos < s.end else { throw MalformedLine(reason: "the line ends inside a value", column: s.pos) }
                    try element(&self)
                    if try next(close: 0x5D) { break }
                }
            }
            tape.close(index, end: s.pos)
        }

        /// After a member or element: past a `,` (and whitespace), or past the closing byte (true).
        @inline(__always)
        private mutating func next(close: UInt8) throws -> Bool {
            s.skipWhitespace()
            guard s.pos < s.end else { throw MalformedLine(reason: "the line ends inside a JSON value", column: s.pos) }
            let byte = s.base[s.pos]
            s.pos &+= 1
            if byte == close { return true }
            guard byte == 0x2C else { throw MalformedLine(reason: "expected , or a closing bracket in JSON", column: s.pos &- 1) }
            s.skipWhitespace()
            return false
        }
    }
}
