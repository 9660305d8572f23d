import Testing
@testable import HIGAuditCore

// An adversarial review of the session engine and the rules against SPEC §2 "Time, order, sessions"
// and §3. Each test quotes the SPEC sentence it checks; the tests that fail on the current engine
// are listed in the review report with the fix suggested.

/// Decodes NDJSON lines as the reader would, numbering them 1, 2, … (blank lines counted), and runs
/// the engine on the events. The other buckets are tallied as the line sink tallies them.
private struct LineRun {
    var engine = EngineRun()
    var blank = 0
    var malformed = 0
    var unknownTypes: [String: Int] = [:]
}

private func runLines(_ lines: [String], _ configuration: AuditConfiguration = AuditConfiguration()) -> LineRun {
    var result = LineRun()
    var decoder = EventDecoder()
    var events: [Event] = []
    for (index, line) in lines.enumerated() {
        switch decoder.decode(line) {
        case .blank: result.blank += 1
        case .malformed: result.malformed += 1
        case .unknownType(let name): result.unknownTypes[name, default: 0] += 1
        case .event(var event):
            event.source = SourceLocation(file: 0, line: Int64(index + 1))
            events.append(event)
        }
    }
    result.engine = run(events, configuration)
    return result
}

private func settings(
    haptics: Bool = true, preferred: PencilPreferredAction = .switchEraser, custom: Bool = false
) -> SessionSettings {
    SessionSettings(hapticsEnabled: haptics, pencilPreferredAction: preferred, pencilCustomActionEnabled: custom)
}

/// Every review test, so that `swift test --filter SpecReviewTests` runs them all.
@Suite struct SpecReviewTests {}

// MARK: - §2 Time, order, sessions

extension SpecReviewTests {
    @Suite struct Engine {
        @Test func bucketsAreTriedInSpecOrderForEachLine() {
            // "Each line lands in exactly one bucket, tried in this order: blank, malformed, unknown type,
            // duplicate, late, accepted."
            let result = runLines([
                #"{"ts":20000,"session":"s","type":"haptic","kind":"selection","id":"a"}"#,
                "   ",
                #"{"ts":1,"type":"future.thing"}"#,                                  // no session: malformed
                #"{"ts":1,"session":"s","type":"future.thing","id":7}"#,             // id not a string: malformed
                #"{"ts":1,"session":"","type":"future.thing"}"#,                     // empty session: malformed
                #"{"ts":1.5,"session":"s","type":"future.thing"}"#,                   // ts not an integer: malformed
                #"{"ts":1,"session":"s","type":"future.thing","phase":"bogus"}"#,    // unknown type, even if old
                #"{"ts":1,"session":"s","type":"touch","phase":"bogus"}"#,           // unknown enum value: malformed
                #"{"ts":1,"session":"s","type":"haptic","kind":"selection","id":"a"}"#, // old and repeated: duplicate
                #"{"ts":1,"session":"s","type":"haptic","kind":"selection","id":"b"}"#, // old: late
                // ts = newest − lateness: accepted
                #"{"ts":10000,"session":"s","type":"haptic","kind":"selection","id":"c"}"#,
                "",
            ])
            #expect(result.blank == 2)
            #expect(result.malformed == 5)
            #expect(result.unknownTypes == ["future.thing": 1])
            #expect(result.engine.statistics.duplicateEvents == 1)
            #expect(result.engine.statistics.lateEvents == 1)
            #expect(result.engine.late.map(\.line) == [10])
            #expect(result.engine.statistics.events == 2)
        }

        @Test(arguments: [(Int64(500), false), (Int64(501), true)])
        func latenessUsesTheConfiguredBoundStrictly(behind: Int64, late: Bool) {
            // "An event whose ts is older than (newest ts seen so far in its session − max_lateness_ms) is late."
            let result = run([haptic(10_000), haptic(10_000 - behind)], AuditConfiguration(maxLatenessMs: 500))
            #expect(result.statistics.lateEvents == (late ? 1 : 0))
        }

        @Test func theEventBeingReadDoesNotCountAsTheStreamsNewestForClosingA() {
            // "The stream's newest ts is the largest ts of all events read and accepted before the one being
            // read": a session's own event far past its session.end is still accepted; the next one is late.
            let result = run([
                at(1000, .sessionEnd, session: "a"),
                haptic(50_000, session: "a"),
                haptic(50_001, session: "a"),
            ])
            #expect(result.dispositions == [.accepted, .accepted, .late(.sessionClosed)])
        }

        @Test func theEventBeingReadDoesNotCountAsTheStreamsNewestForClosingB() {
            let result = run([
                haptic(100, session: "a"),
                haptic(100 + 1_800_001, session: "a"),   // only ts 100 was accepted before it: still open
                haptic(100 + 1_800_002, session: "a"),
            ])
            #expect(result.dispositions == [.accepted, .accepted, .accepted])
            #expect(result.reports.count == 1)
        }

        @Test func sessionEndBoundaryWithAConfiguredLateness() {
            // (a) "once the stream's newest ts is max_lateness_ms past it": 999 past is not yet, 1000 past is.
            let configuration = AuditConfiguration(maxLatenessMs: 1000)
            let result = run([
                at(5000, .sessionEnd, session: "a"),
                haptic(5999, session: "b"),
                haptic(5500, session: "a"),
                haptic(6000, session: "b"),
                haptic(5600, session: "a"),
            ], configuration)
            #expect(result.dispositions == [.accepted, .accepted, .accepted, .accepted, .late(.sessionClosed)])
        }

        @Test func duplicatesAndLateEventsDoNotAdvanceTheStreamsNewest() {
            // Only events "read and accepted" move the stream's newest ts.
            let result = run([
                haptic(100, session: "a"),
                at(0, .sessionStart(.defaults), session: "b", id: "x"),
                at(9_000_000, .sessionStart(.defaults), session: "b", id: "x"),   // duplicate, huge ts
                at(0, .sessionEnd, session: "c"),
                haptic(10_000, session: "d"),
                haptic(11_000, session: "d"),                        // c is closed: stream 10 000 ≥ 0 + 10 000
                haptic(8_000_000, session: "c"),                                 // c closed: late, huge ts
                haptic(200, session: "a"),                                       // a must still be open
            ])
            #expect(result.dispositions == [
                .accepted, .accepted, .duplicate, .accepted, .accepted, .accepted, .late(.sessionClosed), .accepted,
            ])
        }

        @Test func equalTimestampsKeepInputOrderEvenWithNoLateness() {
            // "equal ts keep input order": with max_lateness_ms 0 the first event is released at once, the
            // second (same ts) is not late and must come after it.
            let configuration = AuditConfiguration(maxLatenessMs: 0, rules: only("modal-over-popover").rules)
            let result = run([present(100, "p", .popover), present(100, "q", .formSheet), present(99, "r", .formSheet)],
                             configuration)
            #expect(result.dispositions.last == .late(.tooOld(sessionNewestTs: 100, maxLatenessMs: 0)))
            #expect(result.violationLines == [2])
        }

        @Test func theFirstCopyReadOfAnIdIsKeptWhateverItsTimestamp() {
            // "A later event with an id already seen in its session is a duplicate": later in input. A
            // retried upload repeats an event whole, so its copies share their ts; when two events share an
            // id but not a ts, the one read first is kept (documented in the README). Here the copy at 1000,
            // read second, is the duplicate, so the popover is presented only at 2000, after the sheet.
            func line(_ number: Int64, _ event: Event) -> Event {
                var event = event
                event.source = SourceLocation(file: 0, line: number)
                return event
            }
            let read = [
                line(1, at(2000, .modalPresent(modal: "p", style: .popover), id: "x")),
                line(2, present(1500, "sheet", .formSheet)),
                line(3, at(1000, .modalPresent(modal: "p", style: .popover), id: "x")),
            ]
            let result = run(read, only("modal-over-popover"))
            #expect(result.violations.isEmpty)
            #expect(result.statistics.duplicateEvents == 1)
            #expect(result.report("s")?.firstTs == 1500)
        }

        @Test func lateAndDuplicateEventsDoNotLabelTheSession() {
            // "The first device and app_version seen in a session … label the whole session"; only accepted
            // events reach the rules (and the labels).
            let result = run([
                at(20_000, .sessionStart(.defaults), id: "1"),
                at(1000, .sessionEnd, device: "late-device", appVersion: "0.1"),
                at(20_001, .sessionEnd, id: "1", device: "dup-device", appVersion: "0.2"),
                at(20_002, .navPush(to: "x"), device: "iPad", appVersion: "5.2"),
            ])
            #expect(result.report("s")?.device == "iPad")
            #expect(result.report("s")?.appVersion == "5.2")
        }

        @Test func violationScreenIsTheLatestScreenBeforeItInTimestampOrder() {
            // "screen = the source event's screen, else the latest screen before it in the session": "before"
            // is ts order, so a screen read later but sorting earlier counts; one sorting later does not.
            let result = run([
                at(3000, .navPush(to: "late"), screen: "after"),
                at(1000, .navPush(to: "x"), screen: "before"),
                present(1500, "p", .popover),
                present(2000, "q", .formSheet),
            ], only("modal-over-popover"))
            #expect(result.violations.map(\.screen) == ["before"])
        }
    }
}

// MARK: - §3 haptic-overuse

extension SpecReviewTests {
    @Suite struct HapticOveruse {
        let rule = only("haptic-overuse", ["burst_count": 3, "burst_window_ms": 1000])

        @Test func runFieldsFollowTheNumbering() throws {
            // Haptics 1…5 at 0, 100, 200, 300, 5000: haptics 3 and 4 violate, 5 does not.
            // One violation: start_ts = ts of haptic 3−3+1 = 1, end_ts = ts of haptic 4, count = 4−3+3, source = 3.
            let events = [
                at(0, .haptic(kind: .selection, durationMs: nil), screen: "one"),
                at(100, .haptic(kind: .selection, durationMs: nil)),
                at(200, .haptic(kind: .selection, durationMs: nil), screen: "three"),
                at(300, .haptic(kind: .selection, durationMs: nil), screen: "four"),
                at(5000, .haptic(kind: .selection, durationMs: nil)),
            ]
            let violation = try #require(run(events, rule).violations.first)
            #expect(run(events, rule).violations.count == 1)
            #expect(violation.startTs == 0)
            #expect(violation.endTs == 300)
            #expect(violation.count == 4)
            #expect(violation.source.line == 3)
            #expect(violation.screen == "three")
        }

        @Test func aHapticExactlyAWindowAfterItsFirstBreaksTheRun() {
            // "all have ts > ts_i − burst_window_ms": haptic 4 at 1100 has haptic 2 at 100 = 1100 − 1000: not
            // violating, so 3 and 5 start two separate runs.
            let result = run([haptic(0), haptic(100), haptic(200), haptic(1100), haptic(1150)], rule)
            #expect(result.violationLines == [3, 5])
            #expect(result.violations.map(\.startTs) == [0, 200])
            #expect(result.violations.map(\.count) == [3, 3])
        }

        @Test func otherSessionsHapticsDoNotBreakOrJoinARun() {
            let result = run([
                haptic(0), haptic(100, session: "t"), haptic(100), haptic(150, session: "t"), haptic(200),
            ], rule)
            #expect(result.violationLines == [5])
            #expect(result.report("t")?.violations.isEmpty == true)
        }

        @Test func runsAreNumberedInTimestampOrderNotInputOrder() {
            // Rules see events in ts order: input 300, 0, 100, 200 is the burst 0, 100, 200, 300.
            let result = run([haptic(300), haptic(0), haptic(100), haptic(200)], rule)
            #expect(result.violations.map(\.startTs) == [0])
            #expect(result.violations.map(\.endTs) == [300])
            #expect(result.violations.map(\.count) == [4])
            #expect(result.violationLines == [4])   // haptic 3 in ts order is the line with ts 200
        }
    }
}

// MARK: - §3 forced-tab-switch

extension SpecReviewTests {
    @Suite struct ForcedTabSwitch {
        let rule = only("forced-tab-switch")

        @Test(arguments: [
            ("tab_bar", 0), ("tab:Library", 0), ("tab:", 0),
            ("tabs:Library", 1), ("Tab:Library", 1), ("tab_bar:x", 1), ("button:tab", 1), ("nav.back", 1),
        ])
        func qualifyingTargets(target: String, violations: Int) {
            let result = run([touch(60_000, .ended, target: target), tabSwitch(60_100, "tab:A", "tab:B")], rule)
            #expect(result.violations.count == violations)
        }

        @Test func touchWithoutTargetDoesNotQualify() {
            #expect(run([touch(60_000, .ended), tabSwitch(60_100, "tab:A", "tab:B")], rule).violations.count == 1)
        }

        @Test func touchAtTheSameTimestampBeforeTheSwitchQualifies() {
            #expect(run([touch(60_000, .ended, target: "tab:B"), tabSwitch(60_000, "tab:A", "tab:B")], rule)
                .violations.isEmpty)
        }

        @Test func touchOfAnotherSessionDoesNotQualify() {
            let result = run([
                touch(60_000, .ended, target: "tab:B", session: "other"), tabSwitch(60_100, "tab:A", "tab:B"),
            ], rule)
            #expect(result.violationLines == [2])
        }

        @Test func noSessionStartMeansNoGrace() {
            // "(b) … within restore_grace_ms after the session's session.start": without one there is none.
            #expect(run([tabSwitch(0, "tab:A", "tab:B")], rule).violations.count == 1)
        }

        @Test func switchBeforeSessionStartAtTheSameTimestampGetsNoGrace() {
            // "after" means in ts order, equal ts in input order.
            let result = run([tabSwitch(0, "tab:A", "tab:B"), at(0, .sessionStart(.defaults))], rule)
            #expect(result.violationLines == [1])
        }

        @Test func sessionStartReadLaterButSortingEarlierGivesGrace() {
            let result = run([tabSwitch(1000, "tab:A", "tab:B"), at(0, .sessionStart(.defaults))], rule)
            #expect(result.violations.isEmpty)
        }

        @Test func touchOlderThanTheWindowIsNotKeptForLaterSwitches() {
            // The touch at 0 is outside the window of the switch at 1001 and of every later one.
            let result = run([
                touch(0, .ended, target: "tab:B"), tabSwitch(1001, "tab:A", "tab:B"), tabSwitch(1002, "tab:B", "tab:A"),
            ], rule)
            #expect(result.violationLines == [2, 3])
        }

        @Test func aTouchUsedInsideTheGraceIsNotAvailableAfterIt() {
            // "A switch takes a qualifying touch whenever one exists, even inside the grace period."
            let result = run([
                at(0, .sessionStart(.defaults)),
                touch(1500, .ended, target: "tab:B"),
                tabSwitch(1900, "tab:A", "tab:B"),   // in grace, takes the touch
                tabSwitch(2100, "tab:B", "tab:A"),   // out of grace, touch used: violation
            ], rule)
            #expect(result.violationLines == [4])
        }

        @Test func sameTabSwitchLeavesTheTouchForTheNextRealSwitch() {
            let result = run([
                touch(60_000, .ended, target: "tab:A"),
                tabSwitch(60_100, "tab:A", "tab:A"),
                tabSwitch(60_200, "tab:A", "tab:B"),
            ], rule)
            #expect(result.violations.isEmpty)
        }
    }
}

// MARK: - §3 modal-depth and modal-over-popover

extension SpecReviewTests {
    @Suite struct Modality {
        let depth = only("modal-depth")
        let popover = only("modal-over-popover")

        @Test func alertPresentedWhileTheDepthExceedsTheMaximumIsAViolation() {
            // "A modal.present after which the non-alert depth exceeds max_depth is one violation; count =
            // the depth reached." The alert does not add depth, but after it the depth is still 3 > 2.
            let result = run([
                present(1, "a", .pageSheet), present(2, "b", .pageSheet), present(3, "c", .pageSheet),
                present(4, "oops", .alert),
            ], depth)
            #expect(result.violationLines == [3, 4])
            #expect(result.violations.map(\.count) == [3, 3])
        }

        @Test func alertAtOrBelowTheMaximumIsNotAViolation() {
            let result = run([present(1, "a", .pageSheet), present(2, "b", .pageSheet), present(3, "oops", .alert)],
                             depth)
            #expect(result.violations.isEmpty)
        }

        @Test func dismissPopsAlertsAboveTheDismissedModalToo() {
            let result = run([
                present(1, "a", .pageSheet), present(2, "b", .pageSheet), present(3, "oops", .alert),
                dismiss(4, "b"),                // pops b and the alert: depth 1
                present(5, "c", .pageSheet),    // depth 2: fine
                present(6, "d", .pageSheet),    // depth 3
            ], depth)
            #expect(result.violationLines == [6])
            #expect(result.violations.map(\.count) == [3])
        }

        @Test func countIsTheDepthReachedEachTime() {
            let result = run([
                present(1, "a", .fullScreen), present(2, "b", .pageSheet), present(3, "c", .popover),
                present(4, "d", .actionSheet), dismiss(5, "d"), present(6, "e", .currentContext),
            ], depth)
            #expect(result.violations.map(\.count) == [3, 4, 4])
        }

        @Test func unbalancedDismissLeavesTheStackAsItWas() {
            let result = run([
                present(1, "a", .pageSheet), present(2, "b", .pageSheet),
                dismiss(3, "zzz"), present(4, "c", .pageSheet),
            ], depth)
            #expect(result.violations.map(\.count) == [3])
            #expect(result.statistics.unbalancedDismisses == 1)
        }

        @Test func alertOnTopOfAPopoverMakesTheAlertTheTop() {
            // "while the top of the stack is a popover": with an alert above it, the top is the alert.
            let result = run([
                present(1, "p", .popover), present(2, "oops", .alert), present(3, "s", .formSheet),
            ], popover)
            #expect(result.violations.isEmpty)
        }

        @Test func popoverOverPopoverViolates() {
            #expect(run([present(1, "p", .popover), present(2, "q", .popover)], popover).violationLines == [2])
        }

        @Test func dismissingTheModalAboveAPopoverMakesItTheTopAgain() {
            let result = run([
                present(1, "p", .popover), present(2, "oops", .alert), dismiss(3, "oops"), present(4, "s", .pageSheet),
            ], popover)
            #expect(result.violationLines == [4])
        }
    }
}

// MARK: - §3 destructive-double-tap and pencil-preference-ignored

extension SpecReviewTests {
    @Suite struct Pencil {
        let destructive = only("destructive-double-tap")
        let preference = only("pencil-preference-ignored")

        func doubleTap(_ ts: Int64, session: String = "s") -> Event {
            at(ts, .pencilDoubleTap(action: .system(.switchEraser)), session: session)
        }
        func mutation(_ ts: Int64, undoable: Bool = true) -> Event {
            at(ts, .contentMutation(action: .clear, object: nil, undoable: undoable))
        }

        @Test func touchBeganAtTheMutationsTimestampButBeforeItIsInBetween() {
            let result = run([doubleTap(1000), touch(1200, .began), mutation(1200)], destructive)
            #expect(result.violations.isEmpty)
        }

        @Test func touchBeganAtTheDoubleTapsTimestampButAfterItIsInBetween() {
            let result = run([doubleTap(1000), touch(1000, .began), mutation(1200)], destructive)
            #expect(result.violations.isEmpty)
        }

        @Test func touchBeganBeforeTheDoubleTapOrAfterTheMutationDoesNotMatter() {
            let result = run([touch(1000, .began), doubleTap(1000), mutation(1200), touch(1200, .began)], destructive)
            #expect(result.violationLines == [3])
        }

        @Test func pencilTouchBeganAlsoCancels() {
            let result = run([
                doubleTap(1000), at(1100, .touch(Touch(phase: .began, input: .pencil))), mutation(1200),
            ], destructive)
            #expect(result.violations.isEmpty)
        }

        @Test func everyMutationInTheWindowIsOneViolationWithTheSameStart() {
            let result = run([doubleTap(1000), mutation(1000), mutation(1500, undoable: false), mutation(1501)],
                             destructive)
            #expect(result.violationLines == [2, 3])
            #expect(result.violations.map(\.severity) == [.warning, .error])
            #expect(result.violations.map(\.startTs) == [1000, 1000])
            #expect(result.violations.map(\.endTs) == [1000, 1500])
        }

        @Test func doubleTapOfAnotherSessionDoesNotCount() {
            #expect(run([doubleTap(1000, session: "t"), mutation(1100)], destructive).violations.isEmpty)
        }

        @Test func windowIsMeasuredFromTheLatestDoubleTap() {
            // The second tap at 1400 is the latest: the mutation at 1800 is 400 ms after it.
            let result = run([doubleTap(1000), doubleTap(1400), mutation(1800)], destructive)
            #expect(result.violations.map(\.startTs) == [1400])
            #expect(result.violations.first?.related?.location.line == 2)
        }

        @Test func doubleTapBeforeSessionStartIsJudgedByTheSessionsSetting() {
            // "different from the session's pencil_preferred_action"; only "a session without session.start
            // has the defaults". This session has one (read later, later ts), preferring switch_previous.
            let result = run([
                at(1000, .pencilDoubleTap(action: .system(.switchPrevious))),
                at(2000, .sessionStart(settings(preferred: .switchPrevious))),
                at(3000, .pencilDoubleTap(action: .system(.switchPrevious))),
            ], preference)
            #expect(result.violations.isEmpty)
        }

        @Test func customActionAllowedOnlyWhenTurnedOn() {
            let result = run([
                at(0, .sessionStart(settings(preferred: .ignore, custom: true))),
                at(1, .pencilDoubleTap(action: .custom("lasso"))),
                at(2, .pencilDoubleTap(action: .system(.ignore))),
                at(3, .pencilDoubleTap(action: .system(.switchEraser))),
            ], preference)
            #expect(result.violationLines == [4])
        }

        @Test(arguments: PencilPreferredAction.allCases)
        func ignoreAsTheAppsActionNeverViolates(preferred: PencilPreferredAction) {
            let result = run([
                at(0, .sessionStart(settings(preferred: preferred))), at(1, .pencilDoubleTap(action: .system(.ignore))),
            ], preference)
            #expect(result.violations.isEmpty)
        }
    }
}

// MARK: - §3 further rules

extension SpecReviewTests {
    @Suite struct FurtherRules {
        @Test func hapticBeforeSessionStartIsJudgedByTheSessionsSetting() {
            // "A haptic of kind custom or impact.* in a session whose session.start has haptics_enabled:
            // false": a property of the session, not of the time before or after session.start.
            let result = run([
                haptic(1000, .impactLight),
                at(2000, .sessionStart(settings(haptics: false))),
                haptic(3000, .custom),
            ], only("haptic-when-disabled"))
            #expect(result.violationLines == [1, 3])
        }

        @Test func notificationAndSelectionHapticsAreAllowedWhenDisabled() {
            let result = run([
                at(0, .sessionStart(settings(haptics: false))),
                haptic(1, .selection), haptic(2, .notificationError), haptic(3, .impactSoft), haptic(4, .impactRigid),
            ], only("haptic-when-disabled"))
            #expect(result.violationLines == [4, 5])
        }

        @Test func oneMismatchPerHapticEvenWithOutcomesOnBothSides() {
            let result = run([
                at(1000, .outcome(result: .failure, task: nil)),
                haptic(1200, .notificationSuccess),
                at(1400, .outcome(result: .failure, task: nil)),
                haptic(1450, .notificationWarning),
                at(1700, .outcome(result: .warning, task: nil)),
            ], only("haptic-mismatch"))
            #expect(result.violationLines == [2])
        }

        @Test func captureCountsPerSourceAndNeedsAMatchingStop() {
            let result = run([
                at(0, .captureStart(source: .camera)),
                at(1, .captureStop(source: .microphone)),   // not the camera's stop
                haptic(2),
                at(3, .captureStop(source: .camera)),
                haptic(4),
                haptic(5),
                at(5, .captureStart(source: .microphone)),  // after the haptic at the same ts
            ], only("haptic-during-capture"))
            #expect(result.violationLines == [3])
        }

        @Test func tabStateRemembersTheSwitchEventsOwnScreenAndIgnoresEventsWithoutOne() {
            let rule = only("tab-state-lost")
            let result = run([
                tabSwitch(1000, "tab:A", "tab:B", screen: "b.detail"),
                at(1100, .haptic(kind: .selection, durationMs: nil)),   // no screen: changes nothing
                tabSwitch(1200, "tab:B", "tab:A", screen: "a.root"),
                tabSwitch(1300, "tab:A", "tab:B", screen: "b.detail"),  // same as left: fine
                tabSwitch(1400, "tab:B", "tab:B", screen: "b.root"),    // re-tap pops to root
                tabSwitch(1500, "tab:B", "tab:A", screen: "a.root"),
                tabSwitch(1600, "tab:A", "tab:B", screen: "b.detail"),  // left at b.root: violation
            ], rule)
            #expect(result.violationLines == [7])
        }

        @Test func loadingEndBeforeTheStartAtTheSameTimestampIsNotLater() {
            let result = run([
                at(1000, .loadingEnd(id: "feed")),
                at(1000, .loadingStart(id: "feed", indicator: .none)),
                at(1500, .navPush(to: "x")),
            ], only("loading-without-indicator"))
            #expect(result.violationLines == [2])
            #expect(result.violations.map(\.endTs) == [1500])
        }

        @Test func loadingWithAnIndicatorNeverViolates() {
            let result = run([
                at(0, .loadingStart(id: "feed", indicator: .spinner)),
                at(0, .loadingStart(id: "img", indicator: .placeholder)),
                at(0, .loadingStart(id: "up", indicator: .progress)),
                at(99_999, .navPush(to: "x")),
            ], only("loading-without-indicator"))
            #expect(result.violations.isEmpty)
        }
    }
}
