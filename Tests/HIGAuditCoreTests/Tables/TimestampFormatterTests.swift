import Testing
@testable import HIGAuditCore

@Suite struct TimestampFormatterTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_795_208_645_123, "2026-11-20T21:04:05.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-86_400_000, "1969-12-31T00:00:00.000Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),  // leap day of a year divisible by 400
        (4_107_456_000_000, "2100-02-28T00:00:00.000Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),  // 2100 is not a leap year
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-0001-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
    ])
    func formatsRFC3339(ms: Int64, expected: String) {
        #expect(TimestampFormatter.rfc3339(ms) == expected)
    }

    @Test func extremesDoNotTrap() {
        #expect(TimestampFormatter.rfc3339(.min).hasSuffix("Z"))
        #expect(TimestampFormatter.rfc3339(.max) == "292278994-08-17T07:12:55.807Z")
    }

    /// The in-place path (years 0000…9999) against the general one, which builds the text from parts.
    @Test func inPlaceFormattingMatchesTheGeneralPath() {
        var random = SplitMix64(seed: 3339)
        for _ in 0..<20_000 {
            // From year 0000 to 9999, and the edges of that range.
            let ms = -62_167_219_200_000 + Int64(random.next() % 315_537_897_600_000)
            var days = ms / 86_400_000
            var msOfDay = ms % 86_400_000
            if msOfDay < 0 {
                msOfDay += 86_400_000
                days -= 1
            }
            let expected = TimestampFormatter.general(
                date: TimestampFormatter.civilFromDays(days), hour: msOfDay / 3_600_000, minute: msOfDay / 60_000 % 60,
                second: msOfDay / 1000 % 60, millisecond: msOfDay % 1000)
            #expect(TimestampFormatter.rfc3339(ms) == expected, "\(ms)")
        }
        #expect(TimestampFormatter.rfc3339(-62_167_219_200_000) == "0000-01-01T00:00:00.000Z")
        #expect(TimestampFormatter.rfc3339(253_402_300_800_000) == "10000-01-01T00:00:00.000Z")
    }

    /// One remembered date over time stamps that jump between days, go back, cross midnight and leave
    /// 0000…9999: each writes what a fresh one writes, and one out of range writes nothing and leaves
    /// the remembered date as it was.
    @Test func aRememberedDateWritesWhatAFreshOneWrites() {
        var random = SplitMix64(seed: 2911)
        var dates = TimestampFormatter.RecentDate()
        let width = TimestampFormatter.rfc3339Width
        let kept = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer {
            kept.deallocate()
            fresh.deallocate()
        }
        var ms: Int64 = 1_795_208_645_123
        for step in 0..<20_000 {
            switch random.next() % 8 {
            case 0: ms = -62_167_219_200_000 + Int64(random.next() % 315_537_897_600_000)
            case 1: ms &-= Int64(random.next() % 200_000_000)
            case 2: ms = (ms / 86_400_000) &* 86_400_000 &- 1  // the last millisecond before a midnight
            case 3: ms = [Int64.min, .max, 253_402_300_800_000, -62_167_219_200_001][step % 4]
            default: ms &+= Int64(random.next() % 5_000_000)
            }
            kept.initialize(repeating: 0x2E, count: width)
            fresh.initialize(repeating: 0x2E, count: width)
            let wrote = TimestampFormatter.rfc3339(ms, into: kept, dates: &dates)
            var none = TimestampFormatter.RecentDate()
            #expect(wrote == TimestampFormatter.rfc3339(ms, into: fresh, dates: &none), "\(ms)")
            #expect(Array(UnsafeBufferPointer(start: kept, count: width)) == Array(UnsafeBufferPointer(start: fresh, count: width)), "\(ms)")
            if wrote {
                #expect(String(decoding: UnsafeBufferPointer(start: kept, count: width), as: UTF8.self) == TimestampFormatter.rfc3339(ms))
            } else {
                #expect(kept[0] == 0x2E)
            }
        }
    }

    /// Every day of 400 years (one full Gregorian cycle) against a day-by-day calendar walk.
    @Test func civilFromDaysMatchesACalendarWalk() {
        var (year, month, day): (Int64, Int, Int) = (1900, 1, 1)
        let start: Int64 = -25567  // 1900-01-01
        for days in start..<(start + 146_097) {
            let civil = TimestampFormatter.civilFromDays(days)
            #expect(civil.year == year && civil.month == month && civil.day == day, "day \(days)")
            if civil.year != year || civil.month != month || civil.day != day { return }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            day += 1
            if day > lengths[month - 1] { day = 1; month += 1 }
            if month > 12 { month = 1; year += 1 }
        }
    }
}

@Suite struct FixedDecimalTests {
    @Test(arguments: [
        (Int64(1), Int64(3), Int64(100), "33.33"),
        (2, 3, 100, "66.67"),
        (1, 8, 100, "12.50"),
        (1, 200, 1, "0.01"),  // 0.005 rounds half away from zero
        (0, 0, 100, "0.00"),
        (5, 0, 100, "0.00"),
        (7, 7, 100, "100.00"),
        (-1, 3, 100, "-33.33"),
        (Int64.max, 1, 100, "92233720368547758.07"),  // overflow path: clamped, no trap
    ])
    func ratio(numerator: Int64, denominator: Int64, scale: Int64, expected: String) {
        #expect(FixedDecimal.ratio(numerator, denominator, scale: scale).description == expected)
    }

    @Test func smallMagnitudesKeepLeadingZeros() {
        #expect(FixedDecimal(units: 5, places: 2).description == "0.05")
        #expect(FixedDecimal(units: -5, places: 3).description == "-0.005")
        #expect(FixedDecimal(units: 42, places: 0).description == "42")
    }
}

@Suite struct VersionOrderTests {
    @Test(arguments: [
        ("5.9", "5.10"), ("5.2", "5.2.1"), ("", "1.0"), ("5.2", "5.3-beta"), ("1.0-beta", "1.0-rc"), ("5.02", "5.2"),
        ("9", "10"),
    ])
    func ordersVersionsAsPeopleRead(smaller: String, larger: String) {
        #expect(VersionOrder.areInIncreasingOrder(smaller, larger))
        #expect(!VersionOrder.areInIncreasingOrder(larger, smaller))
    }

    @Test func isIrreflexive() {
        #expect(!VersionOrder.areInIncreasingOrder("5.2", "5.2"))
    }
}
