#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HIGAuditIO
import Testing
@testable import HIGAuditStore

/// `FileIdentity.examine` reads a head-sized piece while the head may be all it needs, and on past it
/// otherwise: every size around the head, with and without a counted file the input begins like, read
/// whole or in small pieces (a FIFO: reads return fewer bytes than asked), gives the digests of one
/// pass over the bytes.
@Suite struct FileIdentityReadPathsTests {
    private static func sha(_ bytes: ArraySlice<UInt8>) -> String {
        var hasher = SHA256()
        Array(bytes).withUnsafeBytes { hasher.update($0) }
        return hasher.finalizedHex()
    }

    private static func bytes(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    private static func record(id: Int64, _ data: ArraySlice<UInt8>) -> CountedFile {
        let head = min(data.count, FileIdentity.headBytes)
        return CountedFile(
            id: id, displayPath: "counted-\(id)", headLength: head, headSHA256: sha(data.prefix(head)),
            size: Int64(data.count), contentSHA256: sha(data),
            resume: FileReadSummary.ResumePoint(storedOffset: 0, decompressedOffset: 0, linesBefore: 0),
            countedLines: 0, heldBack: false)
    }

    /// `examine` of `data` as a regular file and as a FIFO written `piece` bytes at a time.
    private func examined(
        _ data: [UInt8], identity: FileIdentity, stopAfterHead: Bool, piece: Int?, in directory: URL
    ) throws -> (FileVerdict, FileDigest) {
        let path = directory.appendingPathComponent(UUID().uuidString).path
        guard let piece else {
            try Data(data).write(to: URL(fileURLWithPath: path))
            return try identity.examine(path: path, displayPath: "input", closeOpen: false, stopAfterHead: stopAfterHead)
        }
        #expect(mkfifo(path, 0o600) == 0)
        let writer = Thread {
            let descriptor = open(path, O_WRONLY)
            var offset = 0
            while offset < data.count {
                let count = min(piece, data.count - offset)
                let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, count) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
                usleep(200)
            }
            close(descriptor)
        }
        // The reader may stop after the head: the writer then fails with EPIPE and stops.
        signal(SIGPIPE, SIG_IGN)
        writer.start()
        return try identity.examine(path: path, displayPath: "input", closeOpen: false, stopAfterHead: stopAfterHead)
    }

    @Test(arguments: [0, 1, 100, 4095, 4096, 4097, 5000, 3 * 4096 + 7, (1 << 20) + 4099])
    func everyReadPathGivesTheDigestsOfOnePassOverTheBytes(size: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Self.bytes(size)
        // Counted files this one begins like: nothing, a short prefix, and a prefix past the head.
        var prefixes: [Int] = [0]
        if size > 1 { prefixes.append(size / 3 + 1) }
        if size > 4096 { prefixes.append(size - 1) }
        for prefix in prefixes {
            let identity = FileIdentity(prefix > 0 ? [Self.record(id: 1, data[0..<prefix])] : [])
            for stopAfterHead in [false, true] {
                for piece in [nil, 1000, 4097] as [Int?] {
                    let (verdict, digest) = try examined(data, identity: identity, stopAfterHead: stopAfterHead, piece: piece, in: directory)
                    let label = "size \(size), prefix \(prefix), stopAfterHead \(stopAfterHead), piece \(String(describing: piece))"
                    let head = min(size, FileIdentity.headBytes)
                    #expect(digest.headLength == head, "\(label)")
                    #expect(digest.headSHA256 == Self.sha(data.prefix(head)[...]), "\(label)")
                    if size == 0 {
                        #expect(verdict == .empty, "\(label)")
                        continue
                    }
                    if prefix > 0 {
                        #expect(digest.isComplete, "\(label)")
                        #expect(digest.prefixes[Int64(prefix)] == Self.sha(data[0..<prefix]), "\(label)")
                        #expect(verdict == .continues(Self.record(id: 1, data[0..<prefix])), "\(label)")
                    } else {
                        #expect(verdict == .new, "\(label)")
                    }
                    if digest.isComplete {
                        #expect(digest.size == Int64(size), "\(label)")
                        #expect(digest.contentSHA256 == Self.sha(data[...]), "\(label)")
                    } else {
                        #expect(stopAfterHead && size >= FileIdentity.headBytes, "\(label)")
                        #expect(digest.size == Int64(FileIdentity.headBytes), "\(label)")
                    }
                }
            }
        }
    }
}
