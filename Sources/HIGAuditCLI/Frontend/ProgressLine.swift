#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HIGAuditIO

/// One redrawn line on standard error while a long run reads its input, like SwiftLint's progress bar:
/// only when stderr is a terminal, at most ten redraws a second, erased when the run ends.
final class ProgressLine {
    private let enabled: Bool
    private var lastDraw: UInt64 = 0
    private var drawn = false
    private let start: UInt64

    init(enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
        self.start = ProgressLine.nowNanoseconds()
    }

    /// Cheap enough to call every few thousand lines: it reads the clock and returns unless 100 ms passed.
    func update(file: Int, of files: Int, path: String, bytes: Int64, events: Int64) {
        guard enabled else { return }
        let now = ProgressLine.nowNanoseconds()
        guard now &- lastDraw >= 100_000_000 else { return }
        lastDraw = now
        let seconds = Double(now &- start) / 1e9
        let megabytes = Double(bytes) / 1_000_000
        let rate = seconds > 0 ? megabytes / seconds : 0
        let shown = TerminalText.visible(path)
        let name = shown.count > 40 ? "…" + shown.suffix(39) : shown
        let text = "file \(file)/\(files) \(name) · \(Int(megabytes)) MB read · \(Int(rate)) MB/s · \(events) events"
        emit("\r\u{1B}[2K" + text)
        drawn = true
    }

    func finish() {
        guard enabled, drawn else { return }
        emit("\r\u{1B}[2K")
        drawn = false
    }

    private func emit(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    private static func nowNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
