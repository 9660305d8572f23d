/// A violation's `detail`, made from an interpolated literal by copying its pieces' bytes into one
/// buffer and making the `String` once.
///
/// Why not `String`'s own interpolation: it appends piece by piece through the standard library's
/// general `String` append, whose bookkeeping (capacity, growth, ASCII and breadcrumb flags) cost more
/// than everything else a rule does to record a violation, and field data has many violations. The
/// text is exactly what `String`'s interpolation writes (`DetailTextTests`): strings as they are,
/// `Int` and `Int64` in decimal, anything else as `String(describing:)`.
public struct DetailText: ExpressibleByStringInterpolation, Sendable {
    public let string: String

    public init(_ text: DetailText) {
        self = text
    }

    public init(stringLiteral value: String) {
        string = value
    }

    public init(stringInterpolation: Interpolation) {
        string = stringInterpolation.makeString()
    }

    public struct Interpolation: StringInterpolationProtocol {
        /// The text so far, on the stack while it fits (details are a line of text), else all of it in
        /// `spill`.
        private var inline = InlineArray<256, UInt8>(repeating: 0)
        private var count = 0
        private var spill: [UInt8]?

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            append(literal)
        }

        public mutating func appendInterpolation(_ value: String) {
            append(value)
        }

        public mutating func appendInterpolation(_ value: Int) {
            appendInterpolation(Int64(value))
        }

        public mutating func appendInterpolation(_ value: Int64) {
            // A sign and at most 19 digits.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                let sign = value < 0 ? 1 : 0
                if sign == 1 { digits[0] = UInt8(ascii: "-") }
                let count = sign &+ DecimalDigits.write(value.magnitude, to: digits.baseAddress! + sign)
                append(UnsafeBufferPointer(rebasing: digits[..<count]))
            }
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            append(String(describing: value))
        }

        private mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { append($0) }
        }

        private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let start = bytes.baseAddress else { return }
            if spill == nil, bytes.count <= inline.count &- count {
                withUnsafeMutableBytes(of: &inline) { ($0.baseAddress! + count).copyMemory(from: start, byteCount: bytes.count) }
                count &+= bytes.count
                return
            }
            if spill == nil { spill = withUnsafeBytes(of: inline) { Array($0.prefix(count)) } }
            spill!.append(contentsOf: bytes)
        }

        fileprivate func makeString() -> String {
            if let spill { return String(decoding: spill, as: UTF8.self) }
            return withUnsafeBytes(of: inline) {
                String(decoding: UnsafeBufferPointer(rebasing: $0.assumingMemoryBound(to: UInt8.self)[..<count]), as: UTF8.self)
            }
        }
    }
}
