import Foundation
import HIGAuditCore
import HIGAuditIO

/// The UTC day a run started: it decides whether an exclusion's `until` has passed (SPEC §6).
///
/// `HIG_AUDIT_TODAY=YYYY-MM-DD` fixes the day, for tests only, so that a test of an expiring entry
/// does not depend on when it runs.
enum RunDay {
    static let environmentVariable = "HIG_AUDIT_TODAY"

    static func today(environment: [String: String] = ProcessInfo.processInfo.environment) throws(FatalError) -> CalendarDay {
        if let fixed = environment[environmentVariable] {
            guard let day = CalendarDay(fixed) else {
                throw FatalError(
                    "\(environmentVariable)=\(fixed) is not a date YYYY-MM-DD; unset it (it only fixes the day for tests)")
            }
            return day
        }
        return CalendarDay(utcMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

extension AuditConfiguration {
    /// The exclusions as judged today, each expired entry said once on standard error.
    func suppression(today: CalendarDay) -> Suppression {
        let suppression = Suppression(exclusions, today: today)
        for note in suppression.expiryNotes { StandardError.write("hig-audit: warning: \(note)\n") }
        return suppression
    }
}
