import Foundation

/// An SDK session's accepted launch ids with their launch numbers (`checkpoint_import_sessions.launch_ids`):
/// per id, in launch order, its number and its byte count as 4-byte little-endian integers, then its
/// UTF-8 bytes. Ids may hold any character, so none is a separator; and a row of a few launches is read
/// back without a JSON decoder, as every session restored is.
enum StoredLaunchIds {
    static func encode(_ ids: [String: Int]) -> Data {
        var data = Data()
        let ordered = ids.sorted {
            $0.value != $1.value ? $0.value < $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        }
        for (id, launch) in ordered {
            append(UInt32(truncatingIfNeeded: launch), to: &data)
            append(UInt32(truncatingIfNeeded: id.utf8.count), to: &data)
            data.append(contentsOf: id.utf8)
        }
        return data
    }

    /// The ids of `data`, or nil when it is not of this form (a row edited by hand, or damaged).
    static func decode(_ data: Data) -> [String: Int]? {
        let bytes = [UInt8](data)
        var ids: [String: Int] = [:]
        var at = 0
        func word() -> Int? {
            guard bytes.count - at >= 4 else { return nil }
            defer { at += 4 }
            return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        while at < bytes.count {
            guard let launch = word(), let count = word(), bytes.count - at >= count else { return nil }
            ids[String(decoding: bytes[at..<(at + count)], as: UTF8.self)] = launch
            at += count
        }
        return ids
    }

    private static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
