import Testing
@testable import HIGAuditCore

/// The event's text fields are declared once (`EventTexts.Slot`); what cannot be derived from that
/// list by the compiler is checked against it here.
@Suite struct EventFieldListTests {
    @Test func eachSlotIsFilledByTheFieldOfItsName() {
        for slot in EventTexts.Slot.allCases {
            #expect("\(slot.field)" == "\(slot)")
            #expect(slot.field.rawValue == slot.rawValue)
        }
        #expect(EventField.allCases.count == EventField.count)
    }

    @Test func theCommonTextBitsAreTheCommonTextsFields() {
        let bits = EventField.commonTexts.reduce(FieldMask(0)) { $0 | $1.field.bit }
        #expect(EventField.commonTextBits == bits)
        #expect(EventField.commonTexts.map(\.slot) == EventTexts.Slot.allCases.filter { $0 != .id })
        #expect(EventField.commonTexts.allSatisfy { $0.field == $0.slot.field })
    }
}
