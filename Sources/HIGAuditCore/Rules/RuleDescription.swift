/// What a rule says about itself: the single source for the `rules` listing, the config file's keys,
/// the documentation and the example tests (modelled on SwiftLint's `RuleDescription`).
public struct RuleDescription: Sendable {
    /// The id used in config files and output, e.g. `haptic-overuse`.
    public var identifier: String
    /// A short human name, e.g. "Haptic overuse".
    public var name: String
    /// One sentence: what triggers the rule.
    public var summary: String
    /// The default severity; a rule may report a different one per violation (SPEC §3).
    public var severity: Severity
    public var citation: GuidelineCitation
    public var parameters: [RuleParameter]
    /// Event sequences that must produce violations, each at the lines marked with `↓`.
    public var triggeringExamples: [RuleExample]
    /// Event sequences that must produce none.
    public var nonTriggeringExamples: [RuleExample]
    /// True for the rules SPEC §3 lists as required; the others are its "further rules".
    public var isRequired: Bool
    /// True for a rule whose violation rests on the absence of a touch: it judges only sessions whose
    /// log holds every touch (`session.start.touches` `all`, SPEC §7 "Touch coverage"), since a touch
    /// an SDK did not capture would otherwise read as one the person never made.
    public var needsEveryTouch: Bool

    public init(
        identifier: String, name: String, summary: String, severity: Severity, citation: GuidelineCitation,
        parameters: [RuleParameter], triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample],
        isRequired: Bool = false, needsEveryTouch: Bool = false
    ) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.severity = severity
        self.citation = citation
        self.parameters = parameters
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.isRequired = isRequired
        self.needsEveryTouch = needsEveryTouch
    }

    public func parameter(named name: String) -> RuleParameter? {
        parameters.first { $0.name == name }
    }
}

/// The guideline a rule enforces, as people can follow it: the public page of Apple's Human Interface
/// Guidelines that states it, and the guideline in one sentence of our own (SPEC "Guideline sources").
public struct GuidelineCitation: Sendable, Equatable {
    public var page: GuidelinePage
    /// The guideline in one English sentence, in the project's own words.
    public var guideline: String
    /// The contract's background text the rule was drawn from. Never shown to users (they do not have
    /// these texts); a test holds the quote to its file, so the rule's origin stays checkable.
    public var origin: SeedOrigin

    public init(page: GuidelinePage, guideline: String, origin: SeedOrigin) {
        self.page = page
        self.guideline = guideline
        self.origin = origin
    }
}

/// A page of Apple's Human Interface Guidelines that a rule cites.
public enum GuidelinePage: String, Sendable, CaseIterable {
    case applePencilAndScribble = "apple-pencil-and-scribble"
    case launching
    case loading
    case modality
    case playingHaptics = "playing-haptics"
    case popovers
    case privacy
    case ratingsAndReviews = "ratings-and-reviews"
    case tabBars = "tab-bars"
    case widgets

    /// The page's title as Apple's site shows it.
    public var title: String {
        switch self {
        case .applePencilAndScribble: "Apple Pencil and Scribble"
        case .launching: "Launching"
        case .loading: "Loading"
        case .modality: "Modality"
        case .playingHaptics: "Playing haptics"
        case .popovers: "Popovers"
        case .privacy: "Privacy"
        case .ratingsAndReviews: "Ratings and reviews"
        case .tabBars: "Tab bars"
        case .widgets: "Widgets"
        }
    }

    public static let baseURL = "https://developer.apple.com/design/human-interface-guidelines/"

    public var url: String { Self.baseURL + rawValue }
}

/// Where in the contract's background texts (SPEC "Guideline sources": seed files in French, Chinese
/// and Russian, not part of the project) a rule's guideline was read.
public struct SeedOrigin: Sendable, Equatable {
    /// File name among the seeds, e.g. `001_a5135006b5b70e41.txt`.
    public var file: String
    /// A short quote, in the seed's own language.
    public var quote: String

    public init(file: String, quote: String) {
        self.file = file
        self.quote = quote
    }
}

/// A numeric rule parameter (every parameter of SPEC §3 is a whole number of milliseconds or a count).
public struct RuleParameter: Sendable, Equatable {
    /// The key under `rules.<id>.` in the config file, e.g. `burst_window_ms`.
    public var name: String
    public var defaultValue: Int64
    /// The smallest value that makes sense; a config value below it is refused.
    public var minimum: Int64
    public var summary: String

    public init(name: String, defaultValue: Int64, minimum: Int64, summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.summary = summary
    }
}

/// Events, one NDJSON line each, that a rule's tests feed through the decoder and engine.
///
/// A line starting with `↓` must be the source of exactly one violation of the rule; no other line may
/// be. The example records where it was written so a failing example points at the rule's own file.
public struct RuleExample: Sendable {
    public var lines: [String]
    /// Parameter overrides for this example only.
    public var parameters: [String: Int64]
    public var file: String
    public var line: UInt

    public static let marker: Character = "↓"

    public init(
        _ lines: [String], parameters: [String: Int64] = [:], file: StaticString = #filePath, line: UInt = #line
    ) {
        self.lines = lines
        self.parameters = parameters
        self.file = "\(file)"
        self.line = line
    }

    /// The lines without markers, as they would appear in a log.
    public var logLines: [String] {
        lines.map { $0.first == Self.marker ? String($0.dropFirst()) : $0 }
    }

    /// 1-based numbers of the lines that must be violation sources.
    public var markedLineNumbers: [Int64] {
        lines.enumerated().compactMap { $0.element.first == Self.marker ? Int64($0.offset + 1) : nil }
    }
}
