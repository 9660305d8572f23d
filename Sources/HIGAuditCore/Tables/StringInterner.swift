/// Keeps one copy of each repeated string (rule ids, screens, devices, app versions) and hands out
/// small integer ids, so that a million stored violations cost a few bytes each for these fields.
struct StringInterner: Sendable {
    private var ids: [String: Int] = [:]
    private(set) var strings: [String] = []

    mutating func intern(_ string: String) -> Int {
        if let id = ids[string] { return id }
        let id = strings.count
        strings.append(string)
        ids[string] = id
        return id
    }

    subscript(id: Int) -> String { strings[id] }
}
