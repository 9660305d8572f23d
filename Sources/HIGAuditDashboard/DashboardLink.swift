/// Which link targets the page may carry in an `href` (`dashboard --csv-link`, and the link
/// `--dashboard` makes to `--out`'s CSV).
///
/// A link is followed by whoever opens the page, so it must not run anything: only a web address
/// (`http:`, `https:`) or a path relative to the page. A `javascript:`, `data:`, `file:` or any other
/// scheme is refused, as is a protocol-relative `//host` path (another site, named as if it were ours).
public enum DashboardLink {
    public static func isAllowed(_ link: String) -> Bool {
        guard !link.isEmpty, !link.hasPrefix("//"), !link.hasPrefix("\\\\") else { return false }
        // Browsers drop tabs and newlines inside a URL and trim spaces and controls around it, so a
        // scheme can hide behind them: no control character anywhere, no space at either end.
        guard link.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }),
              link.first != " ", link.last != " " else { return false }
        let lowered = link.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return true }
        // Relative: no scheme, that is no ':' before the first '/', '?' or '#'.
        let head = link.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !head.contains(":")
    }
}
