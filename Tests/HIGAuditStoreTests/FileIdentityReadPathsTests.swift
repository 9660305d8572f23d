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
        return hasher.finalized().hex
    }

    private static func bytes(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Distinct sizes below the head, in no order, the same on every run.
    private static func smallSizes(_ count: Int, seed: UInt64) -> [Int] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        var seen: Set<Int> = []
        return (0..<count).compactMap { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let size = 1 + Int(state >> 33) % (FileIdentity.headBytes - 1)
            return seen.insert(size).inserted ? size : nil
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
                        #expect(digest.prefixes[Int64(prefix)]?.hex == Self.sha(data[0..<prefix]), "\(label)")
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

    /// A store that counted many small files has as many head lengths: every one is hashed in a new
    /// file's head, however the counted files came in, and the largest counted file it begins with is
    /// the one it continues.
    @Test func everyHeadLengthOfManySmallCountedFilesIsLookedAt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Self.bytes(6000)
        // Distinct sizes below the head, in no order; each counted file begins the input.
        let sizes = Self.smallSizes(400, seed: 1)
        let records = sizes.enumerated().map { Self.record(id: Int64($0.offset + 1), data[0..<$0.element]) }
        var identity = FileIdentity(records)
        let (verdict, digest) = try examined(data, identity: identity, stopAfterHead: true, piece: nil, in: directory)
        let largest = try #require(records.max { $0.size < $1.size })
        #expect(verdict == .continues(largest))
        for size in sizes { #expect(digest.prefixes[Int64(size)]?.hex == Self.sha(data[0..<size]), "prefix \(size)") }

        // A file that begins with none of them, and a length asked for by `hashPrefixes`.
        var other = data
        other[0] ^= 0xFF
        identity.hashPrefixes(ofLength: 4000, lead: nil)
        identity.hashPrefixes(ofLength: 0, lead: nil)
        // Lengths watched for files with a lead: hashed only in a file with that lead.
        let otherLead = try #require(SHA256.Digest(hex: Self.sha(other[0..<FileIdentity.leadBytes])))
        identity.hashPrefixes(ofLength: 3000, lead: otherLead)
        let ownLead = try #require(SHA256.Digest(hex: Self.sha(data[0..<FileIdentity.leadBytes])))
        identity.hashPrefixes(ofLength: 2000, lead: ownLead)
        let (otherVerdict, otherDigest) = try examined(other, identity: identity, stopAfterHead: true, piece: 1000, in: directory)
        #expect(otherVerdict == .new)
        #expect(otherDigest.prefixes[4000]?.hex == Self.sha(other[0..<4000]))
        #expect(otherDigest.prefixes[3000]?.hex == Self.sha(other[0..<3000]))
        #expect(otherDigest.prefixes[2000] == nil || sizes.contains(2000))
        #expect(otherDigest.prefixes[0] == nil)
    }

    /// Counted files with a lead are looked for through it: a file that begins with them continues the
    /// largest, whether or not others lack a lead, and a file whose lead is another hashes none of
    /// their head lengths.
    @Test func countedFilesWithALeadAreFoundThroughIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hig-audit-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = Self.bytes(6000)
        // Around the lead's length and the head's, and any between.
        let edges = [FileIdentity.leadBytes - 1, FileIdentity.leadBytes, FileIdentity.leadBytes + 1, FileIdentity.headBytes - 1]
        let sizes = Array(Set(Self.smallSizes(300, seed: 2) + edges))
        let records = sizes.enumerated().map { index, size in
            var record = Self.record(id: Int64(index + 1), data[0..<size])
            // A third counted by an earlier version, without a lead.
            if FileIdentity.narrowsByLead(headLength: size), index % 3 != 0 {
                record.leadSHA256 = Self.sha(data[0..<FileIdentity.leadBytes])
            }
            return record
        }
        let identity = FileIdentity(records)
        for piece in [nil, 1000, 40] as [Int?] {
            let (verdict, digest) = try examined(data, identity: identity, stopAfterHead: true, piece: piece, in: directory)
            #expect(verdict == .continues(try #require(records.max { $0.size < $1.size })))
            for size in sizes { #expect(digest.prefixes[Int64(size)]?.hex == Self.sha(data[0..<size]), "prefix \(size)") }
            #expect(digest.prefixes[Int64(FileIdentity.leadBytes)]?.hex == Self.sha(data[0..<FileIdentity.leadBytes]))
            // A full head is hashed in every file: no lead is kept for it.
            #expect(digest.headLength == FileIdentity.headBytes && digest.lead == nil)
        }

        var other = data
        other[FileIdentity.leadBytes - 1] ^= 0xFF
        let (verdict, digest) = try examined(other, identity: identity, stopAfterHead: true, piece: nil, in: directory)
        #expect(verdict == .continues(try #require(records.filter { $0.size < FileIdentity.leadBytes }.max { $0.size < $1.size })))
        for record in records where FileIdentity.narrowsByLead(headLength: record.headLength) {
            #expect((digest.prefixes[record.size] != nil) == (record.leadSHA256 == nil), "size \(record.size)")
        }
    }

    /// A digest's value gives back the hex it was read from, and no other text reads as a digest.
    @Test func aDigestReadsBackItsHexAndNothingElse() {
        var hasher = SHA256()
        hasher.update(Array("abc".utf8))
        let hex = hasher.finalized().hex
        #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.Digest(hex: hex) == hasher.finalized())
        #expect(SHA256.Digest(hex: hex)?.hex == hex)
        #expect(Set([hasher.finalized(), SHA256.Digest(hex: hex)!]).count == 1)
        for text in ["", String(hex.dropLast()), hex + "0", hex.uppercased(), "g" + hex.dropFirst(), String(hex.reversed())] {
            #expect(SHA256.Digest(hex: text)?.hex != hex, "\(text)")
        }
    }

    /// Prefix digests keep their length order whatever order they are recorded in.
    @Test func prefixDigestsAreFoundByLengthInAnyOrder() {
        var hasher = SHA256()
        var expected: [Int64: SHA256.Digest] = [:]
        var prefixes = PrefixDigests()
        for length in [Int64(50), 3, 4096, 7, 50, 1, 9000].shuffled() {
            hasher.update([UInt8(truncatingIfNeeded: length)])
            expected[length] = hasher.finalized()
            prefixes.record(hasher.finalized(), length: length)
        }
        for length in Int64(0)...9001 { #expect(prefixes[length] == expected[length]) }
    }
}
