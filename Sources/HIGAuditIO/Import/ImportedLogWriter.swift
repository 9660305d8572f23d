import HIGAuditCore
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Where `import` writes this tool's NDJSON (SPEC §7): a file, zstd-compressed when its name ends in
/// `.zst` (a frame of whole lines for each MiB or so, as uploads append frames). It is written beside its final name
/// and renamed into place by `commit`, so a run that fails leaves no half-written log behind.
public final class ImportedLogWriter {
    public let path: String
    private let temporaryPath: String
    private let descriptor: Int32
    private let encoder: ZstdFrameEncoder?
    /// Lines of a `.zst` file not yet compressed, gathered into a frame (a plain file's runs are
    /// written as they come, and leave it empty: it is given room only for a frame).
    private var pending = GrowingBytes(capacity: 1)
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
    }

    /// Appends `count` whole lines, each ending in its newline (`EventImporter.onAcceptedLines`).
    /// A frame ends only between runs of lines, so each holds whole lines.
    public func append(lines: UnsafeRawBufferPointer, count: Int) throws(ImportOutputError) {
        linesWritten += Int64(count)
        // A plain file takes a run as it is: held, it would only be copied to be written later.
        if encoder == nil { return try write(lines) }
        // Room for a frame and the run that ends it (runs are of 256 KiB and a line), made once.
        if pending.count == 0 { pending.reserve(Self.frameBytes &+ (512 << 10)) }
        pending.append(lines)
        if pending.count >= Self.frameBytes { try flush() }
    }

    private func flush() throws(ImportOutputError) {
        guard pending.count > 0 else { return }
        if let encoder {
            compressed.removeAll(keepingCapacity: true)
            do {
                try pending.withBytes { try encoder.appendFrame($0, options: ZstdFrameOptions(), to: &compressed) }
            } catch {
                throw ImportOutputError(path: path, reason: "\(error)")
            }
            var failure: ImportOutputError?
            compressed.withUnsafeBytes { bytes in
                do throws(ImportOutputError) { try write(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        } else {
            try pending.withBytes { bytes throws(ImportOutputError) in try write(bytes) }
        }
        pending.count = 0
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(ImportOutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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
/// `onAcceptedLines` has them), and duplicates and late events are for `analyze` to judge.
public final class DiscardingTarget: EventTarget {
    public init() {}
    public func accept(_ event: consuming Event) {}
}
