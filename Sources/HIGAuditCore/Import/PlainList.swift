/// A list of plain values whose memory its owner frees (`deallocate`), emptied by forgetting its
/// count: a plain value, as `JSONTape` is.
///
/// Why: `OTLPRequestReader`'s lists are handed to the reader and back on every line and emptied
/// there. As arrays, each hand-over retained and released them, each append asked whether they were
/// uniquely referenced, and each emptying went through the generic `replaceSubrange`.
struct PlainList<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    init() {}

    /// Frees the memory; the list (and every copy of it) must not be used afterwards.
    func deallocate() {
        base?.deallocate()
    }

    var indices: Range<Int> { 0..<count }

    subscript(_ index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "index out of range")
            return base.unsafelyUnwrapped[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "index out of range")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: element)
        count &+= 1
    }

    /// Forgets the elements, keeping the memory.
    @inline(__always)
    mutating func removeAll() {
        count = 0
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: max(16, capacity * 2))
        if let base {
            grown.initialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = max(16, capacity * 2)
    }
}
