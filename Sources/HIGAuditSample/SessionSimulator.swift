import HIGAuditCore

/// Plays one app session of Sketchbook on one device and records its events, in strictly increasing
/// `ts` order, with the planted problems of its version.
///
/// The simulated app keeps the state the rules reason about (active tab, navigation stacks, modal
/// stack, recent haptics), so baseline behaviour provably triggers no rule and every injection triggers
/// exactly the violations it records:
/// - timestamps strictly increase, so any reordering within the lateness bound sorts back identically;
/// - baseline haptics are dropped when they would complete 5 within 2 s (like the system's rate limit),
///   and planted single haptics first wait until they cannot complete a burst;
/// - the app never plays haptics when its setting is off, and no haptic during a capture;
/// - every user-caused tab switch follows its own `tab:` touch by < 1 s; launch restoration happens
///   within the 2 s grace; a planted forced switch comes > 1.5 s after the latest tab touch;
/// - modal depth stays ≤ 2 and only alerts go over the popover; loads without indicator end in < 1 s;
/// - after a Pencil double-tap nothing mutates content before the next touch begins;
/// - the first screen is ready within 2 s of launch; permissions are asked for right after the tap that
///   needs them (or were decided before); the app asks for a rating at most once, after a minute;
///   widgets show cached or fresh content within 1 s.
struct SessionSimulator {
    var random: SampleRandom
    let device: DeviceProfile
    let behaviour: AppVersionBehaviour
    let session: String
    let start: Int64
    /// Least time between two logged `moved` touches of one gesture; 0 logs every move.
    let moveSamplingMs: Int64
    /// Feedback haptics per minute played between activities (`SampleConfiguration.extraHapticsPerMinute`).
    let extraHapticsPerMinute: Double
    var now: Int64
    private var lastTs: Int64 = .min
    private(set) var events: [Event] = []
    private(set) var tally = SessionTally()

    private var activeTab: SketchbookTab = .gallery
    private var stacks: [[String]] = SketchbookTab.allCases.map { [$0.root] }
    private var visited = [Bool](repeating: false, count: SketchbookTab.allCases.count)
    private var modals: [SketchbookModal] = []
    /// The `ts` of the latest four haptics, oldest first.
    private var recentHaptics: [Int64] = []
    private var lastTabTouch: Int64 = .min / 2
    /// The `ts` of the latest logged touch of the current gesture (began or a kept `moved`).
    private var lastLoggedTouch: Int64 = .min / 2
    private var nextEventNumber = 0
    private var loadingNumber = 0
    /// Pen position in tenths of a point.
    private var penX = 6_000
    private var penY = 4_000
    /// Whether the app asked for a rating in this session (it asks at most once).
    var ratingPrompted = false
    /// The screen of a widget extension's session (`runWidget`), which shows no app screen.
    var widgetScreen: String?

    init(
        random: SampleRandom, device: DeviceProfile, behaviour: AppVersionBehaviour, session: String, start: Int64,
        moveSamplingMs: Int64 = 0, extraHapticsPerMinute: Double = 0
    ) {
        self.extraHapticsPerMinute = extraHapticsPerMinute
        self.random = random
        self.device = device
        self.behaviour = behaviour
        self.session = session
        self.start = start
        self.moveSamplingMs = max(0, moveSamplingMs)
        self.now = start
        events.reserveCapacity(512)
    }

    // MARK: - The session

    /// Simulates the whole session: launch, activities for about `durationMs`, then (usually) `session.end`.
    mutating func run(durationMs: Int64, endsCleanly: Bool) {
        let restored = SketchbookTab.allCases[random.pick(weights: [0.4, 0.45, 0.05, 0.1])]
        activeTab = restored
        emit(.sessionStart(SessionSettings(
            hapticsEnabled: device.hapticsEnabled,
            pencilPreferredAction: device.pencilPreference,
            pencilCustomActionEnabled: device.pencilCustomActionEnabled
        )), launch: true)
        // UIKit state restoration selects the tab the user left, within the launch grace period.
        advance(200...900)
        visited[restored.rawValue] = true
        emit(.tabSwitch(from: SketchbookTab.gallery.id, to: restored.id))
        finishLaunch()

        let end = start + durationMs
        var hapticsPlayedUntil = now
        while now < end {
            advance(600...3_500)
            if now - start >= 61_000, !ratingPrompted, random.chance(0.01) { promptForRating() }
            if extraHapticsPerMinute > 0 { playFeedbackHaptics(since: &hapticsPlayedUntil) }
            performActivity()
        }
        if endsCleanly {
            advance(300...3_000)
            emit(.sessionEnd)
        }
    }

    private mutating func performActivity() {
        let depth = stacks[activeTab.rawValue].count
        switch activeTab {
        case .canvas:
            if depth > 1 {
                [{ $0.snapLayer() }, { $0.popScreen() }, { $0.switchTabByUser() }][random.pick(weights: [3, 2, 1])](&self)
            } else {
                [
                    { $0.drawStrokes() }, { $0.save() }, { $0.export() }, { $0.openBrushPopover() },
                    { $0.pushScreen() }, { $0.switchTabByUser() },
                ][random.pick(weights: [7, 1.5, 0.6, 0.8, 0.6, 1])](&self)
            }
        case .gallery:
            [
                { $0.loadThumbnails() }, { $0.pushScreen() }, { $0.popScreen() }, { $0.deleteArtwork() },
                { $0.export() }, { $0.reselectTab() }, { $0.switchTabByUser() },
            ][random.pick(weights: [1, 2, depth > 1 ? 1.5 : 0, depth == 2 ? 0.5 : 0, depth == 2 ? 0.3 : 0, depth > 1 ? 0.3 : 0, 1.5])](&self)
        case .brushes:
            [{ $0.scrollBrushPicker() }, { $0.pushScreen() }, { $0.popScreen() }, { $0.reselectTab() }, { $0.switchTabByUser() }][
                random.pick(weights: [depth == 1 ? 3 : 0, 1, depth > 1 ? 1.5 : 0, depth > 1 ? 0.3 : 0, 1.5])
            ](&self)
        case .library:
            [{ $0.loadThumbnails() }, { $0.captureWithCamera() }, { $0.pushScreen() }, { $0.popScreen() }, { $0.switchTabByUser() }][
                random.pick(weights: [1, depth == 1 ? 0.6 : 0, 2, depth > 1 ? 1.5 : 0, 1.5])
            ](&self)
        }
    }

    // MARK: - Emitting

    var hapticsEnabled: Bool { device.hapticsEnabled }

    var currentScreen: String {
        if let widgetScreen { return widgetScreen }
        if let modal = modals.last { return modal.screen }
        return stacks[activeTab.rawValue].last ?? activeTab.root
    }

    mutating func advance(_ range: ClosedRange<Int64>) {
        now += random.ms(range)
    }

    /// The `ts` the next event will get: never equal to the previous one.
    var nextTs: Int64 { max(now, lastTs + 1) }

    mutating func emit(_ payload: EventPayload, launch: Bool = false) {
        let ts = nextTs
        now = ts
        lastTs = ts
        nextEventNumber += 1
        // A loading event's `id` is the loading operation's (SPEC §2), so it carries no event id of its
        // own: the reader must not take a `loading.end` for a retried copy of its `loading.start`.
        let carriesEventID = payload.kind != .loadingStart && payload.kind != .loadingEnd
        events.append(Event(
            ts: ts, session: session, payload: payload, device: device.id,
            app: launch ? "Sketchbook" : nil, appVersion: behaviour.version,
            osVersion: launch ? device.osVersion : nil, screen: currentScreen, id: carriesEventID ? "e" + String(nextEventNumber) : nil
        ))
    }

    /// Decides whether this opportunity misbehaves, counting both.
    mutating func misbehaves(_ problem: InjectedProblem) -> Bool {
        tally.opportunity(problem)
        return random.chance(behaviour.rate(problem))
    }

    mutating func planted(_ problem: InjectedProblem, alsoViolating extra: [String] = []) {
        tally.injected(problem, violating: [problem.ruleID] + extra)
    }

    // MARK: - Touches

    /// A touch as the app's telemetry logs it. With move sampling, a `moved` touch within
    /// `moveSamplingMs` of the gesture's previous logged touch is coalesced away, as telemetry SDKs do;
    /// time still passes and the pen still moves, so the session is the same, only lighter. No rule
    /// looks at `moved` touches, so the planted problems stay exactly the same.
    mutating func touch(_ phase: TouchPhase, target: String?, input: TouchInput = .finger) {
        if phase == .moved, moveSamplingMs > 0 {
            guard nextTs - lastLoggedTouch >= moveSamplingMs else { return }
        }
        if phase == .began || phase == .moved { lastLoggedTouch = nextTs }
        emit(.touch(Touch(phase: phase, target: target, input: input, x: Double(penX) / 10, y: Double(penY) / 10)))
    }

    /// A finger tap on an element: began, then ended 40–140 ms later.
    mutating func tap(_ target: String) {
        penX = random.int(200...13_460)
        penY = random.int(200...10_040)
        touch(.began, target: target)
        advance(40...140)
        touch(.ended, target: target)
        if target.hasPrefix("tab:") { lastTabTouch = lastTs }
    }

    mutating func movePen(by step: Int) {
        penX = min(13_660, max(0, penX + random.int(-step...step)))
        penY = min(10_240, max(0, penY + random.int(-step...step)))
    }

    // MARK: - Haptics

    /// A haptic the healthy app plays: skipped when haptics are off, or when it would be the fifth
    /// within 2 s (so the baseline never trips `haptic-overuse`).
    mutating func playHaptic(_ kind: HapticKind) {
        guard hapticsEnabled else { return }
        let ts = nextTs
        if recentHaptics.count == 4, ts - recentHaptics[0] < 2_100 { return }
        emitHaptic(kind, durationMs: nil)
    }

    /// The extra feedback haptics due for the time since `since` at `extraHapticsPerMinute` (the whole
    /// expected number, and one more with the chance of its fraction), played between two activities:
    /// no capture runs and no modal is open then, and `playHaptic` keeps them out of bursts and off
    /// devices with haptics off, so they plant nothing.
    mutating func playFeedbackHaptics(since: inout Int64) {
        let expected = extraHapticsPerMinute * Double(now - since) / 60_000
        var count = Int(expected)
        if random.chance(expected - Double(count)) { count += 1 }
        for _ in 0..<count {
            playHaptic(random.chance(0.5) ? .selection : .impactLight)
            advance(60...400)
        }
        since = now
    }

    /// Waits until one more haptic cannot complete a burst (`all`: until none of the recent ones is
    /// within the burst window, so a planted burst never merges with an earlier one).
    mutating func makeRoomForHaptics(all: Bool = false) {
        guard let reference = all ? recentHaptics.last : (recentHaptics.count == 4 ? recentHaptics.first : nil) else { return }
        now = max(now, reference + 2_100)
    }

    /// A haptic emitted as is, for planted problems (the caller has made room).
    mutating func emitHaptic(_ kind: HapticKind, durationMs: Double?) {
        emit(.haptic(kind: kind, durationMs: durationMs))
        if recentHaptics.count == 4 { recentHaptics.removeFirst() }
        recentHaptics.append(lastTs)
    }

    // MARK: - Navigation and modals

    mutating func present(_ modal: SketchbookModal) {
        modals.append(modal)
        emit(.modalPresent(modal: modal.id, style: modal.style))
    }

    mutating func dismiss(_ modal: SketchbookModal) {
        if let index = modals.lastIndex(where: { $0.id == modal.id }) { modals.removeSubrange(index...) }
        emit(.modalDismiss(modal: modal.id))
    }

    mutating func pushScreen() {
        let tab = activeTab
        let depth = stacks[tab.rawValue].count
        guard depth < tab.screens.count else { return popScreen() }
        tap(tab.pushTarget(depth: depth))
        advance(20...90)
        stacks[tab.rawValue].append(tab.screens[depth])
        emit(.navPush(to: tab.screens[depth]))
    }

    mutating func popScreen() {
        let tab = activeTab
        guard stacks[tab.rawValue].count > 1 else { return }
        tap("nav.back")
        advance(20...90)
        stacks[tab.rawValue].removeLast()
        emit(.navPop(to: currentScreen))
    }

    /// The app itself goes back one screen (after deleting what the screen showed).
    mutating func popWithoutTouch() {
        guard stacks[activeTab.rawValue].count > 1 else { return }
        stacks[activeTab.rawValue].removeLast()
        emit(.navPop(to: currentScreen))
    }

    /// The user taps another tab. The faulty versions sometimes lose the state of the tab returned to.
    mutating func switchTabByUser() {
        let weights: [Double] = SketchbookTab.allCases.map { tab in
            tab == activeTab ? 0 : (tab == .canvas ? 3 : 1)
        }
        let target = SketchbookTab.allCases[random.pick(weights: weights)]
        tap(target.id)
        advance(20...90)
        if visited[target.rawValue], stacks[target.rawValue].count > 1, misbehaves(.tabStateLost) {
            stacks[target.rawValue] = [target.root]
            planted(.tabStateLost)
        }
        let from = activeTab
        activeTab = target
        visited[target.rawValue] = true
        emit(.tabSwitch(from: from.id, to: target.id))
    }

    /// Re-tapping the active tab pops it to its root (`from` = `to`: not a tab change).
    mutating func reselectTab() {
        tap(activeTab.id)
        advance(20...90)
        stacks[activeTab.rawValue] = [activeTab.root]
        emit(.tabSwitch(from: activeTab.id, to: activeTab.id))
    }

    /// 5.2.0 jumps to the Gallery after a save, without any touch on the tab bar.
    mutating func forceSwitchToGallery() {
        now = max(now, lastTabTouch + 1_500, start + 2_500)
        advance(300...900)
        let from = activeTab
        activeTab = .gallery
        visited[SketchbookTab.gallery.rawValue] = true
        emit(.tabSwitch(from: from.id, to: SketchbookTab.gallery.id))
        planted(.forcedTabSwitch)
    }

    // MARK: - Loading

    mutating func nextLoadingID(_ prefix: String) -> String {
        loadingNumber += 1
        return prefix + "-" + String(loadingNumber)
    }

    /// A load that lasts `duration`; the indicator is what the app shows meanwhile.
    mutating func load(_ prefix: String, indicator: LoadingIndicator, duration: ClosedRange<Int64>) {
        let id = nextLoadingID(prefix)
        emit(.loadingStart(id: id, indicator: indicator))
        advance(duration)
        emit(.loadingEnd(id: id))
    }
}
