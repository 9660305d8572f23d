import HIGAuditStore

/// What `compare` says of its sides' app versions. A version side takes every version extending it
/// (`--base 5.2` is 5.2.0 and 5.2.1), which joined releases silently; so each side's versions are named
/// on standard error before the table, and two version sides that share a version are refused: their
/// sessions would be counted on both sides, and the test assumes two separate populations.
enum CompareSideVersions {
    /// At most this many versions are named per side.
    static let shown = 8

    /// `base is app version '5.2', holding 5.2.0 (42 sessions), 5.2.1 (96 sessions)`.
    static func note(side: String, _ chosen: ComparisonSide, _ versions: [SideVersion]) -> String {
        let named = versions.prefix(shown).map(\.description).joined(separator: ", ")
        let more = versions.count > shown ? " and \(versions.count - shown) more" : ""
        return "\(side) is \(chosen), holding \(versions.isEmpty ? "no sessions" : named + more)"
    }

    /// The refusal of two sides that hold a version in common, or nil when they share none.
    static func overlap(base: String, head: String, _ baseVersions: [SideVersion], _ headVersions: [SideVersion]) -> String? {
        let headNames = Set(headVersions.map(\.version))
        let shared = baseVersions.map(\.version).filter(headNames.contains)
        guard !shared.isEmpty else { return nil }
        let exact = baseVersions.count > 1 ? baseVersions.map(\.version).first { !headNames.contains($0) } : nil
        let instead = exact.map { "; compare one release with the other, e.g. --base \($0) --head \(head)" } ?? ""
        return "--base \(base) and --head \(head) share app version\(shared.count > 1 ? "s" : "") \(shared.joined(separator: ", ")): "
            + "\(shared.count > 1 ? "their" : "its") sessions would count on both sides\(instead)"
    }
}

extension ComparisonSide {
    /// Whether two sides of the same kind choose some of the same sessions by their very definition:
    /// the same run, or periods with time in common. (Versions are checked against the store, where a
    /// side's versions are known: `CompareSideVersions.overlap`.)
    func overlaps(_ other: ComparisonSide) -> Bool {
        switch (self, other) {
        case (.run(let a), .run(let b)): return a == b
        case (.period(let since, let until), .period(let otherSince, let otherUntil)):
            let start = max(since ?? .min, otherSince ?? .min), end = min(until ?? .max, otherUntil ?? .max)
            return start < end
        default: return false
        }
    }
}
