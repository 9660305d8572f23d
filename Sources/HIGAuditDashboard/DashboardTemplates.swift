import Mustache

/// The Mustache templates of the page: `index` and the partials it includes. The defaults are the
/// files of `Dashboards/templates/`, compiled in (`DefaultTemplates`) so that a binary copied to
/// another machine needs no source tree; `--templates DIR` replaces any of them by name.
public struct DashboardTemplates: Sendable {
    /// The names the page is made of; a directory given with `--templates` may hold any of them.
    public static let names = ["index", "style", "overview", "releases", "screens", "examples", "accepted", "health", "catalogue"]

    let library: MustacheLibrary
    /// Template name → the file it came from, or "built in".
    public let origins: [String: String]

    public static func builtIn() throws(DashboardTemplateError) -> DashboardTemplates {
        try DashboardTemplates(sources: DefaultTemplates.sources, origins: [:])
    }

    /// The built-in templates with those of `overrides` (name → template text, from `origin`) in
    /// their place. A name that is not one of `names` is refused: it would be silently ignored.
    public init(overriding overrides: [String: String], origins: [String: String]) throws(DashboardTemplateError) {
        if let unknown = overrides.keys.sorted().first(where: { !Self.names.contains($0) }) {
            throw DashboardTemplateError(
                template: origins[unknown] ?? unknown,
                message: "is not a template of the dashboard (expected one of \(Self.names.joined(separator: ", ")))")
        }
        try self.init(sources: DefaultTemplates.sources.merging(overrides) { _, new in new }, origins: origins)
    }

    private init(sources: [String: String], origins: [String: String]) throws(DashboardTemplateError) {
        var library = MustacheLibrary()
        for name in Self.names {
            do {
                try library.register(sources[name] ?? "", named: name)
            } catch {
                throw DashboardTemplateError(template: origins[name] ?? "the built-in \(name) template", message: "\(error)")
            }
        }
        self.library = library
        self.origins = origins
    }

    /// The page for `model`.
    public func render(_ model: DashboardModel) -> String {
        Self.writingOutControls(library.render(DashboardContext.make(model), withTemplate: "index") ?? "")
    }

    /// A bidirectional override or isolate from log data (U+202E in a screen id) would reverse the text
    /// around it on the page, making one value look like another; a control character (ESC, BEL, C1)
    /// is invisible and no character an HTML page may hold: each is shown as its code instead. The
    /// templates hold none of their own (only tabs, line ends and form feeds, which stay), so the whole
    /// page can be treated alike.
    static func writingOutControls(_ page: String) -> String {
        func isWrittenOut(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09, 0x0A, 0x0C, 0x0D: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard page.unicodeScalars.contains(where: isWrittenOut) else { return page }
        var result = ""
        result.unicodeScalars.reserveCapacity(page.unicodeScalars.count)
        for scalar in page.unicodeScalars {
            if isWrittenOut(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A template that does not parse, or that is not one of the page's.
public struct DashboardTemplateError: Error, CustomStringConvertible {
    public var template: String
    public var message: String
    public var description: String { "the dashboard template \(template) \(message)" }
}
