/// What one event of an export became: an event's fields for the decoder to judge as it judges a line
/// of ours, a malformed record, or an event of a name that maps to none of our types.
public enum ImportedRecord {
    /// Valid only during the call.
    case event(ImportedEventFields)
    case malformed(MalformedLine)
    case unknownType(String)
}

/// The fields of one mapped event, located in the export line (`ImportedFieldAssembly`), handed to
/// the decoder's mapping (`EventDecoder.mapFields`): the event, or why it is malformed, is exactly what
/// the line `import` writes for it decodes to. Valid only during the importer's call of its handler.
public struct ImportedEventFields {
    /// The importer handing the event over, alive during the call: not retained (a reference held
    /// strongly was retained and released on every event).
    let importerReference: Unmanaged<EventImporter>
    var importer: EventImporter { importerReference.takeUnretainedValue() }
    /// Whether the event's session had no launch: a `session.start` (`synthetic: true`) is to go
    /// before the event if the event is accepted (SPEC §7 "Touch coverage").
    public let hasSyntheticStart: Bool
    /// Whether the event was read by its layout's plan (`EventImporter.translatePlanned`): its fields
    /// are written from the line's match, and no tape holds the line.
    let isPlanned: Bool

    /// Judges the event as `decoder.decode` judges a line. A reason's column, when it has one, is a
    /// byte of the export line; a value the importer made (a type, a `#n` session) has none.
    public func decode(
        with decoder: inout EventDecoder, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        importerReference._withUnsafeGuaranteedRef { importer in
            if isPlanned {
                let planned = importer.planned!
                if planned.inPlace {
                    importer.assembly.borrowLine(planned.line)
                } else {
                    importer.assembly.startLine(planned.line, stamp: planned.lineStamp)
                }
                return importer.mapAssembled(with: &decoder, source: source, accept: accept) { importer.assemblePlanned() }
            }
            return importer.mapAssembled(with: &decoder, source: source, accept: accept) { importer.assemblePending() }
        }
    }

    /// Judges the synthetic start (after `decode`, when `hasSyntheticStart`).
    public func decodeSyntheticStart(
        with decoder: inout EventDecoder, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        importerReference._withUnsafeGuaranteedRef { importer in
            importer.mapAssembled(with: &decoder, source: source, accept: accept) {
                importer.assembleSyntheticStart()
                return .sessionStart
            }
        }
    }

    /// The way before the decoder took fields: the line `import` writes, decoded. The oracle of
    /// `ImportedFieldsDifferentialTests`, which holds the two ways equal. Written from the tape: an
    /// importer that `readsPlans` hands over planned events, which have none.
    func decodeWrittenLine(
        with decoder: inout EventDecoder, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        precondition(!isPlanned, "a planned event has no tape to write its line from")
        importer.writePending()
        return importer.writer.withBytes { decoder.decode($0, source: source, accept: accept) }
    }

    func decodeWrittenSyntheticStart(
        with decoder: inout EventDecoder, source: SourceLocation, accept: (consuming Event) -> Void
    ) -> LineVerdict {
        importer.writeSyntheticStart(importer.pending.envelope)
        return importer.syntheticWriter.withBytes { decoder.decode($0, source: source, accept: accept) }
    }
}
