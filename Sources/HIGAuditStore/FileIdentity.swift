#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the store makes of an input file before reading it (SPEC §5: "by content rather than path").
enum FileVerdict: Equatable {
    /// Not seen before: read it whole.
    case new
    /// Exactly a file already counted (maybe under another name): nothing to read.
    case alreadyCounted(CountedFile)
    /// A counted file with more bytes now (an upload appended frames), or with a held-back tail that
    /// `--close-open` now counts: read from the stored resume point.
    case continues(CountedFile)
    /// Not what was counted under this name or with this beginning: reported, not counted again.
    case changed(String)
    /// Nothing in it: not recorded, so it cannot be mistaken for the beginning of every other file.
    case empty
}

/// A file's content digests from one pass over it: the head key, the whole file, and the prefixes
/// that earlier records ask about.
struct FileDigest {
    var size: Int64
    var headLength: Int
    var headSHA256: String
    var contentSHA256: String
    /// Digests of prefixes, by length (head lengths of small records and sizes of candidates).
    var prefixes = PrefixDigests()
    /// False when `examine` stopped after the head (`size` and `contentSHA256` not known yet): the
    /// file is then hashed as it is read (`finish(with:)`).
    var isComplete = true

    /// The digest of the first `FileIdentity.leadBytes` bytes, for a file whose head is longer than
    /// that and shorter than `FileIdentity.headBytes`; nil otherwise, where the head is hashed in every
    /// file anyway (`FileIdentity.narrowsByLead`).
    var lead: SHA256.Digest? {
        FileIdentity.narrowsByLead(headLength: headLength) ? prefixes[Int64(FileIdentity.leadBytes)] : nil
    }

    /// Completes a digest that `examine` left after the head, with the hash of every byte read.
    mutating func finish(with hasher: SHA256) {
        size = hasher.length
        let content = hasher.finalized()
        contentSHA256 = content.hex
        prefixes.record(content, length: size)
        isComplete = true
    }
}

/// The digests of a file's prefixes, by length, in ascending length order: `examine` records them in
/// that order, so a record appends.
struct PrefixDigests {
    private var lengths: [Int64] = []
    private var digests: [SHA256.Digest] = []

    subscript(length: Int64) -> SHA256.Digest? {
        let index = firstIndex(notBelow: length)
        return index < lengths.count && lengths[index] == length ? digests[index] : nil
    }

    /// Records the digest of the prefix of `length` bytes, replacing one recorded before.
    mutating func record(_ digest: SHA256.Digest, length: Int64) {
        let index = firstIndex(notBelow: length)
        if index < lengths.count, lengths[index] == length {
            digests[index] = digest
        } else if index == lengths.count {
            lengths.append(length)
            digests.append(digest)
        } else {
            lengths.insert(length, at: index)
            digests.insert(digest, at: index)
        }
    }

    /// Whether the prefix of `length` bytes has the digest `hex` (as the store writes digests).
    func prefix(_ length: Int64, hasHex hex: String) -> Bool {
        self[length].map { $0.hex == hex } ?? false
    }

    private func firstIndex(notBelow length: Int64) -> Int {
        // Every record `examine` makes is past the last length.
        if let last = lengths.last, last < length { return lengths.count }
        var low = 0
        var high = lengths.count
        while low < high {
            let middle = (low + high) / 2
            if lengths[middle] < length { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The prefix lengths `examine` hashes in one file, in ascending order: those of every file, and
/// those its lead adds.
private struct PrefixLengths {
    private let everyFile: [Int]
    private var everyFileNext = 0
    private var added: [Int] = []
    private var addedNext = 0

    init(everyFile: [Int]) {
        self.everyFile = everyFile
    }

    /// The least length above `current`.
    mutating func first(after current: Int64) -> Int? {
        while everyFileNext < everyFile.count, Int64(everyFile[everyFileNext]) <= current { everyFileNext += 1 }
        while addedNext < added.count, Int64(added[addedNext]) <= current { addedNext += 1 }
        let fromEveryFile = everyFileNext < everyFile.count ? everyFile[everyFileNext] : nil
        let fromAdded = addedNext < added.count ? added[addedNext] : nil
        switch (fromEveryFile, fromAdded) {
        case let (a?, b?): return min(a, b)
        case let (a, b): return a ?? b
        }
    }

    mutating func add(_ lengths: [Int]) {
        guard !lengths.isEmpty else { return }
        added = (added[addedNext...] + lengths).sorted()
        addedNext = 0
    }
}

/// The index of counted files, by head digest, for one run and updated as it goes: the files the
/// run counted or changed in memory, the store's others looked up in it as needed (`StoredFiles`).
///
/// A new file may begin with a counted one (an upload that grew), so `examine` hashes its prefix at
/// the head length of every counted file it may begin with. Counted files shorter than the head have
/// as many head lengths as sizes, so these are found through the digest of their first `leadBytes`
/// bytes, their lead: a file hashes its lead, then only the head lengths of the counted files with
/// the same lead. Only the head lengths of files without a known lead (counted by an earlier version,
/// or no longer than the lead) are hashed in every file.
struct FileIdentity {
    /// How much of the beginning identifies a file for lookup.
    static let headBytes = 4096
    /// How much of the beginning narrows the counted files a file may begin with.
    static let leadBytes = 64

    private(set) var files: [Int64: CountedFile] = [:]
    private var byHead: [SHA256.Digest: [Int64]] = [:]
    private var byPath: [String: [Int64]] = [:]
    /// Counted files whose head is longer than their known lead, by lead.
    private var byLead: [SHA256.Digest: [Int64]] = [:]
    /// Head lengths to hash in files with a lead (`hashPrefixes(ofLength:lead:)`), by lead.
    private var watchedLeads: [SHA256.Digest: [Int]] = [:]
    /// Head lengths hashed in every file, ascending, without 0: the lead's and the head's, and those
    /// of counted and pending files that `narrowsByLead` leaves out or whose lead is not known.
    private var headLengths: [Int] = [leadBytes, headBytes]
    /// The store's counted files not in `files`; nil for an index of `files` alone.
    private let stored: StoredFiles?

    init(_ records: [CountedFile], stored: StoredFiles? = nil) {
        self.stored = stored
        for record in records { remember(record) }
        for length in stored?.unledHeadLengths() ?? [] { hashInEveryFile(length: length) }
    }

    /// The stored records of `records` that this run has not remembered since (those in `files`
    /// are the current ones).
    private func notRemembered(_ records: [CountedFile]) -> [CountedFile] {
        records.filter { files[$0.id] == nil }
    }

    mutating func remember(_ record: CountedFile) {
        if let old = files[record.id] {
            if let head = SHA256.Digest(hex: old.headSHA256) { byHead[head]?.removeAll { $0 == old.id } }
            if let lead = Self.lead(of: old) { byLead[lead]?.removeAll { $0 == old.id } }
            byPath[old.displayPath]?.removeAll { $0 == old.id }
        }
        files[record.id] = record
        // A head that is not a digest's hex (a store edited by hand) begins no file.
        if let head = SHA256.Digest(hex: record.headSHA256) { byHead[head, default: []].append(record.id) }
        byPath[record.displayPath, default: []].append(record.id)
        if let lead = Self.lead(of: record) {
            byLead[lead, default: []].append(record.id)
        } else {
            hashInEveryFile(length: record.headLength)
        }
    }

    /// Makes `examine` hash the prefix of `length` bytes of every later file that begins with `lead`
    /// (of every later file when `lead` is nil or `narrowsByLead` is false for `length`), as it does
    /// for the head lengths of counted files: a run reading ahead compares files with those it has not
    /// counted yet.
    mutating func hashPrefixes(ofLength length: Int, lead: SHA256.Digest?) {
        if Self.narrowsByLead(headLength: length), let lead {
            watchedLeads[lead, default: []].append(length)
        } else {
            hashInEveryFile(length: length)
        }
    }

    /// Whether files with a head of `headLength` bytes are looked for through their lead: heads longer
    /// than the lead; not the full head, whose length every file hashes.
    static func narrowsByLead(headLength: Int) -> Bool {
        headLength > leadBytes && headLength < headBytes
    }

    /// A record's lead, where it narrows the search and is known.
    private static func lead(of record: CountedFile) -> SHA256.Digest? {
        guard narrowsByLead(headLength: record.headLength), let lead = record.leadSHA256 else { return nil }
        return SHA256.Digest(hex: lead)
    }

    /// The head lengths of counted and watched files that begin with `lead`.
    private func headLengths(afterLead lead: SHA256.Digest) -> [Int] {
        let storedLengths = notRemembered(stored?.withLead(hex: lead.hex) ?? [])
            .filter { Self.narrowsByLead(headLength: $0.headLength) }.map(\.headLength)
        return (byLead[lead] ?? []).compactMap { files[$0]?.headLength } + storedLengths + (watchedLeads[lead] ?? [])
    }

    private mutating func hashInEveryFile(length: Int) {
        guard length > 0 else { return }
        var low = 0
        var high = headLengths.count
        while low < high {
            let middle = (low + high) / 2
            if headLengths[middle] < length { low = middle + 1 } else { high = middle }
        }
        if low == headLengths.count || headLengths[low] != length { headLengths.insert(length, at: low) }
    }

    /// Hashes the file at `path` in one pass and decides what to do with it.
    ///
    /// With `stopAfterHead`, a file whose first `headBytes` bytes begin no counted file is decided
    /// from them alone (new, or changed if its name was counted before) and hashed no further: the
    /// digest comes back incomplete, for the caller to finish from the reading pass, so that a new
    /// file is read once rather than once to hash and once to analyse.
    func examine(
        path: String, displayPath: String, closeOpen: Bool, stopAfterHead: Bool = false
    ) throws(FileHashError) -> (FileVerdict, FileDigest) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileHashError(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileHashError(path: path, errno: errno) }

        let chunk = 1 << 20
        // The head alone is all most files need read here (`stopAfterHead`).
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: stopAfterHead ? Self.headBytes : chunk, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var digest = FileDigest(size: 0, headLength: 0, headSHA256: "", contentSHA256: "")
        var candidates: [CountedFile] = []
        var wanted: [Int64] = []
        var lengths = PrefixLengths(everyFile: headLengths)
        var headDone = false
        while true {
            if headDone, buffer.count < chunk {
                buffer.deallocate()
                buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            }
            // Only the head while it may be all that is needed.
            let want = stopAfterHead && !headDone ? Self.headBytes - Int(hasher.length) : chunk
            let got = Glibc.read(descriptor, buffer.baseAddress, want)
            if got < 0 {
                if errno == EINTR { continue }
                throw FileHashError(path: path, errno: errno)
            }
            var bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got])
            // Stop at every prefix length someone asked about, inside this chunk.
            if !headDone {
                while let length = lengths.first(after: hasher.length), Int64(length) <= hasher.length + Int64(bytes.count) {
                    let take = Int(Int64(length) - hasher.length)
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
                    bytes = UnsafeRawBufferPointer(rebasing: bytes[take...])
                    let sha = hasher.finalized()
                    digest.prefixes.record(sha, length: Int64(length))
                    for id in byHead[sha] ?? [] {
                        if let record = files[id], record.headLength == length { candidates.append(record) }
                    }
                    candidates += notRemembered(stored?.withHead(length: length, hex: sha.hex) ?? [])
                    if length == Self.leadBytes { lengths.add(headLengths(afterLead: sha)) }
                }
                if hasher.length + Int64(bytes.count) >= Int64(Self.headBytes) || got == 0 {
                    headDone = true
                    wanted = Set(candidates.map(\.size)).sorted()
                    if stopAfterHead, candidates.isEmpty, got > 0 {
                        // Exactly the head was read (`want`), and `headBytes` is always among the
                        // prefix lengths hashed above.
                        hasher.update(bytes)
                        digest.headLength = Self.headBytes
                        digest.headSHA256 = (digest.prefixes[Int64(Self.headBytes)] ?? hasher.finalized()).hex
                        digest.size = hasher.length
                        digest.isComplete = false
                        return (verdict(for: digest, candidates: [], displayPath: displayPath, closeOpen: closeOpen), digest)
                    }
                }
            }
            for size in wanted where size > hasher.length && size <= hasher.length + Int64(bytes.count) {
                let take = Int(size - hasher.length)
                hasher.update(UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
                bytes = UnsafeRawBufferPointer(rebasing: bytes[take...])
                digest.prefixes.record(hasher.finalized(), length: size)
            }
            hasher.update(bytes)
            if got == 0 { break }
        }
        digest.size = hasher.length
        let content = hasher.finalized()
        digest.contentSHA256 = content.hex
        digest.prefixes.record(content, length: digest.size)
        digest.headLength = Int(min(digest.size, Int64(Self.headBytes)))
        digest.headSHA256 = digest.prefixes[Int64(digest.headLength)]?.hex ?? digest.contentSHA256
        return (verdict(for: digest, candidates: candidates, displayPath: displayPath, closeOpen: closeOpen), digest)
    }

    private func verdict(for digest: FileDigest, candidates: [CountedFile], displayPath: String, closeOpen: Bool) -> FileVerdict {
        if digest.size == 0 { return .empty }
        var mismatch: CountedFile?
        // The candidate that covers most of the file wins (a copy of a grown file matches both).
        for record in candidates.sorted(by: { $0.size > $1.size }) {
            guard record.size <= digest.size, digest.prefixes.prefix(record.size, hasHex: record.contentSHA256) else {
                mismatch = mismatch ?? record
                continue
            }
            if record.size == digest.size, !(closeOpen && record.heldBack) { return .alreadyCounted(record) }
            return .continues(record)
        }
        if let mismatch {
            return .changed(
                "begins like \(mismatch.displayPath), counted earlier with \(mismatch.size) bytes, but its content differs "
                    + "from what was counted; not counted again")
        }
        let named = byPath[displayPath]?.first.flatMap { files[$0] }
            ?? stored?.firstNamed(displayPath).flatMap { files[$0.id] == nil ? $0 : nil }
        if let record = named {
            return .changed(
                "its beginning changed since it was counted (\(record.size) bytes); not counted again. "
                    + "Give changed logs a new name if they are new data")
        }
        return .new
    }
}

/// A file that could not be hashed.
struct FileHashError: Error {
    var path: String
    var errno: Int32
    var message: String { String(cString: strerror(errno)) }
}
