#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HIGAuditCore

/// A buffered byte sink for the writers: standard output, a file, or memory, written as a
/// `TextOutputStream` and, by the CSV and JSON writers, a byte or a number at a time (`write(byte:)`,
/// `write(integer:)`, `write(timestamp:)`).
///
/// `TextOutputStream.write` cannot throw, so the first failure is remembered, later writes are dropped,
/// and `close()` reports it: an unwritable output is fatal for the run (SPEC §5), and the caller learns
/// of it in one place. A regular file (or a new one) is written under a temporary name beside it and
/// renamed over the target on `close()`, so a run killed mid-write never leaves a half-written report
/// where the last good one was. Anything else at the path is written through, never replaced: a device
/// (`/dev/null`, `/dev/full`) or FIFO as it is, a symbolic link by following it to its target
/// (`/dev/stdout` shares standard output's descriptor), so that an output option cannot swap a
/// device node or a link for a file.
public final class FileOutput: TextOutputStream {
    /// Where the output goes, for error messages (`-` for standard output).
    public let path: String
    private let descriptor: Int32
    private let temporaryPath: String?
    /// Whether `close()` closes `descriptor`: a file it opened, not standard output.
    private let ownsDescriptor: Bool
    /// Where a memory output's bytes go when the buffer fills (`memory()`); nil for a descriptor.
    private var collected: [UInt8]?
    /// `bufferLimit` bytes of raw memory, `buffered` of them used: the table writers append once or
    /// more per cell, and an `[UInt8]` would check uniqueness and capacity on each append.
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: FileOutput.bufferLimit, alignment: 16)
    private var buffered = 0
    private var failure: FileOutputError?
    private var closed = false
    /// The date part of the last time stamp written (`write(timestamp:)`).
    private var recentDate = TimestampFormatter.RecentDate()
    private static let bufferLimit = 1 << 16

    /// Standard output; `close()` flushes it and leaves it open.
    public static func standardOutput() -> FileOutput {
        FileOutput(path: "-", descriptor: 1, temporaryPath: nil, ownsDescriptor: false)
    }

    /// An output kept in memory, for a writer asked for a `String`: `takeText()` hands it over.
    public static func memory() -> FileOutput {
        let output = FileOutput(path: "memory", descriptor: -1, temporaryPath: nil, ownsDescriptor: false)
        output.collected = []
        return output
    }

    /// Everything written to a memory output so far, as text; the output is empty afterwards.
    public func takeText() -> String {
        flushBuffer()
        defer { collected = [] }
        return String(decoding: collected ?? [], as: UTF8.self)
    }

    /// Runs `body` with `output` itself when it is a `FileOutput`, and otherwise with a memory output
    /// whose text then goes to `output`: the CSV and JSON writers format into a buffer's bytes whatever
    /// stream they were given, rather than a `String` per piece through the protocol's dispatch.
    public static func formatting(into output: inout some TextOutputStream, _ body: (FileOutput) -> Void) {
        if let file = output as? FileOutput {
            body(file)
            return
        }
        let memory = FileOutput.memory()
        body(memory)
        output.write(memory.takeText())
    }

    /// The output for `path`: a new or regular file is replaced when `close()` succeeds; a device,
    /// FIFO or symbolic link is written through (see the type's comment). A directory is refused.
    /// Whether `replacingFile(at:)` would replace what is at `path` (nothing yet, or a regular file)
    /// rather than write through it.
    public static func replaces(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 || status.st_mode & S_IFMT == S_IFREG
    }

    public static func replacingFile(at path: String) throws(FileOutputError) -> FileOutput {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            return try writingThrough(path, kind: status.st_mode & S_IFMT)
        }
        let temporary = path + ".tmp-\(getpid())"
        // Tracked before it exists: an interrupted command removes it (`Interruption`).
        Interruption.track(file: temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            Interruption.untrack(temporary)
            throw FileOutputError(path: path, operation: "create", code: code)
        }
        return FileOutput(path: path, descriptor: descriptor, temporaryPath: temporary, ownsDescriptor: true)
    }

    /// An output opened where it is. Standard output and error named as files (`/dev/stdout`,
    /// `/dev/fd/2`, `/proc/self/fd/1`) get a duplicate of the descriptor itself: opening the link
    /// again would start a second file offset at 0 and overwrite what the run prints there.
    private static func writingThrough(_ path: String, kind: mode_t) throws(FileOutputError) -> FileOutput {
        if kind == S_IFDIR { throw FileOutputError(path: path, operation: "create", code: EISDIR) }
        if let inherited = inheritedDescriptor(named: path) {
            let descriptor = fcntl(inherited, F_DUPFD_CLOEXEC, 3)
            guard descriptor >= 0 else { throw FileOutputError(path: path, operation: "open", code: errno) }
            return FileOutput(path: path, descriptor: descriptor, temporaryPath: nil, ownsDescriptor: true)
        }
        var target = stat()
        // A link to a regular file (or to nothing yet) gets the file's new content; a device or FIFO
        // cannot be truncated and is written as it is.
        let truncates = stat(path, &target) != 0 || target.st_mode & S_IFMT == S_IFREG
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | (truncates ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw FileOutputError(path: path, operation: "open", code: errno) }
        return FileOutput(path: path, descriptor: descriptor, temporaryPath: nil, ownsDescriptor: true)
    }

    /// The descriptor 0–2 that `path` names through the kernel's per-process links, if it does.
    static func inheritedDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), (0...2).contains(number) { return number }
            }
            return nil
        }
    }

    private init(path: String, descriptor: Int32, temporaryPath: String?, ownsDescriptor: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        // Not closed: the output is abandoned, never half-published.
        if !closed, ownsDescriptor {
            _ = systemClose(descriptor)
            if let temporaryPath {
                _ = unlink(temporaryPath)
                Interruption.untrack(temporaryPath)
            }
        }
        buffer.deallocate()
    }

    /// The table writers call this once or more per cell, mostly with a separator, a key or a short
    /// value. Their bytes are read in place when they fit the buffer, rather than by making the string
    /// contiguous first (`withUTF8`, on a copy of it: a retain and a release a call).
    public func write(_ string: String) {
        guard failure == nil, !closed else { return }
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let start = bytes.baseAddress, bytes.count <= Self.bufferLimit &- buffered else {
                return bytes.isEmpty
            }
            Self.copy(UnsafeRawPointer(start), count: bytes.count, to: buffer + buffered)
            buffered &+= bytes.count
            return true
        }
        if copied != true { writeLong(string) }
    }

    /// A string longer than the buffer's free room (or, on Darwin, not stored as UTF-8): written in
    /// pieces, flushing the buffer between them.
    private func writeLong(_ string: String) {
        var string = string
        string.withUTF8 { bytes in writeInPieces(UnsafeRawBufferPointer(bytes)) }
    }

    private func writeInPieces(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            let room = Self.bufferLimit - buffered
            let take = min(room, rest.count)
            (buffer + buffered).copyMemory(from: rest.baseAddress!, byteCount: take)
            buffered += take
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
            if buffered == Self.bufferLimit {
                flushBuffer()
                if failure != nil { return }
            }
        }
    }

    // MARK: Bytes and numbers, for the CSV and JSON writers

    /// One byte (a separator, a quote).
    @inline(__always)
    public func write(byte: UInt8) {
        if buffered == Self.bufferLimit { makeRoom() }
        buffer.storeBytes(of: byte, toByteOffset: buffered, as: UInt8.self)
        buffered &+= 1
    }

    /// Bytes as they are (UTF-8 text the caller has checked).
    @inline(__always)
    public func write(bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, failure == nil, !closed else { return }
        if bytes.count <= Self.bufferLimit &- buffered {
            Self.copy(UnsafeRawPointer(start), count: bytes.count, to: buffer + buffered)
            buffered &+= bytes.count
        } else {
            writeInPieces(UnsafeRawBufferPointer(bytes))
        }
    }

    /// Copies `count` bytes. Most copies here are a key, a separator or a short cell, for which a call
    /// to `memmove` costs more than the copy: up to 16 bytes are moved as two words (or two halves,
    /// two quarters) that overlap in the middle, both loaded before either is stored.
    @inline(__always)
    private static func copy(_ source: UnsafeRawPointer, count: Int, to destination: UnsafeMutableRawPointer) {
        if count > 16 {
            destination.copyMemory(from: source, byteCount: count)
            return
        }
        switch count {
        case 8...:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        case 2..<4:
            let head = source.loadUnaligned(as: UInt16.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            destination.storeBytes(of: head, as: UInt16.self)
            destination.storeBytes(of: tail, toByteOffset: count &- 2, as: UInt16.self)
        case 1:
            destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        default:
            break
        }
    }

    /// A whole number in decimal, as `String(value)` writes it.
    public func write(integer value: Int64) {
        if Self.bufferLimit &- buffered < 20 { makeRoom() }
        let start = (buffer + buffered).assumingMemoryBound(to: UInt8.self)
        let sign = value < 0 ? 1 : 0
        if sign == 1 { start[0] = UInt8(ascii: "-") }
        buffered &+= sign &+ DecimalDigits.write(value.magnitude, to: start + sign)
    }

    /// What `SourceFileTable.describe` writes after a location's path: `:LINE`, or `:LINE#K` for a
    /// record of a line.
    public func write(sourcePosition location: SourceLocation) {
        write(byte: UInt8(ascii: ":"))
        write(integer: location.line)
        if location.record != 0 {
            write(byte: UInt8(ascii: "#"))
            write(integer: Int64(location.record))
        }
    }

    /// A time stamp as `TimestampFormatter.rfc3339` writes it.
    public func write(timestamp ms: Int64) {
        if Self.bufferLimit &- buffered < TimestampFormatter.rfc3339Width { makeRoom() }
        if TimestampFormatter.rfc3339(ms, into: (buffer + buffered).assumingMemoryBound(to: UInt8.self), dates: &recentDate) {
            buffered &+= TimestampFormatter.rfc3339Width
        } else {
            write(TimestampFormatter.rfc3339(ms))
        }
    }

    /// Empties a full buffer (or, once the output is closed, drops it: nothing more is written).
    private func makeRoom() {
        if closed {
            buffered = 0
        } else {
            flushBuffer()
        }
    }

    /// Flushes, and for a file closes it and moves it into place. Throws the first failure of the
    /// whole output.
    public func close() throws(FileOutputError) {
        guard !closed else {
            if let failure { throw failure }
            return
        }
        flushBuffer()
        closed = true
        if ownsDescriptor, systemClose(descriptor) != 0, failure == nil {
            failure = FileOutputError(path: path, operation: "write", code: errno)
        }
        if let temporaryPath {
            if failure == nil, rename(temporaryPath, path) != 0 {
                failure = FileOutputError(path: path, operation: "rename", code: errno)
            }
            if failure != nil { _ = unlink(temporaryPath) }
            Interruption.untrack(temporaryPath)
        }
        if let failure { throw failure }
    }

    private func flushBuffer() {
        if collected != nil {
            collected!.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: buffered))
            buffered = 0
            return
        }
        var offset = 0
        while offset < buffered, failure == nil {
            let written = systemWrite(descriptor, buffer + offset, buffered - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                failure = FileOutputError(path: path, operation: "write", code: written < 0 ? errno : EIO)
            }
        }
        // After a failure the rest is dropped: `close` reports it, and nothing more is written.
        buffered = 0
    }
}

/// An output that could not be written: which, what failed, and the system's reason.
public struct FileOutputError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public var description: String {
        "cannot \(operation) \(path == "-" ? "standard output" : path): \(String(cString: strerror(code)))"
    }
}

// `close` and `write` are shadowed by the methods above inside the class.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, bytes, count) }
