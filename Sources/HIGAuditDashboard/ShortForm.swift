/// Short display forms of long values for the page's tables, each shown with the full value in a
/// `title` attribute (and kept whole in the CSV export): a session id or path broken across lines in
/// the middle of a token can neither be read nor copied.
enum ShortForm {
    /// The most characters a value from log data keeps on the page, title attributes included: a line
    /// may be a mebibyte long, and a few such screens or details would make the page as large. The
    /// CSV export keeps every value whole.
    static let longestText = 256

    /// `text`, cut to `longestText` characters and `…`.
    static func bounded(_ text: String) -> String {
        text.count > longestText ? String(text.prefix(longestText)) + "…" : text
    }

    /// Ids longer than this are cut to their first `idPrefix` characters and `…`; `show` and `query
    /// --session` take a prefix.
    static let longestId = 12
    static let idPrefix = 8

    /// `00237b515bc80a49` as `00237b51…`; a short id as it is.
    static func id(_ id: String) -> String {
        id.count > longestId ? String(id.prefix(idPrefix)) + "…" : id
    }

    /// `2026-11-20T21:04:05.123Z` as `2026-11-20 21:04:05`: the page says the times are UTC.
    static func time(_ stamp: String) -> String {
        guard stamp.count >= 19 else { return stamp }
        let characters = Array(stamp)
        return String(characters[0..<10]) + " " + String(characters[11..<19])
    }

    /// `logs/2026-11-20/device-07/part-3.ndjson.zst:12` as `part-3.ndjson.zst:12`: the file and line.
    static func source(_ source: String) -> String {
        guard let slash = source.lastIndex(of: "/") else { return source }
        return String(source[source.index(after: slash)...])
    }
}
