import CZstd

/// Trained zstd dictionaries given by the user, ready to decode with and found by dictionary id.
///
/// A frame names the dictionary it was compressed with by id (RFC 8878 §3.1.1.1.3); the reader looks
/// the id up here before the frame and references the digested dictionary (`ZSTD_DCtx_refDDict`), so
/// each dictionary is digested once per run, not once per frame.
final class ZstdDictionaries {
    private var digested: [UInt32: OpaquePointer] = [:]

    init(files: [String]) throws(InputReaderError) {
        var pathByID: [UInt32: String] = [:]
        for path in files {
            let bytes = try Self.contents(of: path)
            let id = bytes.withUnsafeBytes { ZSTD_getDictID_fromDict($0.baseAddress, $0.count) }
            guard id != 0 else { throw .notADictionary(path: path) }
            if let earlier = pathByID[id] { throw .duplicateDictionaryID(id, paths: [earlier, path]) }
            guard let dictionary = bytes.withUnsafeBytes({ ZSTD_createDDict($0.baseAddress, $0.count) }) else {
                throw .unreadableDictionary(path: path, reason: "libzstd could not load it")
            }
            pathByID[id] = path
            digested[id] = dictionary
        }
    }

    deinit {
        for dictionary in digested.values { ZSTD_freeDDict(dictionary) }
    }

    /// The digested dictionary with this id, if the user gave it.
    func dictionary(id: UInt32) -> OpaquePointer? { digested[id] }

    var ids: [UInt32] { digested.keys.sorted() }

    private static func contents(of path: String) throws(InputReaderError) -> [UInt8] {
        let file: StoredFile
        do { file = try StoredFile(opening: InputSource(path: path)) } catch {
            throw .unreadableDictionary(path: path, reason: error.message)
        }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count: Int
            do { count = try file.read(into: chunk.baseAddress!, count: chunk.count) } catch {
                throw .unreadableDictionary(path: path, reason: error.message)
            }
            if count == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return bytes
    }
}
