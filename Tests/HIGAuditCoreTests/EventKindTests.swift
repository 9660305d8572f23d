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

    @Test func touchPhasesAreMembersOfTheirOwn() {
        let ends = EventKindSet(.tabSwitch).union(.touches(.ended, .cancelled))
        #expect(ends.contains(touchesIn: .ended))
        #expect(ends.contains(touchesIn: .cancelled))
        #expect(!ends.contains(touchesIn: .began))
        #expect(!ends.contains(touchesIn: .moved))
        #expect(!ends.contains(.touch))
        #expect(ends.contains(.tabSwitch))
        // `touch` is every phase, and a phase alone is no other kind.
        for phase in TouchPhase.allCases {
            #expect(EventKindSet(.touch).contains(touchesIn: phase))
            #expect(EventKindSet.all.contains(touchesIn: phase))
            #expect(!EventKindSet(.haptic).contains(touchesIn: phase))
        }
        #expect(EventKind.allCases.allSatisfy { !EventKindSet.touches(.began, .moved, .ended, .cancelled).contains($0) })
        #expect(TouchPhase.allCases.map(\.ordinal) == Array(TouchPhase.allCases.indices))
    }

    @Test func pencilActionsParseCustomNames() {
        #expect(PencilTapAction(wireValue: "switch_eraser") == .system(.switchEraser))
        #expect(PencilTapAction(wireValue: "custom:lasso") == .custom("lasso"))
        #expect(PencilTapAction(wireValue: "lasso") == nil)
    }
}
