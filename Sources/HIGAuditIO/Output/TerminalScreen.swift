#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal a table is printed on, when standard output is one: how wide it is, and the inputs
/// named on the command line, so that paths can be shown relative to them.
///
/// With a screen, `TerminalTableWriter` fits each table to `width` (see `TerminalLayout`) and prints
/// byte counts in KB or MB; without one (a pipe, a file, a golden test) it prints every column whole,
/// as it always has.
public struct TerminalScreen: Sendable, Equatable {
    /// The width assumed when neither `COLUMNS` nor the terminal says.
    public static let defaultWidth = 80

    /// Columns of text a line may take.
    public var width: Int
    /// Inputs named on the command line (files or directories); a path under one is shown relative to it.
    public var pathBases: [String]

    public init(width: Int, pathBases: [String] = []) {
        self.width = max(1, width)
        self.pathBases = pathBases
    }

    /// The screen standard output is, or nil when it is not a terminal. The width comes from the
    /// `COLUMNS` environment variable when it holds a positive number (so a user or a test can set
    /// it), else from the terminal itself, else `defaultWidth`.
    public static func standardOutput(pathBases: [String] = []) -> TerminalScreen? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        return TerminalScreen(width: width(columnsVariable: getenv("COLUMNS").map { String(cString: $0) }), pathBases: pathBases)
    }

    /// The width from `COLUMNS` (when it is a positive number), else the terminal's, else 80.
    static func width(columnsVariable: String?) -> Int {
        if let columnsVariable, let columns = Int(columnsVariable.trimmingSpaces()), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return defaultWidth
    }

    /// `text` (a cell of a path column: `PATH` or `PATH:LINE`) with the input it lies under taken off
    /// its start: `logs/device-07/a.ndjson.zst:12` under `logs` is `device-07/a.ndjson.zst:12`. A path
    /// that is an input itself, or under none, is left as it is.
    func relativePath(_ text: String) -> String {
        for base in pathBases where !base.isEmpty && base != "-" {
            let directory = base.hasSuffix("/") ? base : base + "/"
            if text.hasPrefix(directory), text.count > directory.count { return String(text.dropFirst(directory.count)) }
        }
        return text
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
