/// The model as the values the templates name: dictionaries, arrays, strings and booleans, with every
/// chart drawn as SVG text. A missing value is a missing key, so `{{#key}}` sections stay simple.
///
/// The keys are the templates' interface; `Dashboards/README.md` lists them for a team restyling the page.
enum DashboardContext {
    static func make(_ model: DashboardModel) -> [String: Any] {
        var context: [String: Any] = [
            "source": model.source,
            "generatedAt": model.generatedAt,
            "hasHistory": model.hasHistory,
            "noHistory": !model.hasHistory,
            "isEmpty": model.isEmpty,
            "hasData": !model.isEmpty,
            "examplesPerRule": model.examplesPerRule,
            "overview": model.overview.map { overview($0, days: model.trendDays) },
            "releases": releases(model.releases, hasHistory: model.hasHistory),
            "screens": model.screens.map(screen),
            "hasScreens": !model.screens.isEmpty,
            "worstScreens": model.worstScreens.map(worstScreens),
            "hasWorstScreens": !model.worstScreens.isEmpty,
            "examples": model.examples.map(examples),
            "hasExamples": !model.examples.isEmpty,
            "health": health(model.health),
            "catalogue": model.catalogue.map(catalogue),
        ]
        if let lastDay = model.lastDay { context["lastDay"] = lastDay }
        if let accepted = model.accepted { context["accepted"] = Self.accepted(accepted) }
        if let csvLink = model.csvLink, DashboardLink.isAllowed(csvLink) { context["csvLink"] = csvLink }
        return context
    }

    static func rate(_ rate: Rate?) -> [String: Any]? {
        guard let rate else { return nil }
        return ["percent": rate.percent, "affected": rate.affected, "total": rate.total]
    }

    static func overview(_ rule: RuleOverview, days: [String]) -> [String: Any] {
        var context: [String: Any] = [
            "rule": rule.rule, "severity": rule.severity, "isError": rule.severity == "error",
            "overall": rate(rule.overall)!,
        ]
        context["lastNight"] = rate(rule.lastNight)
        context["last7"] = rate(rule.last7)
        context["last30"] = rate(rule.last30)
        if !days.isEmpty {
            context["trendSVG"] = SVGChart.trend(
                rule.trend.map { $0?.percent },
                label: "\(rule.rule): percent of sessions affected, one point per day, \(days.first!) to \(days.last!)",
                xLabels: (days.first!, days.last!), unit: "%")
            context["trendRows"] = zip(days, rule.trend).map { day, rate -> [String: Any] in
                var row: [String: Any] = ["day": day]
                row["rate"] = Self.rate(rate)
                return row
            }
            context["hasTrend"] = true
            context["trendFirst"] = days.first!
            context["trendLast"] = days.last!
        }
        return context
    }

    static func version(_ version: String) -> String { version.isEmpty ? "(none)" : ShortForm.bounded(version) }

    static func releases(_ releases: Releases, hasHistory: Bool) -> [String: Any] {
        let rows = releases.rates.map { rule, rates -> [String: Any] in
            [
                "rule": rule,
                "cells": zip(releases.versions, rates).map { version, rate -> [String: Any] in
                    var cell: [String: Any] = ["version": Self.version(version)]
                    cell["rate"] = Self.rate(rate)
                    return cell
                },
            ]
        }
        var context: [String: Any] = [
            "hasVersions": !releases.versions.isEmpty,
            "versions": releases.versions.map { ["version": version($0)] },
            "rows": rows,
            "hasComparisons": !releases.comparisons.isEmpty,
            "comparisons": releases.comparisons.map { comparison -> [String: Any] in
                [
                    "base": comparison.base, "head": comparison.head, "rule": comparison.rule,
                    "baseRate": comparison.baseRate, "headRate": comparison.headRate, "change": comparison.change,
                    "test": comparison.test, "pValue": comparison.pValue, "verdict": comparison.verdict,
                    "isWorse": comparison.verdict == "worse", "isBetter": comparison.verdict == "better",
                ]
            },
            "regressions": releases.comparisons.filter { $0.verdict == "worse" }.count,
            "hasRegressions": releases.comparisons.contains { $0.verdict == "worse" },
            "hasCharts": releases.versions.count > 1,
            "olderVersions": releases.olderVersions,
            "hasOlderVersions": releases.olderVersions > 0,
            "canCompare": hasHistory,
        ]
        if releases.versions.count > 1 {
            context["charts"] = releases.rates.map { rule, rates -> [String: Any] in
                [
                    "rule": rule,
                    "svg": SVGChart.bars(
                        zip(releases.versions, rates).map { (version($0), $1?.percent ?? "0.00") },
                        caption: "\(rule): percent of sessions affected by app version"),
                ]
            }
        }
        return context
    }

    static func screen(_ screen: WorstScreen) -> [String: Any] {
        [
            "screen": screen.screen.isEmpty ? "(no screen)" : screen.screen, "violations": screen.violations,
            "sessionsAffected": screen.sessionsAffected, "topRule": screen.topRule,
            "topRuleViolations": screen.topRuleViolations,
        ]
    }

    static func worstScreens(_ rule: RuleScreens) -> [String: Any] {
        [
            "rule": rule.rule,
            "screens": rule.screens.map { screen -> [String: Any] in
                [
                    "screen": screen.screen.isEmpty ? "(no screen)" : screen.screen,
                    "violations": screen.violations, "sessionsAffected": screen.sessionsAffected,
                ]
            },
        ]
    }

    static func examples(_ rule: RuleExamples) -> [String: Any] {
        [
            "rule": rule.rule, "total": rule.total, "shown": rule.violations.count,
            "hasMore": rule.total > Int64(rule.violations.count),
            "violations": rule.violations.map { example -> [String: Any] in
                [
                    "session": example.session, "shortSession": ShortForm.id(example.session),
                    "device": example.device, "shortDevice": ShortForm.id(example.device),
                    "appVersion": version(example.appVersion),
                    "screen": example.screen.isEmpty ? "(no screen)" : example.screen, "time": example.time,
                    "shortTime": ShortForm.time(example.time),
                    "detail": example.detail, "source": example.source, "shortSource": ShortForm.source(example.source),
                ]
            },
        ]
    }

    static func health(_ nights: [NightHealth]) -> [String: Any] {
        let rows = nights.map { night -> [String: Any] in
            [
                "label": night.label, "finished": night.finished, "files": night.files, "events": night.events,
                "malformedLines": night.malformedLines, "lateEvents": night.lateEvents,
                "duplicateEvents": night.duplicateEvents, "faults": night.faults,
                "hasProblems": night.malformedLines + night.faults > 0,
            ]
        }
        var context: [String: Any] = ["rows": rows, "hasRows": !rows.isEmpty, "hasChart": nights.count > 1]
        if nights.count > 1 {
            context["svg"] = SVGChart.columns(
                nights.reversed().map { ($0.label, String($0.events)) }, caption: "Events read per run, oldest first")
        }
        return context
    }

    static func accepted(_ accepted: AcceptedFindings) -> [String: Any] {
        var context: [String: Any] = [
            "rules": accepted.rules.map { rule -> [String: Any] in
                var row: [String: Any] = ["rule": rule.rule, "suppressed": rule.suppressed]
                if let new = rule.new {
                    row["new"] = new
                    row["hasNew"] = new > 0
                }
                return row
            },
            "hasRules": !accepted.rules.isEmpty,
            "hasBaselineColumn": accepted.baseline != nil,
            "exclusions": accepted.exclusions.map { entry -> [String: Any] in
                var row: [String: Any] = [
                    "location": entry.location, "rules": entry.rules, "screens": entry.screens, "appVersions": entry.appVersions,
                    "inForce": entry.inForce, "reason": entry.reason,
                ]
                if let until = entry.until { row["until"] = until }
                return row
            },
            "hasExclusions": !accepted.exclusions.isEmpty,
        ]
        if let run = accepted.exclusionsRun { context["exclusionsRun"] = run }
        if let baseline = accepted.baseline {
            context["baseline"] = ["path": ShortForm.bounded(baseline), "pairs": accepted.baselinePairs]
        }
        return context
    }

    static func catalogue(_ entry: CatalogueEntry) -> [String: Any] {
        [
            "rule": entry.rule, "name": entry.name, "severity": entry.severity, "summary": entry.summary,
            "guideline": entry.guideline, "pageTitle": entry.pageTitle, "pageURL": entry.pageURL, "hasParameters": !entry.parameters.isEmpty,
            "parameters": entry.parameters.map { ["name": $0.name, "value": $0.value, "summary": $0.summary] },
        ]
    }
}
