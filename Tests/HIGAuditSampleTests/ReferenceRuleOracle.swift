import Foundation

/// A deliberately plain, test-side reading of the SPEC §3 rules with their default parameters, used
/// to check the generator's ground truth before the project's engine exists. It takes one session's
/// events already in `ts` order (clean data) and counts violations per rule id.
enum ReferenceRuleOracle {
    typealias Fields = [String: Any]

    static func violations(in events: [(ts: Int64, type: String, fields: Fields)]) -> [String: Int] {
        var counts: [String: Int] = [:]
        func add(_ rule: String) { counts[rule, default: 0] += 1 }
        let start = events.first { $0.type == "session.start" }
        let startTs = start?.ts
        let hapticsEnabled = start?.fields["haptics_enabled"] as? Bool ?? true
        let preference = start?.fields["pencil_preferred_action"] as? String ?? "switch_eraser"
        let customEnabled = start?.fields["pencil_custom_action_enabled"] as? Bool ?? false

        // haptic-overuse
        let haptics = events.filter { $0.type == "haptic" }
        var inRun = false
        for i in haptics.indices {
            let violating = i >= 4 && haptics[i - 4].ts > haptics[i].ts - 2_000
            if violating, !inRun { add("haptic-overuse") }
            inRun = violating
            if let duration = haptics[i].fields["duration_ms"] as? NSNumber, duration.doubleValue > 1_500 { add("haptic-overuse") }
        }

        var tabTouches: [Int64] = []
        var modals: [(id: String, style: String)] = []
        var latestDoubleTap: Int64?
        var touchSinceDoubleTap = false
        var openCaptures = 0
        var activeTab: String?
        var memory: [String: String] = [:]
        var loadings: [(id: String, ts: Int64)] = []
        let outcomes = events.filter { $0.type == "outcome" }
        for event in events {
            let f = event.fields
            switch event.type {
            case "touch":
                if f["phase"] as? String == "ended", let target = f["target"] as? String, target == "tab_bar" || target.hasPrefix("tab:") {
                    tabTouches.append(event.ts)
                }
                if f["phase"] as? String == "began" { touchSinceDoubleTap = true }
            case "nav.tab_switch":
                let from = f["from"] as? String, to = f["to"] as? String
                if from != to {
                    if let index = tabTouches.firstIndex(where: { $0 >= event.ts - 1_000 && $0 <= event.ts }) {
                        tabTouches.remove(at: index)
                    } else if let startTs, event.ts - startTs <= 2_000 {
                    } else {
                        add("forced-tab-switch")
                    }
                    if let to, let remembered = memory[to], remembered != f["screen"] as? String { add("tab-state-lost") }
                }
                activeTab = to
            case "modal.present":
                let style = f["style"] as? String ?? ""
                if style != "alert", modals.last?.style == "popover" { add("modal-over-popover") }
                modals.append((f["modal"] as? String ?? "", style))
                if modals.filter({ $0.style != "alert" }).count > 2 { add("modal-depth") }
            case "modal.dismiss":
                if let index = modals.lastIndex(where: { $0.id == f["modal"] as? String }) { modals.removeSubrange(index...) }
            case "pencil.double_tap":
                latestDoubleTap = event.ts
                touchSinceDoubleTap = false
                let action = f["action"] as? String ?? ""
                if action.hasPrefix("custom:") {
                    if !customEnabled { add("pencil-preference-ignored") }
                } else if action != "ignore", action != preference {
                    add("pencil-preference-ignored")
                }
            case "content.mutation":
                if let latestDoubleTap, event.ts - latestDoubleTap <= 500, !touchSinceDoubleTap { add("destructive-double-tap") }
            case "haptic":
                let kind = f["kind"] as? String ?? ""
                if openCaptures > 0 { add("haptic-during-capture") }
                if !hapticsEnabled, kind == "custom" || kind.hasPrefix("impact.") { add("haptic-when-disabled") }
                let opposite = kind == "notification.success" ? "failure"
                    : (kind == "notification.error" || kind == "notification.warning") ? "success" : nil
                if let opposite, outcomes.contains(where: { abs($0.ts - event.ts) <= 300 && $0.fields["result"] as? String == opposite }) {
                    add("haptic-mismatch")
                }
            case "capture.start": openCaptures += 1
            case "capture.stop": openCaptures = max(0, openCaptures - 1)
            case "loading.start":
                if f["indicator"] as? String == "none" { loadings.append((f["id"] as? String ?? "", event.ts)) }
            case "loading.end":
                let id = f["id"] as? String ?? ""
                for loading in loadings where loading.id == id && event.ts - loading.ts > 1_000 { add("loading-without-indicator") }
                loadings.removeAll { $0.id == id }
            default: break
            }
            if let activeTab, let screen = f["screen"] as? String { memory[activeTab] = screen }
        }
        if !loadings.isEmpty { counts["loading-without-indicator", default: 0] += loadings.count }

        // slow-launch: the first app.ready against the first session.start.
        if let startTs, let ready = events.first(where: { $0.type == "app.ready" }), ready.ts - startTs > 2_000 {
            add("slow-launch")
        }
        let startPosition = events.firstIndex { $0.type == "session.start" }
        var latestEndedTouch: Int64?
        var prompts = 0
        for (position, event) in events.enumerated() {
            switch event.type {
            case "touch" where event.fields["phase"] as? String == "ended":
                latestEndedTouch = event.ts
            case "permission.request" where event.fields["result"] as? String != "already_decided":
                if latestEndedTouch.map({ event.ts - $0 > 2_000 }) ?? true { add("unprompted-permission-request") }
            case "rating.prompt":
                prompts += 1
                let early = startPosition.map { position > $0 && event.ts - events[$0].ts < 60_000 } ?? false
                if prompts > 1 || early { add("early-rating-prompt") }
            case "widget.display":
                let slow = (event.fields["load_ms"] as? NSNumber).map { $0.doubleValue > 1_000 } ?? false
                if event.fields["content"] as? String == "placeholder" || slow { add("widget-placeholder") }
            default:
                break
            }
        }
        return counts
    }
}
