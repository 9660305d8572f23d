import HIGAuditCore

/// The order of `query --group-by`'s rows.
///
/// People group by screen or rule to find the worst first, so the default puts the most violations
/// first. Days and app versions are a series, read in order: they keep their order, and the rows are
/// ordered within each of them.
public enum GroupOrder: String, CaseIterable, Sendable {
    /// Most violations first (ties in the dimensions' order), within each day and app version.
    case violations
    /// Highest rate of sessions affected first (ties in the dimensions' order), within each day and app version.
    case rate
    /// By the dimensions' values in the order given: app versions in version order, the rest as text.
    case dimensions
}

extension GroupDimension {
    /// Whether its values are a series that keeps its order whatever the rows are sorted by.
    var isSeries: Bool { self == .day || self == .appVersion }

    /// Whether `a` comes before `b` as values of this dimension.
    func orders(_ a: String, before b: String) -> Bool {
        self == .appVersion ? VersionOrder.areInIncreasingOrder(a, b) : a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
