/// The modals a session has presented and not yet dismissed, bottom first (SPEC §3 `modal-depth`).
///
/// The engine owns it (not a rule) so that unbalanced dismisses are counted once, whichever rules run.
public struct ModalStack: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var modal: String
        public var style: ModalStyle
    }

    public private(set) var entries: [Entry] = []
    /// Presented modals that are not alerts: the depth `modal-depth` measures.
    public private(set) var depth = 0

    public init() {}

    public var top: Entry? { entries.last }

    public mutating func present(_ modal: String, style: ModalStyle) {
        entries.append(Entry(modal: modal, style: style))
        if style != .alert { depth += 1 }
    }

    /// Pops the topmost `modal` and everything above it; false when `modal` is not on the stack
    /// (an unbalanced dismiss, which leaves the stack as it was).
    public mutating func dismiss(_ modal: String) -> Bool {
        guard let index = entries.lastIndex(where: { $0.modal == modal }) else { return false }
        for entry in entries[index...] where entry.style != .alert { depth -= 1 }
        entries.removeSubrange(index...)
        return true
    }
}
