import Foundation

/// The default of `--jobs`.
enum ProcessorCount {
    /// The cores this process may use (Foundation counts the CPU affinity and, on Linux, a container's
    /// CPU quota).
    static var available: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
