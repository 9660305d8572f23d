import HIGAuditCore

/// Where a line sink hands the events it decodes: the session engine itself, `show`'s recorder in front
/// of it, or a batch bound for the thread that runs the engine (`--jobs`). A protocol rather than a
/// closure so that the reading loop is specialised for each, with no indirect call per event.
public protocol EventTarget: AnyObject {
    func accept(_ event: consuming Event)
}

extension SessionEngine: EventTarget {
    @inline(__always)
    public func accept(_ event: consuming Event) {
        ingest(event)
    }
}
