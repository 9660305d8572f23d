@testable import HIGAuditCore

/// Reads export lines as `AnalysisLineSink` does and says what each record became: an event (after
/// its synthetic start, if it has one), an unknown type, or why it was refused, and with `writes`
/// the lines `import` writes for it. Tests compare these between ways of reading the same lines.
enum ImportOutcomes {
    /// The outcomes of `lines`, and the importer (for its counters), set up by `configure` first.
    ///
    /// With `handsOnEachLine` false, written lines are handed on only as the importer's runs fill
    /// (`EventImporter.acceptedRunBytes`) and at the end, and `runs` gets each run's byte count.
    static func read(
        _ format: ImportFormat, _ lines: [[UInt8]], writes: Bool, handsOnEachLine: Bool = true,
        runs: ((Int) -> Void)? = nil, _ configure: (EventImporter) -> Void
    ) -> (outcomes: [String], importer: EventImporter) {
        let importer = EventImporter(format: format, settings: ImportedFieldsDifferentialTests.settings)
        configure(importer)
        var written: [String] = []
        if writes {
            importer.onAcceptedLines = { lines, count in
                let split = String(decoding: lines, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                // Each line ends in its newline: the text after the last is empty.
                precondition(split.count == count + 1 && split.last == "", "a run of \(count) lines is not whole lines")
                written += split.dropLast().map(String.init)
                runs?(lines.count)
            }
        }
        var decoder = EventDecoder()
        var outcomes: [String] = []
        for (index, line) in lines.enumerated() {
            line.withUnsafeBytes { bytes in
                importer.translate(bytes) { record, imported in
                    let place = "\(index + 1)#\(record)"
                    let source = SourceLocation(file: 0, line: Int64(index + 1), record: record)
                    switch imported {
                    case .unknownType(let name):
                        outcomes.append("\(place) unknown \(name)")
                        return false
                    case .malformed(let problem):
                        outcomes.append("\(place) malformed \(problem)")
                        return false
                    case .event(let fields):
                        var event: Event?
                        let verdict = fields.decode(with: &decoder, source: source) { event = $0 }
                        guard let event else {
                            outcomes.append("\(place) refused \(verdict)")
                            return false
                        }
                        if fields.hasSyntheticStart {
                            var start: Event?
                            let startVerdict = fields.decodeSyntheticStart(with: &decoder, source: source) { start = $0 }
                            outcomes.append("\(place) start \(start.map { "\($0)" } ?? "\(startVerdict)")")
                        }
                        outcomes.append("\(place) event \(event)")
                        return true
                    }
                }
            }
            if handsOnEachLine { importer.handOnAcceptedLines() }
            outcomes += written.map { "written \($0)" }
            written.removeAll()
        }
        importer.handOnAcceptedLines()
        outcomes += written.map { "written \($0)" }
        return (outcomes, importer)
    }
}
