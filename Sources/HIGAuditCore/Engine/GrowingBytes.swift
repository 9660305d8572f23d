/// Bytes written one after another into memory it owns, which grows (doubling) when a write needs
/// more room: what a writer of many small pieces builds on, as a parked session's bytes
/// (`PackedWriter`) and the lines `import` writes (`ImportedLineWriter`).
///
/// Not an array: each append to an array checks that its buffer is unshared and goes through a
/// generic copy, while a writer here makes room once (`reserve`) and then stores into it through
/// `end` unchecked. Noncopyable, so that the memory has one owner, which frees it (`deinit`).
public struct GrowingBytes: ~Copyable {
    /// The first byte; moves when the bytes grow.
    public private(set) var start: UnsafeMutablePointer<UInt8>
    public private(set) var capacity: Int
    /// How many bytes are written: `start[0..<count]`. A writer that stored bytes past it (in room
    /// `reserve` made) moves it past them.
    public var count = 0

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Where the next byte goes.
    @inlinable @inline(__always)
    public var end: UnsafeMutablePointer<UInt8> { start + count }

    /// Makes room for `extra` more bytes past `count`.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(toHold: count &+ extra) }
    }

    @usableFromInline @inline(never)
    mutating func grow(toHold needed: Int) {
        let larger = max(needed, capacity &* 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    /// Appends `bytes` as they are.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let from = bytes.baseAddress { UnsafeMutableRawPointer(end).copyMemory(from: from, byteCount: bytes.count) }
        count &+= bytes.count
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        end.pointee = byte
        count &+= 1
    }

    /// The bytes written (valid only inside `body`).
    @inline(__always)
    public func withBytes<R, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> R) throws(Failure) -> R {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// A copy of the bytes written, in an array of exactly their size.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }
}
