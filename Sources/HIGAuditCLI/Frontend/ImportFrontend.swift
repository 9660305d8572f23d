import HIGAuditCore
import HIGAuditIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `hig-audit import`: the reading loop of `analyze --from`, with the lines the importer accepts
/// written out instead of judged, so that `analyze` on the output sees the very same lines.
struct ImportFrontend {
    let command: ImportCommand

    func run() throws -> Int32 {
        try reportingCommandErrors(execute)
    }

    private func execute() throws -> Int32 {
        let configuration = try command.config.resolved()
        let format = command.input.from!
        let verbosity = command.verbosity.level
        let progress = verbosity == .quiet ? ProgressLine(enabled: false) : ProgressLine()
        let inputs = try ResolvedInputs(
            command.input, outDirectory: nil, exportedTables: [], otherReads: command.config.readFiles,
            progress: progress, verbosity: verbosity)
        let intoDirectory = Self.isDirectory(command.output)
        for source in inputs.sources where !intoDirectory && source.filePath == command.output {
            throw UsageError("--output \(command.output) is also an input; write the import elsewhere")
        }

        let importer = EventImporter(format: format, settings: configuration.importSettings)
        let pipeline = RunPipeline(target: DiscardingTarget(), reader: inputs.reader, jobs: 1, onDiagnostic: inputs.reporter.report)
        pipeline.importer = importer
        for problem in inputs.problems { pipeline.recordUnreadable(problem) }
        if command.input.strict, !inputs.problems.isEmpty { return abortStrict(progress: progress) }

        let output = AcceptedLines()
        var written: [ImportedLogWriter] = []
        func open(_ path: String) throws {
            do {
                output.writer = try ImportedLogWriter(path: path)
            } catch {
                throw FatalError("\(error)")
            }
        }
        importer.onAcceptedLines = { lines, count in output.append(lines: lines, count: count) }
        if !intoDirectory { try open(command.output) }
        let files = RunFiles()
        let strict = command.input.strict
        var stopped = false
        let outputPaths = intoDirectory ? ImportOutputNames.paths(for: inputs.sources) : []
        // Folders this run made below the output directory: removed again when it writes nothing.
        var madeFolders: [String] = []
        do {
            var next = 0
            try pipeline.read({
                guard next < inputs.sources.count else { return nil }
                let source = inputs.sources[next]
                if intoDirectory {
                    madeFolders += try Self.makeDirectories(of: outputPaths[next], in: command.output)
                    try open(Self.joined(command.output, outputPaths[next]))
                }
                next += 1
                return PreparedInput(read: FileRead(source: source, file: files.add(source.displayPath)))
            }, conclude: { _, _ in
                // The run reads on this thread (`jobs: 1`): the input's lines are all accepted by now.
                importer.handOnAcceptedLines()
                if intoDirectory, let finished = output.writer {
                    written.append(finished)
                    output.writer = nil
                }
                progress.update(file: pipeline.inputsReached, of: inputs.sources.count, path: pipeline.currentPath,
                                bytes: pipeline.statistics.decompressedBytes, events: 0)
                if let failure = output.failure { throw FatalError("\(failure)") }
                if strict && pipeline.statistics.skippedInput { throw StopImport() }
            })
        } catch is StopImport {
            stopped = true
        } catch {
            (written + [output.writer].compactMap { $0 }).forEach { $0.abandon() }
            Self.removeEmptyFolders(madeFolders)
            throw error
        }
        progress.finish()
        if let writer = output.writer { written.append(writer) }
        if stopped {
            written.forEach { $0.abandon() }
            Self.removeEmptyFolders(madeFolders)
            return abortStrict(progress: progress)
        }
        do {
            for file in written { try file.commit() }
        } catch {
            throw FatalError("\(error)")
        }
        try inputs.finishReporting()
        let statistics = pipeline.statistics
        if verbosity.saysNotes {
            let linesWritten = written.reduce(Int64(0)) { $0 + $1.linesWritten }
            let unknown = statistics.unknownTypes.values.reduce(0, +)
            func lines(_ count: Int64) -> String { count == 1 ? "1 line" : "\(count) lines" }
            StandardError.write(
                "hig-audit: wrote \(lines(linesWritten)) from \(lines(statistics.lines)) of \(format.rawValue) export "
                    + "(\(statistics.malformedLines) malformed, \(unknown) of unknown types) to \(command.output)\n")
        }
        return statistics.skippedInput ? ExitStatus.skippedInput : ExitStatus.success
    }

    private struct StopImport: Error {}

    /// Where the importer's accepted lines go (`EventImporter.onAcceptedLines`): the file being written
    /// (none between the files of a directory), and the first failure to write it, after which
    /// nothing more is written.
    private final class AcceptedLines {
        var writer: ImportedLogWriter? {
            didSet { current = writer.map { Unmanaged.passUnretained($0) } }
        }
        /// `writer`, unretained (`writer` holds it): a retained copy of it cost every line a retain
        /// and a release.
        private var current: Unmanaged<ImportedLogWriter>?
        private(set) var failure: ImportOutputError?

        func append(lines: UnsafeRawBufferPointer, count: Int) {
            guard failure == nil, let current else { return }
            let error = current._withUnsafeGuaranteedRef { writer -> ImportOutputError? in
                do throws(ImportOutputError) {
                    try writer.append(lines: lines, count: count)
                    return nil
                } catch {
                    return error
                }
            }
            if let error { failure = error }
        }
    }

    private func abortStrict(progress: ProgressLine) -> Int32 {
        progress.finish()
        StandardError.write("hig-audit: error: input was skipped and --strict makes that fatal; nothing written\n")
        return ExitStatus.fatal
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Makes the folders of `path` (a path below `directory`) that do not exist yet; returns those it
    /// made, outermost first.
    static func makeDirectories(of path: String, in directory: String) throws -> [String] {
        var folder = directory
        var made: [String] = []
        for component in path.split(separator: "/").dropLast() {
            folder = joined(folder, String(component))
            guard mkdir(folder, 0o777) != 0 else {
                made.append(folder)
                continue
            }
            let code = errno
            guard code == EEXIST, isDirectory(folder) else {
                throw FatalError("cannot make the directory \(folder): \(String(cString: strerror(code == EEXIST ? ENOTDIR : code)))")
            }
        }
        return made
    }

    /// Removes `folders` (made by this run, outermost first) innermost first, each only if empty: a
    /// run that writes nothing leaves the output directory as it found it.
    static func removeEmptyFolders(_ folders: [String]) {
        for folder in folders.reversed() { _ = rmdir(folder) }
    }
}
