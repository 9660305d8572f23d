/// App-version filters match by whole components: `5.2` is release 5.2 and every version that extends
/// it (`5.2`, `5.2.0`, `5.2.1`, `5.2.1.7`), never `5.20`, so that a question about "5.2" gets the
/// release people mean whatever build numbers the app reports.
public enum VersionPrefix {
    /// Whether `version` is `filter` or extends it by whole components.
    public static func matches(_ version: String, _ filter: String) -> Bool {
        guard version.utf8.starts(with: filter.utf8) else { return false }
        let rest = version.utf8.dropFirst(filter.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ".")
    }
}

/// Suggestions for a value that matched nothing: the existing values closest to it.
public enum ClosestValues {
    /// Up to `limit` of `candidates`, nearest first: those that share the longest beginning with
    /// `wanted`, then the fewest edits, then in text order.
    public static func to(_ wanted: String, among candidates: some Sequence<String>, limit: Int = 5) -> [String] {
        let scored = Set(candidates).map { candidate in
            (candidate, commonPrefix(wanted, candidate), editDistance(wanted, candidate))
        }
        return scored.sorted { ($1.1, $0.2, $0.0) < ($0.1, $1.2, $1.0) }.prefix(limit).map(\.0)
    }

    static func commonPrefix(_ a: String, _ b: String) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions, and a swap of two
    /// neighbours as one edit.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let twoBack = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], twoBack[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}

/// What to say when a filter value matched nothing, instead of printing empty tables without a word.
public enum FilterMisses {
    /// One note per value of `wanted` that matches none of `existing` (with `matches(existing, wanted)`),
    /// naming the closest existing values: `--app-version 5.3 matches no session; app versions seen: …`.
    public static func notes(
        option: String, wanted: Set<String>, existing: Set<String>, kind: String,
        matches: (String, String) -> Bool = { $0 == $1 }
    ) -> [String] {
        wanted.sorted().compactMap { value in
            guard !existing.contains(where: { matches($0, value) }) else { return nil }
            let closest = ClosestValues.to(value, among: existing)
            let seen = closest.isEmpty ? "no session was read" : "\(kind) seen: " + closest.joined(separator: ", ")
            return "\(option) \(value) matches no session; \(seen)"
        }
    }

    /// The notes for the session filters that name values (`--app-version`, `--device`).
    public static func notes(for filter: TableFilter, appVersions: Set<String>, devices: Set<String>) -> [String] {
        notes(option: "--app-version", wanted: filter.appVersions, existing: appVersions, kind: "app versions",
              matches: VersionPrefix.matches)
            + notes(option: "--device", wanted: filter.devices, existing: devices, kind: "devices")
    }
}
