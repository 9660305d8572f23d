import Testing
@testable import HIGAuditCore

@Suite struct EventKindTests {
    @Test func wireNamesRoundTrip() {
        for kind in EventKind.allCases {
            #expect(EventKind(wireName: kind.wireName) == kind)
        }
        #expect(EventKind(wireName: "nav.teleport") == nil)
    }

    @Test func kindSetContainsOnlyItsMembers() {
        let set = EventKindSet(.haptic, .touch)
        #expect(set.contains(.haptic))
        #expect(set.contains(.touch))
        #expect(!set.contains(.outcome))
        #expect(EventKindSet.all.contains(.captureStop))
    }

    @Test func pencilActionsParseCustomNames() {
        #expect(PencilTapAction(wireValue: "switch_eraser") == .system(.switchEraser))
        #expect(PencilTapAction(wireValue: "custom:lasso") == .custom("lasso"))
        #expect(PencilTapAction(wireValue: "lasso") == nil)
    }
}
