/// The seven text fields of an event (`session`, `device`, `app`, `app_version`, `os_version`,
/// `screen`, `id`) as plain words (a canonical UUID as its 128 bits, `PackedUUID`), with the rare other
/// text of more than 16 bytes kept aside.
///
/// Held as seven `CompactText?`, an event would cost a switch over each of them whenever it is copied
/// or destroyed, and 168 bytes that the engine's reorder buffer copies. Here they take 128 bytes, and
/// copying or destroying them is a retain or release of one reference, nil unless a text is long.
struct EventTexts: Sendable {
    /// The one list of an event's text fields; `EventField` starts with the same cases in the same
    /// order, and the decoder's lists of common and session texts are derived from this one.
    enum Slot: Int, CaseIterable {
        case session, device, app, appVersion, osVersion, screen, id

        /// The field of the log that fills the slot: `EventField` lists the text fields first, in this
        /// order (`EventFieldListTests`).
        var field: EventField { EventField(rawValue: rawValue)! }

        /// Whether the slot is read as a common field whatever the event's type: all but `id`, which a
        /// loading operation's type reads as its own (see `EventDecoder`).
        var isCommon: Bool { self != .id }

        /// Whether apps keep the slot's text for all of a session's events: the common texts but the
        /// screen (see `LineShapes.carrySessionTexts`).
        var isSessionWide: Bool { isCommon && self != .screen }
    }

    /// The inline texts' words and every slot's length.
    private var inline = InlineTexts()
    /// The texts of the slots marked `Self.long`, at their slots' indices.
    private var longTexts: LongTexts?

    fileprivate static let absent: UInt64 = 0
    fileprivate static let long: UInt64 = 0xFF

    /// No texts: the decoder sets them one by one (`setInline`, the subscript).
    init() {}

    /// The texts of `inline`, none of them long: the texts a line shape's lines share (see
    /// `LineShapes`), the decoder then setting the others.
    @inline(__always)
    init(_ inline: InlineTexts) {
        assert(Slot.allCases.allSatisfy { (inline.lengths &>> UInt64($0.rawValue &* 8)) & 0xFF != Self.long })
        self.inline = inline
    }

    init(
        session: CompactText, device: CompactText?, app: CompactText?, appVersion: CompactText?,
        osVersion: CompactText?, screen: CompactText?, id: CompactText?
    ) {
        self[.session] = session
        self[.device] = device
        self[.app] = app
        self[.appVersion] = appVersion
        self[.osVersion] = osVersion
        self[.screen] = screen
        self[.id] = id
    }

    /// The session text, which every event has (its initialisers and setter take no nil).
    var session: CompactText {
        @inline(__always) get { self[.session] ?? CompactText(low: 0, high: 0, count: 0) }
    }

    /// Sets an absent slot to the text of `count` ≤ 16 bytes of valid UTF-8 at `start`, of which
    /// `readable` bytes may be read: the decoder's way, with no `CompactText` made and consumed.
    @inline(__always)
    mutating func setInline(_ slot: Slot, bytes start: UnsafePointer<UInt8>, count: Int, readable: Int) {
        assert(!has(slot), "setInline on a slot already set")
        inline.setInline(slot, bytes: start, count: count, readable: readable)
    }

    /// Sets an absent slot to a UUID that `PackedUUID.pack` packed.
    @inline(__always)
    mutating func setPacked(_ slot: Slot, low: UInt64, high: UInt64, count: UInt8) {
        assert(!has(slot), "setPacked on a slot already set")
        inline.setWords(slot, low: low, high: high, length: UInt64(count) &+ 1)
    }

    /// Whether both have their long texts in the same object, shared as the decoder shares it between
    /// events with the same long texts (`setLong`); for tests.
    func sharesLongTexts(with other: EventTexts) -> Bool {
        longTexts != nil && longTexts === other.longTexts
    }

    /// Whether the slot has a text.
    @inline(__always)
    func has(_ slot: Slot) -> Bool { length(slot) != Self.absent }

    /// Whether the slot has exactly `text` (nil: has none), told without making a `CompactText` to
    /// compare and destroy, as the engine asks on every event.
    @inline(__always)
    func holds(_ text: CompactText?, in slot: Slot) -> Bool {
        let length = length(slot)
        guard let text else { return length == Self.absent }
        guard let parts = text.inlineParts else { return length == Self.long && Self.longText(longTexts, slot, is: text) }
        let stored = inline.words[slot]
        return length == UInt64(parts.count) &+ 1 && stored.low == parts.low && stored.high == parts.high
    }

    /// The slot's text's `CompactText.fingerprint`; nil when it has none.
    @inline(__always)
    func fingerprint(_ slot: Slot) -> UInt64? {
        let length = length(slot)
        if length == Self.absent { return nil }
        if length == Self.long { return Self.longText(longTexts, slot)?.fingerprint }
        let stored = inline.words[slot]
        return CompactText.inlineFingerprint(
            low: stored.low, high: stored.high, count: UInt8(truncatingIfNeeded: length &- 1))
    }

    /// The slot's text as `CompactText`'s inline words and byte count; nil when it has none, it is
    /// long or it is a packed UUID. The bytes after `count` are zero.
    @inline(__always)
    func inlineWords(_ slot: Slot) -> (low: UInt64, high: UInt64, count: Int)? {
        let length = length(slot)
        if length == Self.absent || length > UInt64(CompactText.inlineCapacity) &+ 1 { return nil }
        let stored = inline.words[slot]
        return (stored.low, stored.high, Int(truncatingIfNeeded: length &- 1))
    }

    @inline(__always)
    private func length(_ slot: Slot) -> UInt64 { (inline.lengths &>> UInt64(slot.rawValue &* 8)) & 0xFF }

    @inline(__always)
    subscript(slot: Slot) -> CompactText? {
        get {
            let length = length(slot)
            if length == Self.absent { return nil }
            if length == Self.long { return Self.longText(longTexts, slot) }
            let stored = inline.words[slot]
            return CompactText(low: stored.low, high: stored.high, count: UInt8(truncatingIfNeeded: length &- 1))
        }
        set {
            let shift = UInt64(slot.rawValue &* 8)
            let wasLong = (inline.lengths &>> shift) & 0xFF == Self.long
            var length = Self.absent
            var words = InlineTexts.Words()
            if let newValue {
                if let parts = newValue.inlineParts {
                    length = UInt64(parts.count) &+ 1
                    words = InlineTexts.Words(low: parts.low, high: parts.high)
                } else {
                    length = Self.long
                }
            }
            if wasLong || length == Self.long { setLongText(newValue?.longText, slot) }
            inline.lengths = (inline.lengths & ~(0xFF &<< shift)) | (length &<< shift)
            self.inline.words[slot] = words
        }
    }

    /// Takes the reference, not `self`: a call with `self` made every caller copy the whole block to
    /// the stack to pass it, even when the call was on a path not taken.
    @inline(never)
    private static func longText(_ longTexts: LongTexts?, _ slot: Slot) -> CompactText? {
        longTexts?.texts[slot].map(CompactText.init)
    }

    /// Whether a long slot holds the long `text`, compared without making a `CompactText` of it (the
    /// engine asks for every event of a session with a long id).
    @inline(never)
    private static func longText(_ longTexts: LongTexts?, _ slot: Slot, is text: CompactText) -> Bool {
        guard let mine = longTexts?.texts[slot], let theirs = text.longText else { return false }
        return CompactText.sameBytes(mine, theirs)
    }

    /// Sets or clears a slot's long text; the reference is dropped when no long text is left.
    @inline(never)
    private mutating func setLongText(_ text: String?, _ slot: Slot) {
        var texts = longTexts?.texts ?? LongTextSlots()
        texts[slot] = text
        longTexts = texts.isEmpty ? nil : LongTexts(texts)
    }

    /// Sets an absent slot to a text of more than 16 bytes, the decoder's way: the texts are gathered in
    /// `reuse` and become the event's in `finishLongTexts`, shared with the previous event when its long
    /// texts were the same.
    mutating func setLong(_ slot: Slot, _ text: String, reuse: UnsafeMutablePointer<LongTextsReuse>) {
        assert(!has(slot), "setLong on a slot already set")
        inline.lengths |= Self.long &<< UInt64(slot.rawValue &* 8)
        reuse.pointee.pending[slot] = text
        reuse.pointee.pendingSlots |= 1 &<< UInt8(slot.rawValue)
    }

    /// Ends the decoder's setting of texts (see `setLong`).
    @inline(__always)
    mutating func finishLongTexts(_ reuse: UnsafeMutablePointer<LongTextsReuse>) {
        if reuse.pointee.pendingSlots != 0 { takeLongTexts(reuse) }
    }

    @inline(never)
    private mutating func takeLongTexts(_ reuse: UnsafeMutablePointer<LongTextsReuse>) {
        if let recent = reuse.pointee.recent, recent.texts.hasSameBytes(as: reuse.pointee.pending) {
            longTexts = recent
            reuse.pointee.discardPendingTexts()
        } else {
            // Moved out, not copied and cleared: clearing all seven released each, nil or not.
            var texts = LongTextSlots()
            swap(&texts, &reuse.pointee.pending)
            reuse.pointee.pendingSlots = 0
            let made = LongTexts(texts)
            reuse.pointee.recent = made
            longTexts = made
        }
    }
}

// MARK: - Parked events

extension EventTexts {
    /// Bit `1 << slot.rawValue` for each slot but the session's that has a text (`present`), and for each
    /// of those whose text is the one `previous` has in that slot (`repeated`): what `PackedWriter.event`
    /// writes. Read from the lengths and words where they lie: asking slot by slot through the
    /// subscript copied both blocks of texts for every slot.
    @inline(__always)
    func presence(comparedWith previous: borrowing EventTexts) -> (present: UInt8, repeated: UInt8) {
        var present: UInt8 = 0
        var repeated: UInt8 = 0
        for raw in 1..<Slot.allCases.count {
            let slot = Slot(rawValue: raw).unsafelyUnwrapped
            let length = length(slot)
            if length == Self.absent { continue }
            let bit = UInt8(1) &<< UInt8(raw)
            present |= bit
            guard length == previous.length(slot) else { continue }
            if length == Self.long {
                if Self.sameLongText(longTexts, previous.longTexts, slot) { repeated |= bit }
            } else if inline.words[slot] == previous.inline.words[slot] {
                repeated |= bit
            }
        }
        return (present, repeated)
    }

    /// The slot's text as `CompactText` keeps it inline: its words and count (a `PackedUUID` count for a
    /// packed UUID). Nil when the slot has no text or a long one (read that through the subscript).
    @inline(__always)
    func inlineParts(_ slot: Slot) -> (low: UInt64, high: UInt64, count: UInt8)? {
        let length = length(slot)
        if length == Self.absent || length == Self.long { return nil }
        let stored = inline.words[slot]
        return (stored.low, stored.high, UInt8(truncatingIfNeeded: length &- 1))
    }

    /// Clears each slot but the session's whose bit (`1 << slot.rawValue`) is not in `present`.
    @inline(__always)
    mutating func keepOnly(_ present: UInt8) {
        for raw in 1..<Slot.allCases.count where present & (UInt8(1) &<< UInt8(raw)) == 0 {
            let slot = Slot(rawValue: raw).unsafelyUnwrapped
            if has(slot) { self[slot] = nil }
        }
    }

    @inline(never)
    private static func sameLongText(_ mine: LongTexts?, _ theirs: LongTexts?, _ slot: Slot) -> Bool {
        guard let mine = mine?.texts[slot], let theirs = theirs?.texts[slot] else { return false }
        return CompactText.sameBytes(mine, theirs)
    }
}

extension EventTexts: Equatable {
    static func == (a: EventTexts, b: EventTexts) -> Bool {
        guard a.inline == b.inline else { return false }
        // Equal lengths mark the same slots long; their texts compare by bytes, as `CompactText`'s do.
        guard let aLong = a.longTexts, let bLong = b.longTexts else { return true }
        return aLong === bLong || aLong.texts.hasSameBytes(as: bLong.texts)
    }
}

/// The inline part of `EventTexts`: the words of its texts of up to 16 bytes and every slot's length.
/// Trivial (no reference), so that a line shape can keep, in its raw storage, the texts that its
/// lines share, and the decoder start each matched line's texts from them
/// (`LineShapes.sharedTextsOfLatestMatch`).
struct InlineTexts: Equatable, Sendable {
    /// A slot's bytes 0–7 and 8–15, as `CompactText` has them; zero for an absent or long text, so that
    /// equal texts are equal words.
    fileprivate struct Words: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
    }

    fileprivate var words = PerSlot(Words())
    /// Byte `slot.rawValue` is the slot's length in bytes + 1 when inline (1–17), a `PackedUUID` count
    /// + 1 for a packed UUID, else `EventTexts.long` or `EventTexts.absent` (0, so that no texts is all
    /// zeros and setting a slot that has none is an `or`).
    fileprivate var lengths: UInt64 = 0

    init() {}

    /// Sets an absent slot to the text of `count` ≤ 16 bytes of valid UTF-8 at `start`, of which
    /// `readable` bytes may be read.
    @inline(__always)
    mutating func setInline(_ slot: EventTexts.Slot, bytes start: UnsafePointer<UInt8>, count: Int, readable: Int) {
        let parts = CompactText.inlineWords(start, count: count, readable: readable)
        lengths |= UInt64(count &+ 1) &<< UInt64(slot.rawValue &* 8)
        words[slot] = Words(low: parts.low, high: parts.high)
    }

    /// Sets an absent slot to these words and length byte.
    @inline(__always)
    mutating func setWords(_ slot: EventTexts.Slot, low: UInt64, high: UInt64, length: UInt64) {
        lengths |= length &<< UInt64(slot.rawValue &* 8)
        words[slot] = Words(low: low, high: high)
    }
}

/// One value per slot of `EventTexts`: the words of its inline texts, and its long texts
/// (`LongTextSlots`). Stored fields, not an array (an allocation) or a tuple read through its bytes
/// (the runtime looked up the tuple's type metadata on every access).
struct PerSlot<Value> {
    fileprivate var session, device, app, appVersion, osVersion, screen, id: Value

    init(_ value: Value) {
        (session, device, app, appVersion, osVersion, screen, id) = (value, value, value, value, value, value, value)
    }

    subscript(slot: EventTexts.Slot) -> Value {
        @inline(__always) get {
            switch slot {
            case .session: session
            case .device: device
            case .app: app
            case .appVersion: appVersion
            case .osVersion: osVersion
            case .screen: screen
            case .id: id
            }
        }
        @inline(__always) set {
            switch slot {
            case .session: session = newValue
            case .device: device = newValue
            case .app: app = newValue
            case .appVersion: appVersion = newValue
            case .osVersion: osVersion = newValue
            case .screen: screen = newValue
            case .id: id = newValue
            }
        }
    }
}

extension PerSlot: Sendable where Value: Sendable {}
extension PerSlot: Equatable where Value: Equatable {}

/// The long texts of one event by slot: what `LongTexts` holds, and what the decoder gathers for a line.
typealias LongTextSlots = PerSlot<String?>

extension PerSlot where Value == String? {
    init() { self.init(nil) }

    var isEmpty: Bool { EventTexts.Slot.allCases.allSatisfy { self[$0] == nil } }

    /// Whether every slot has the same bytes (not `String`'s `==`, which equates canonically equivalent
    /// spellings that `CompactText` keeps apart). Written out: a loop over the slots retains and
    /// releases each text it looks at.
    func hasSameBytes(as other: LongTextSlots) -> Bool {
        Self.same(session, other.session) && Self.same(device, other.device) && Self.same(app, other.app)
            && Self.same(appVersion, other.appVersion) && Self.same(osVersion, other.osVersion)
            && Self.same(screen, other.screen) && Self.same(id, other.id)
    }

    @inline(__always)
    private static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a else { return b == nil }
        guard let b else { return false }
        return CompactText.sameBytes(a, b)
    }
}

/// The long texts of one event, shared by its copies and never changed. One object of fields, not an
/// array in an object: one allocation, not two.
private final class LongTexts: Sendable {
    let texts: LongTextSlots

    init(_ texts: LongTextSlots) { self.texts = texts }
}

/// What lets events with the same long texts share one `LongTexts` (see `EventTexts.setLong`): the long
/// texts of the line being decoded, and the object made for the last line that had any. Logs with long
/// session ids (other than canonical UUIDs, which are packed inline: `PackedUUID`) have a long text on
/// every line, and an object for each would be an allocation a line.
///
/// Owned by one decoder behind a pointer (a reference in the decoder's line reader was retained and
/// released on every line), and used only while it decodes a line.
struct LongTextsReuse {
    fileprivate var pending = LongTextSlots()
    /// Bit `slot.rawValue` set for each slot of `pending` that holds a text.
    fileprivate var pendingSlots: UInt8 = 0
    fileprivate var recent: LongTexts?

    init() {}

    /// Drops the long texts of a line that was found malformed after some were set: the decoder calls
    /// it before each line's texts.
    @inline(__always)
    mutating func discardPending() {
        if pendingSlots != 0 { discardPendingTexts() }
    }

    /// Releases only the texts set.
    @inline(never)
    fileprivate mutating func discardPendingTexts() {
        for slot in EventTexts.Slot.allCases where pendingSlots & (1 &<< UInt8(slot.rawValue)) != 0 { pending[slot] = nil }
        pendingSlots = 0
    }
}

/// The texts, not the words, when an event is printed (a failed test's expectation, a debugger).
extension EventTexts: CustomStringConvertible {
    var description: String {
        Slot.allCases.compactMap { slot in self[slot].map { "\(slot): \(String(reflecting: $0.string))" } }
            .joined(separator: ", ")
    }
}
