import Testing
@testable import HIGAuditCore

/// Two readings the SPEC once left open and v2 now states; pinned here so they cannot drift.
@Suite struct SpecReadingsTests {
    /// SPEC §3 `modal-depth`: "an alert presented over a stack that is already too deep included";
    /// `count` is the non-alert depth, which the alert does not raise.
    @Test func anAlertOverATooDeepStackIsAModalDepthViolation() {
        let result = run([
            present(1, "a", .pageSheet), present(2, "b", .pageSheet), present(3, "c", .formSheet),
            present(4, "confirm", .alert),
        ], only("modal-depth"))
        #expect(result.violationLines == [3, 4])
        #expect(result.violations.map(\.count) == [3, 3])
    }

    /// SPEC §2: on `loading.start`/`loading.end`, `id` names the loading operation and marks no
    /// duplicates, so the same operation started twice is two accepted events.
    @Test func aLoadingIdMarksNoDuplicates() {
        let lines = [
            #"{"ts":1,"session":"s","type":"loading.start","id":"feed","indicator":"none"}"#,
            #"{"ts":2,"session":"s","type":"loading.end","id":"feed"}"#,
            #"{"ts":3,"session":"s","type":"loading.start","id":"feed","indicator":"none"}"#,
            #"{"ts":5000,"session":"s","type":"loading.end","id":"feed"}"#,
            #"{"ts":5001,"session":"s","type":"haptic","kind":"selection","id":"feed"}"#,
            #"{"ts":5002,"session":"s","type":"haptic","kind":"selection","id":"feed"}"#,
        ]
        let result = run(lines.compactMap { decodedEvent($0) }, only("loading-without-indicator"))
        #expect(result.dispositions == [.accepted, .accepted, .accepted, .accepted, .accepted, .duplicate])
        #expect(result.violationLines == [3])
    }
}
