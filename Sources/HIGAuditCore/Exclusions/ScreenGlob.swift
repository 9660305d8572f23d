/// A screen pattern of an `exclude:` entry (SPEC §6): `*` matches any run of characters, empty or not,
/// `/` included; `?` matches one Unicode scalar; every other scalar matches itself, case-sensitively.
/// There are no escapes, and the pattern must match the whole screen, so `Settings` does not match
/// `Settings/Privacy` while `Settings*` does.
///
/// Matching works on Unicode scalars rather than `Character`s so that `?` means the same thing for
/// every screen name whatever its combining marks, and so that equality is of the bytes the app wrote.
public struct ScreenGlob: Sendable, Equatable, CustomStringConvertible {
    public let pattern: String
    private let scalars: [Unicode.Scalar]

    public init(_ pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    public var description: String { pattern }

    /// Whether the whole of `screen` matches. Greedy with one backtrack point (the latest `*`), which
    /// is enough for `*` and `?` alone and keeps the time linear in practice, never exponential.
    public func matches(_ screen: String) -> Bool {
        let text = Array(screen.unicodeScalars)
        var p = 0
        var t = 0
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < scalars.count, scalars[p] == "*" {
                star = (p, t)
                p += 1
            } else if p < scalars.count, scalars[p] == "?" || scalars[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                // Let the latest `*` swallow one more scalar and try again from there.
                star = (last.pattern, last.text + 1)
                p = last.pattern + 1
                t = last.text + 1
            } else {
                return false
            }
        }
        while p < scalars.count, scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }
}
