import HIGAuditCore
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Where `import` writes this tool's NDJSON (SPEC §7): a file, zstd-compressed when its name ends in
/// `.zst` (a frame per MiB of lines, as uploads append frames). It is written beside its final name
/// and renamed into place by `commit`, so a run that fails leaves no half-written log behind.
public final class ImportedLogWriter {
    public let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private let encoder: ZstdFrameEncoder?
    private var pending: [UInt8] = []
    private var compressed: [UInt8] = []
    public private(set) var linesWritten: Int64 = 0
    private static let frameBytes = 1 << 20

    public init(path: String) throws(ImportOutputError) {
        self.path = path
        temporaryPath = path + ".partial-\(getpid())"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ImportOutputError(path: path, reason: String(cString: strerror(errno))) }
        if path.lowercased().hasSuffix(".zst") {
            guard let encoder = try? ZstdFrameEncoder() else {
                close(descriptor)
                unlink(temporaryPath)
                throw ImportOutputError(path: path, reason: "the zstd encoder could not be made")
            }
            self.encoder = encoder
        } else {
            encoder = nil
        }
        pending.reserveCapacity(Self.frameBytes + (64 << 10))
    }

    /// Appends one line (a newline is added).
    public func append(_ line: UnsafeRawBufferPointer) throws(ImportOutputError) {
        pending.append(contentsOf: line)
        pending.append(0x0A)
        linesWritten += 1
        if pending.count >= Self.frameBytes { try flush() }
    }

    private func flush() throws(ImportOutputError) {
        guard !pending.isEmpty else { return }
        if let encoder {
            compressed.removeAll(keepingCapacity: true)
            do {
                try pending.withUnsafeBytes { try encoder.appendFrame($0, options: ZstdFrameOptions(), to: &compressed) }
            } catch {
                throw ImportOutputError(path: path, reason: "\(error)")
            }
            try write(compressed)
        } else {
            try write(pending)
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: [UInt8]) throws(ImportOutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ImportOutputError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Writes what is left and puts the file in place.
    public func commit() throws(ImportOutputError) {
        try flush()
        guard fsync(descriptor) == 0 || errno == EINVAL, close(descriptor) == 0 else {
            throw ImportOutputError(path: path, reason: String(cString: strerror(errno)))
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw ImportOutputError(path: path, reason: reason)
        }
    }

    /// Drops the file: nothing is left at `path` from this run.
    public func abandon() {
        close(descriptor)
        unlink(temporaryPath)
    }
}

public struct ImportOutputError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// Where an importing run's events go: nowhere, as `import` writes lines, not events (the importer's
/// `onAccepted` has them), and duplicates and late events are for `analyze` to judge.
public final class DiscardingTarget: EventTarget {
    public init() {}
    public func accept(_ event: consuming Event) {}
}
