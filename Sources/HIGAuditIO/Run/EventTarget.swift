import HIGAuditCore

/// Where a line sink hands the events it decodes: the session engine itself, `show`'s recorder in front
/// of it, or a batch bound for the thread that runs the engine (`--jobs`). A protocol rather than a
/// closure so that the reading loop is specialised for each, with no indirect call per event.
public protocol EventTarget: AnyObject, SendableMetatype {
    func accept(_ event: consuming Event)
    /// `accept` of the event at `event`, moved out of that memory (a batch's slot), which is left
    /// uninitialized.
    func accept(movingFrom event: UnsafeMutablePointer<Event>)
}

extension EventTarget {
    @inline(__always)
    public func accept(movingFrom event: UnsafeMutablePointer<Event>) {
        accept(event.move())
    }
}

extension SessionEngine: EventTarget {
    @inline(__always)
    public func accept(_ event: consuming Event) {
        ingest(event)
    }

    /// Straight into its session's buffer, without a copy on the way: see `ingest(movingFrom:)`.
    @inline(__always)
    public func accept(movingFrom event: UnsafeMutablePointer<Event>) {
        ingest(movingFrom: event)
    }
}
