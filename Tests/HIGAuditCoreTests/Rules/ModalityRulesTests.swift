import Testing
@testable import HIGAuditCore

@Suite struct ModalDepthRuleTests {
    let rule = only("modal-depth")

    @Test func presentBeyondMaxDepthViolatesWithTheDepthReached() {
        let result = run([
            present(1, "a", .pageSheet), present(2, "b", .formSheet), present(3, "c", .fullScreen),
            present(4, "d", .currentContext),
        ], rule)
        #expect(result.violationLines == [3, 4])
        #expect(result.violations.map(\.count) == [3, 4])
    }

    @Test func alertsDoNotCount() {
        let result = run([
            present(1, "a", .pageSheet), present(2, "x", .alert), present(3, "b", .formSheet), present(4, "y", .alert),
        ], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func dismissingALowerModalPopsThoseAboveIt() {
        let result = run([
            present(1, "a", .pageSheet), present(2, "b", .pageSheet), dismiss(3, "a"),
            present(4, "c", .pageSheet), present(5, "d", .pageSheet), present(6, "e", .pageSheet),
        ], rule)
        #expect(result.violationLines == [6])
        #expect(result.violations.map(\.count) == [3])
    }

    @Test func dismissPopsTheTopmostOfARepeatedId() {
        let result = run([
            present(1, "a", .pageSheet), present(2, "a", .pageSheet), dismiss(3, "a"), present(4, "b", .pageSheet),
        ], rule)
        #expect(result.violations.isEmpty)
    }

    @Test func unbalancedDismissIsCountedNotViolated() {
        let result = run([present(1, "a", .pageSheet), dismiss(2, "zzz"), present(3, "b", .pageSheet)], rule)
        #expect(result.violations.isEmpty)
        #expect(result.statistics.unbalancedDismisses == 1)
    }

    @Test func maxDepthFromTheConfiguration() {
        let result = run([present(1, "a", .pageSheet), present(2, "b", .pageSheet)], only("modal-depth", ["max_depth": 1]))
        #expect(result.violations.map(\.count) == [2])
    }
}

@Suite struct ModalOverPopoverRuleTests {
    let rule = only("modal-over-popover")

    @Test(arguments: ModalStyle.allCases)
    func anythingButAnAlertOverAPopover(style: ModalStyle) {
        let result = run([present(1, "p", .popover), present(2, "m", style)], rule)
        #expect(result.violations.count == (style == .alert ? 0 : 1))
    }

    @Test func onlyTheTopOfTheStackMatters() {
        let result = run([
            present(1, "p", .popover), present(2, "x", .alert), present(3, "s", .formSheet),
            dismiss(4, "x"), dismiss(5, "s"), present(6, "t", .formSheet),
        ], rule)
        #expect(result.violationLines == [6])
        #expect(result.violations.first?.severity == .error)
    }
}
