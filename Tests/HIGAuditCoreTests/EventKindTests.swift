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

    /// Every kind and every touch phase has a bit of its own; the 61st kind would be refused by
    /// `capacityProblem` (and the schema's check) rather than share one.
    @Test func everyKindAndPhaseHasItsOwnBit() {
        #expect(EventKindSet.capacityProblem == nil)
        var seen: UInt64 = 0
        for kind in EventKind.allCases {
            let bit = EventKindSet(kind).rawValue
            #expect(bit.nonzeroBitCount == 1 && seen & bit == 0, "\(kind)")
            seen |= bit
        }
        for phase in TouchPhase.allCases {
            let bit = EventKindSet.touches(phase).rawValue
            #expect(bit.nonzeroBitCount == 1 && seen & bit == 0, "\(phase)")
            seen |= bit
        }
        #expect(EventKindSet.all.rawValue.nonzeroBitCount == EventKind.allCases.count)
    }

    @Test func wireNamesAreFoundFromTheirBytesOnly() {
        #expect(EventKind(wireName: "touch ") == nil)
        #expect(EventKind(wireName: "toucH") == nil)
        #expect(EventKind(wireName: "") == nil)
        #expect(EventKind(wireName: "session.stare") == nil)
        #expect(EventKind(wireName: "modal.dismiss") == .modalDismiss)
    }

    @Test func pencilActionsParseCustomNames() {
        #expect(PencilTapAction(wireValue: "switch_eraser") == .system(.switchEraser))
        #expect(PencilTapAction(wireValue: "custom:lasso") == .custom("lasso"))
        #expect(PencilTapAction(wireValue: "lasso") == nil)
    }
}
