/// One input to read: a stored file or standard input, named the way reports should name it.
///
/// `displayPath` is what `source` columns and diagnostics print (SPEC §3): the path as the user typed
/// it, a directory's name joined with the path below it, or `-` for standard input.
public struct InputSource: Sendable, Hashable, CustomStringConvertible {
    enum Origin: Sendable, Hashable {
        case file(path: String)
        case standardInput
        /// An already open descriptor (a pipe in tests); never closed by the reader.
        case descriptor(Int32)
    }

    public var displayPath: String
    let origin: Origin
    /// The path below the directory named on the command line that holds this file (`2026-11-20/a.jsonl`
    /// of `exports/`), or nil for a file or standard input named itself: what `import` mirrors when it
    /// writes into a directory, so that the output reads in the order the export was read.
    public internal(set) var pathInDirectory: String?

    /// A stored file, opened at `path` and reported as `displayPath`.
    public init(path: String, displayPath: String? = nil) {
        self.origin = .file(path: path)
        self.displayPath = displayPath ?? path
    }

    init(descriptor: Int32, displayPath: String) {
        self.origin = .descriptor(descriptor)
        self.displayPath = displayPath
    }

    private init(origin: Origin, displayPath: String) {
        self.origin = origin
        self.displayPath = displayPath
    }

    /// Standard input, named `-` as on the command line.
    public static let standardInput = InputSource(origin: .standardInput, displayPath: "-")

    /// The file system path, or nil for standard input (which cannot be reopened or seeked).
    public var filePath: String? {
        if case .file(let path) = origin { return path }
        return nil
    }

    public var description: String { displayPath }
}
