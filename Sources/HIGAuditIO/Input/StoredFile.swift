#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A readable file descriptor for one input, read in caller-sized chunks with `read(2)`: never a
/// whole-file read, so memory does not depend on the file's size.
final class StoredFile {
    let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Why an input could not be opened or read, in the words of the system.
    struct Failure: Error {
        var message: String
    }

    init(opening source: InputSource) throws(Failure) {
        switch source.origin {
        case .standardInput:
            descriptor = 0
            ownsDescriptor = false
        case .descriptor(let fd):
            descriptor = fd
            ownsDescriptor = false
        case .file(let path):
            var fd: Int32
            repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
            guard fd >= 0 else { throw Failure(message: StoredFile.systemMessage(errno)) }
            descriptor = fd
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Called with the bytes of every sequential `read`, in order (not with `read(at:)`'s): the nightly
    /// job hashes a new file as it is read instead of in a pass of its own.
    var onSequentialRead: ((UnsafeRawBufferPointer) -> Void)?

    /// Reads up to `count` bytes into `destination`; 0 means end of file.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        while true {
            let result = systemRead(descriptor, destination, count)
            if result > 0, let onSequentialRead { onSequentialRead(UnsafeRawBufferPointer(start: destination, count: result)) }
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                // A non-blocking standard input: wait until it is readable instead of spinning.
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, -1)
                continue
            }
            throw Failure(message: StoredFile.systemMessage(code))
        }
    }

    /// Fills `destination` as far as possible (several reads on pipes); returns the bytes read.
    func readFully(into destination: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        var total = 0
        while total < count {
            let got = try read(into: destination + total, count: count - total)
            if got == 0 { break }
            total += got
        }
        return total
    }

    /// Positions the file at `offset` (only for stored files: pipes cannot seek).
    func seek(to offset: Int64) throws(Failure) {
        if lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            throw Failure(message: StoredFile.systemMessage(errno))
        }
    }

    /// Reads `count` bytes at `offset` without moving the file position.
    func read(at offset: Int64, into destination: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        var total = 0
        while total < count {
            let result = pread(descriptor, destination + total, count - total, off_t(offset) + off_t(total))
            if result < 0 {
                if errno == EINTR { continue }
                throw Failure(message: StoredFile.systemMessage(errno))
            }
            if result == 0 { break }
            total += result
        }
        return total
    }

    static func systemMessage(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// `read(2)` under a name that does not collide with `StoredFile.read`.
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
