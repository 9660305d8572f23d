/// `haptic-overuse` (SPEC §3, required): bursts of haptics, and single haptics that play too long.
///
/// Burst: haptic `i` violates when it and the `burst_count − 1` haptics before it all lie within
/// `burst_window_ms` before it (strictly: `ts > ts_i − window`). A maximal run of consecutive violating
/// haptics `i … j` is one violation from haptic `i − N + 1` to haptic `j`, counting `j − i + N`
/// haptics, with haptic `i` as source. Prolonged: a `duration_ms` above `max_duration_ms`. The two
/// parts are independent, so a long haptic inside a burst counts in both.
public struct HapticOveruseRule: SessionRule {
    public static let burstCount = RuleParameter(
        name: "burst_count", defaultValue: 5, minimum: 2,
        summary: "How many haptics within the window make a burst."
    )
    public static let burstWindowMs = RuleParameter(
        name: "burst_window_ms", defaultValue: 2000, minimum: 1,
        summary: "The window, in milliseconds, a burst's haptics fall in (exclusive at its far end)."
    )
    public static let maxDurationMs = RuleParameter(
        name: "max_duration_ms", defaultValue: 1500, minimum: 0,
        summary: "The longest a single continuous haptic may play, in milliseconds."
    )

    public static let identifier = "haptic-overuse"
    public static let interests = EventKindSet(.haptic)

    public static let description = RuleDescription(
        identifier: identifier,
        name: "Haptic overuse",
        summary: "Bursts of many haptics in a short window, or a single haptic that plays too long.",
        severity: .warning,
        citation: GuidelineCitation(
            page: .playingHaptics,
            guideline: "Avoid prolonged or repetitive haptics; playing haptics for many trivial interactions overwhelms people.",
            origin: SeedOrigin(
                file: "001_a5135006b5b70e41.txt",
                quote: "En général, évitez de concevoir une expérience qui produit un retour haptique prolongé ou répétitif."
            )
        ),
        parameters: [burstCount, burstWindowMs, maxDurationMs],
        triggeringExamples: [
            RuleExample([
                #"{"ts":1000,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1100,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1200,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1300,"session":"s","type":"haptic","kind":"selection"}"#,
                #"↓{"ts":1400,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1500,"session":"s","type":"haptic","kind":"selection"}"#,
            ]),
            RuleExample([
                #"{"ts":0,"session":"s","type":"haptic","kind":"impact.light"}"#,
                #"↓{"ts":1999,"session":"s","type":"haptic","kind":"impact.light"}"#,
                #"{"ts":9000,"session":"s","type":"haptic","kind":"impact.light"}"#,
                #"↓{"ts":9001,"session":"s","type":"haptic","kind":"impact.light"}"#,
            ], parameters: ["burst_count": 2]),
            RuleExample([
                #"↓{"ts":1000,"session":"s","type":"haptic","kind":"custom","duration_ms":1500.5}"#,
            ]),
        ],
        nonTriggeringExamples: [
            RuleExample([
                #"{"ts":0,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":500,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1000,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":1500,"session":"s","type":"haptic","kind":"selection"}"#,
                #"{"ts":2000,"session":"s","type":"haptic","kind":"selection"}"#,
            ]),
            RuleExample([
                #"{"ts":1000,"session":"s","type":"haptic","kind":"custom","duration_ms":1500}"#,
            ]),
        ],
        isRequired: true
    )

    public struct State: RuleState {
        /// `ts` of up to `burst_count − 1` previous haptics (the largest `burst_count` of any screen), a
        /// ring whose oldest entry is at `next` once full, in order from index 0 until then.
        var recent: [Int64] = []
        var next = 0
        /// The burst run still growing, reported when a haptic breaks it or the session closes.
        var run: Violation?

        public init() {}
    }

    let count: Int
    let windowMs: Int64
    let maxDurationMs: Int64

    public init(configuration: AuditConfiguration) {
        // A burst of more haptics than memory allows is not a meaningful setting; cap it anyway.
        count = Int(min(Self.value(of: Self.burstCount, in: configuration), 1 << 20))
        windowMs = Self.value(of: Self.burstWindowMs, in: configuration)
        maxDurationMs = Self.value(of: Self.maxDurationMs, in: configuration)
    }

    /// Haptic `i` is judged with the values at its own screen, `self` (SPEC §6: its own `burst_count`
    /// and `burst_window_ms`); the history kept is that of the largest `burst_count` anywhere. A run's
    /// start and count are those of its first violating haptic; a haptic where the rule is off does
    /// not violate, so it ends the run before it.
    public func observe(_ event: Event, state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard case let .haptic(kind, durationMs) = event.payload else { return }
        let ts = event.ts
        let enabled = screens.isEnabledHere

        if enabled, let durationMs, durationMs > Double(maxDurationMs) {
            session.report(
                rule: Self.identifier, severity: .warning, source: event.source,
                startTs: ts, endTs: ts,
                detail: DetailText("\(kind.rawValue) haptic played for \(formatMilliseconds(durationMs)) ms (more than \(maxDurationMs) ms)").string
            )
        }

        let capacity = screens.widest.count - 1
        Self.fit(&state, capacity: capacity)
        // The `count − 1`-th haptic before this one, if there are that many.
        let back = count - 1
        let held = state.recent.count
        var oldest: Int64?
        if back <= held {
            // Counting back from the newest: before `next` once the ring is full, from the end until then.
            var index = (held == capacity ? state.next : 0) + held - back
            if index >= held { index -= held }
            oldest = state.recent[index]
        }
        // Tested through one of its fields: testing the optional itself copied the whole run.
        let running = state.run?.count != nil
        if enabled, let oldest, oldest > ts.minus(windowMs) {
            if running {
                state.run!.endTs = ts
                state.run!.count += 1
            } else {
                // The run is described by its first violating haptic's values, kept with it so that
                // a run continued the next night under another config still says what judged it.
                state.run = Violation(
                    rule: Self.identifier, severity: .warning, session: session.session,
                    screen: session.screen, startTs: oldest, endTs: ts, count: count,
                    detail: DetailText("(\(count) or more within \(windowMs) ms is a burst)").string, source: event.source
                )
            }
        } else if running {
            flushRun(&state, in: &session, screens: screens)
        }

        if state.recent.count < capacity {
            state.recent.append(ts)
        } else if capacity > 0 {
            state.recent[state.next] = ts
            state.next = (state.next + 1) % capacity
        }
    }

    public func finish(state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        flushRun(&state, in: &session, screens: screens)
    }

    /// Puts the ring in the shape `capacity` asks for when it has another (the config's largest
    /// `burst_count` changed between two nightly runs of an open session): the latest haptics in order,
    /// at most `capacity` of them.
    private static func fit(_ state: inout State, capacity: Int) {
        guard state.recent.count > capacity || (state.recent.count < capacity && state.next != 0) else { return }
        let ordered = Array(state.recent[state.next...] + state.recent[..<state.next])
        state.recent = Array(ordered.suffix(max(capacity, 0)))
        state.next = 0
    }

    /// Reports the run. A run checkpointed by an earlier version has no description yet: the values
    /// at its first violating haptic's screen describe it.
    private func flushRun(_ state: inout State, in session: inout SessionContext, screens: ScreenValues<Self>) {
        guard var run = state.run.take() else { return }
        var rule = run.detail
        if rule.isEmpty {
            let first = screens.at(run.screen)
            rule = DetailText("(\(first.count) or more within \(first.windowMs) ms is a burst)").string
        }
        run.detail = DetailText("\(run.count) haptics in \(run.endTs.minus(run.startTs)) ms \(rule)").string
        session.violations.append(run)
    }
}

/// Milliseconds as people write them: whole numbers without a fraction.
func formatMilliseconds(_ value: Double) -> String {
    if let whole = Int64(exactly: value) { return String(whole) }
    return String(value)
}
