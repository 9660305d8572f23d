/// What one event of an export became: our NDJSON line (to be decoded and judged as any line is),
/// a malformed record, or an event of a name that maps to none of our types.
public enum ImportedRecord {
    /// `line` is valid only during the call. `syntheticStart`, when not nil, is the `session.start`
    /// (`synthetic: true`) to put before the event if the event is accepted: its session had no launch.
    case event(line: UnsafeRawBufferPointer, syntheticStart: UnsafeRawBufferPointer?)
    case malformed(MalformedLine)
    case unknownType(String)
}
