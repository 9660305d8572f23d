#if canImport(Glibc)
import Glibc
#endif
import HIGAuditCore
import HIGAuditIO

/// Says on standard error what went wrong with the input, without drowning the terminal: the first 20
/// problems of each kind in full, then a count per kind at the end (every problem with `--verbose`,
/// none with `--quiet`). Every malformed line also goes to the `--malformed-report` file when one was
/// asked for, whatever the verbosity.
final class DiagnosticReporter {
    static let shownPerCategory = 20

    private var counts: [Diagnostic.Category: Int] = [:]
    private var malformedReport: FileOutput?
    private let progress: ProgressLine?
    private let shown: Int

    init(malformedReportPath: String?, progress: ProgressLine?, verbosity: Verbosity = .normal) throws(FileOutputError) {
        self.progress = progress
        shown = switch verbosity {
        case .quiet: 0
        case .normal: Self.shownPerCategory
        case .verbose: .max
        }
        if let malformedReportPath {
            malformedReport = try FileOutput.replacingFile(at: malformedReportPath)
        }
    }

    func report(_ diagnostic: Diagnostic) {
        let seen = counts[diagnostic.category, default: 0] + 1
        counts[diagnostic.category] = seen
        if diagnostic.category == .malformedLine {
            // One record a line: a tab or line break in a file name or a value is written out.
            malformedReport?.write("\(TerminalText.visible(diagnostic.location))\t\(TerminalText.visible(diagnostic.message))\n")
        }
        if seen <= shown {
            progress?.finish()
            StandardError.write("hig-audit: \(TerminalText.visible(diagnostic.description))\n")
        }
    }

    /// The per-kind counts of what was not shown, and the malformed-report file closed.
    func finish() throws(FileOutputError) {
        for category in Diagnostic.Category.allCases {
            let count = counts[category, default: 0]
            if count > shown, shown > 0 {
                StandardError.write(
                    "hig-audit: \(category.rawValue): \(count) in all, \(count - shown) not shown above\n")
            }
        }
        try malformedReport?.close()
    }
}

/// Unbuffered writes to standard error, for diagnostics that must appear even if the run dies.
///
/// Every character a terminal would act on is written out (`TerminalText`): messages echo file names
/// and log data, which must not drive the terminal. A message's own line breaks stay.
enum StandardError {
    static func write(_ text: String) {
        var text = TerminalText.visibleKeepingLineBreaks(text)
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
