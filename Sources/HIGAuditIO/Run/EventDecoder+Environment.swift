import Foundation
import HIGAuditCore

extension EventDecoder {
    /// The variable that turns on the decoder's self-check: `1` re-decodes every line with the strict
    /// decoder, `N` every N-th line; a difference stops the run with both results and the line
    /// (`FastPathVerification`). For finding decoder bugs on real logs, at the cost of a second decoding.
    public static let verificationVariable = "HIG_AUDIT_VERIFY_FAST_PATH"

    /// The decoder of a run: checking its fast paths when `HIG_AUDIT_VERIFY_FAST_PATH` asks for it.
    public static func forRun(environment: [String: String] = ProcessInfo.processInfo.environment) -> EventDecoder {
        guard let value = environment[verificationVariable], let interval = Int(value), interval > 0 else {
            return EventDecoder()
        }
        return EventDecoder(verification: FastPathVerification(interval: interval, onMismatch: .trap))
    }
}
