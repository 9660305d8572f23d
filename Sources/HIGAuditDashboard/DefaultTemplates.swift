// Generated from Dashboards/templates/*.mustache by DefaultTemplatesTests
// (HIG_AUDIT_UPDATE_TEMPLATES=1 swift test --filter DefaultTemplatesTests). Do not edit.

/// The built-in templates of the dashboard, so that a binary needs no source tree.
enum DefaultTemplates {
    static let sources: [String: String] = [
        "index": #####"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>hig-audit dashboard</title>
<style>
{{> style}}
</style>
</head>
<body>
<header>
<h1>hig-audit: Human Interface Guidelines audit</h1>
<p class="meta">From {{source}}, read at <time>{{generatedAt}}</time>{{#lastDay}}; last night is <strong id="last-day">{{lastDay}}</strong> (UTC){{/lastDay}}.</p>
<nav aria-label="Sections">
<a href="#overview">Overview</a> · <a href="#releases">Releases</a> · <a href="#screens">Worst screens</a> · <a href="#examples">Examples</a>{{#accepted}} · <a href="#accepted">Accepted findings</a>{{/accepted}} · <a href="#health">Input health</a> · <a href="#catalogue">Rules</a>
</nav>
</header>
<main>
{{#isEmpty}}
<p class="empty" id="no-data">There is no data yet: no session has been closed{{#hasHistory}} by a nightly run{{/hasHistory}}. The page fills in after the first run that closes sessions.</p>
{{/isEmpty}}
{{#hasData}}
{{> overview}}
{{> releases}}
{{> screens}}
{{> examples}}
{{/hasData}}
{{#accepted}}
{{> accepted}}
{{/accepted}}
{{> health}}
{{> catalogue}}
</main>
<footer>
<p>Rates are the percent of sessions with at least one violation of the rule, as <code>hig-audit query --group-by rule</code> computes them; a session counts on every UTC day its events span. Verdicts are those of <code>hig-audit compare</code> (α = 0.01).</p>
</footer>
</body>
</html>

"""#####,
        "style": #####"""
:root {
  /* Okabe–Ito colours: told apart by readers with any common colour-vision deficiency. */
  --text: #1b1b1b; --muted: #555; --background: #ffffff; --panel: #f4f4f2; --rule: #d0d0cc;
  --series: #0072b2; --accent: #e69f00; --worse: #d55e00; --better: #0072b2; --bar: #56b4e9;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #ececec; --muted: #b0b0b0; --background: #121417; --panel: #1e2126; --rule: #3a3f46;
    --series: #56b4e9; --accent: #f0e442; --worse: #ff8a4c; --better: #56b4e9; --bar: #0072b2;
  }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem 2rem 3rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--background); }
h1 { font-size: 1.5rem; margin: 0.2rem 0; }
h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 2px solid var(--rule); padding-bottom: 0.2rem; }
h3 { font-size: 1rem; margin: 1.2rem 0 0.4rem; }
.meta, footer, .note { color: var(--muted); }
nav a { color: var(--series); }
a { color: var(--series); }
table { border-collapse: collapse; margin: 0.4rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; }
td.count { color: var(--muted); font-size: 0.85em; }
code, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.88em; }
/* Ids, times and paths stay whole on one line (the full value is in the cell's title). */
td.id { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.88em; white-space: nowrap; word-break: keep-all; }
table.examples { font-size: 0.9em; }
table.examples tr.group th { background: none; padding-top: 0.7rem; font-weight: 400; }
.severity-error { color: var(--worse); font-weight: 600; }
.verdict-worse { color: var(--worse); font-weight: 700; }
.verdict-better { color: var(--better); font-weight: 700; }
.empty { padding: 1rem; background: var(--panel); border-left: 4px solid var(--accent); }
figure { margin: 0.6rem 0 1.2rem; padding: 0.6rem; background: var(--panel); border-radius: 6px; display: inline-block; vertical-align: top; }
figcaption { font-size: 0.9em; color: var(--muted); margin-bottom: 0.3rem; }
figure table { font-size: 0.85em; }
svg { display: block; max-width: 100%; height: auto; }
svg .axis { stroke: var(--rule); stroke-width: 1; }
svg .series { fill: none; stroke: var(--series); stroke-width: 1.8; }
svg circle.series { fill: var(--series); stroke: none; }
svg .series-end { fill: var(--accent); stroke: var(--text); stroke-width: 0.8; }
svg .bar { fill: var(--bar); }
svg text { fill: var(--text); font-size: 11px; font-family: system-ui, sans-serif; }
svg text.tick { fill: var(--muted); font-size: 10px; }
details > summary { cursor: pointer; color: var(--series); }
.trend-grid { display: flex; flex-wrap: wrap; gap: 0.6rem; }
.trend-grid figure { width: 270px; }
blockquote { margin: 0.3rem 0; padding-left: 0.8rem; border-left: 3px solid var(--rule); color: var(--muted); }
@media print {
  :root { --text: #000; --muted: #333; --background: #fff; --panel: #fff; --rule: #999; }
  body { padding: 0; font-size: 10pt; }
  nav { display: none; }
  details > :not(summary) { display: block; }
  details > summary { display: none; }
  h2 { break-after: avoid; }
  figure, tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}

"""#####,
        "overview": #####"""
<section id="overview">
<h2>Overview</h2>
{{#noHistory}}<p class="note" id="no-history">One <code>analyze</code> run, not a store: there are no nights to compare, so the last-night, 7- and 30-night rates and the trends are left out. The rate is over the whole run.</p>{{/noHistory}}
<table id="overview-table">
<thead><tr><th>rule</th><th>severity</th>{{#hasHistory}}<th class="num">% last night</th><th class="num">% last 7 nights</th><th class="num">% last 30 nights</th>{{/hasHistory}}<th class="num">{{#hasHistory}}% all nights{{/hasHistory}}{{#noHistory}}% this run{{/noHistory}}</th><th class="num">sessions affected</th></tr></thead>
<tbody>
{{#overview}}
<tr data-rule="{{rule}}"><td><a href="#rule-{{rule}}"><code>{{rule}}</code></a></td><td class="severity-{{severity}}">{{severity}}</td>{{#hasHistory}}<td class="num" data-window="last-night">{{#lastNight}}{{percent}}{{/lastNight}}{{^lastNight}}–{{/lastNight}}</td><td class="num" data-window="last-7">{{#last7}}{{percent}}{{/last7}}{{^last7}}–{{/last7}}</td><td class="num" data-window="last-30">{{#last30}}{{percent}}{{/last30}}{{^last30}}–{{/last30}}</td>{{/hasHistory}}<td class="num" data-window="all">{{overall.percent}}</td><td class="num count">{{overall.affected}} of {{overall.total}}</td></tr>
{{/overview}}
</tbody>
</table>
<p class="note">Percent of sessions with at least one violation of the rule. Last night is the UTC day on which most sessions of the latest run started; the 7- and 30-night windows end with it.</p>
{{#hasHistory}}
<h3>Trend per rule</h3>
<div class="trend-grid">
{{#overview}}
{{#hasTrend}}
<figure id="trend-{{rule}}">
<figcaption><code>{{rule}}</code>: % of sessions affected by day, {{trendFirst}} to {{trendLast}}</figcaption>
{{{trendSVG}}}
<details><summary>Numbers</summary>
<table><thead><tr><th>day</th><th class="num">% of sessions</th><th class="num">affected</th><th class="num">sessions</th></tr></thead><tbody>
{{#trendRows}}<tr><td>{{day}}</td>{{#rate}}<td class="num">{{percent}}</td><td class="num">{{affected}}</td><td class="num">{{total}}</td>{{/rate}}{{^rate}}<td class="num">–</td><td class="num">0</td><td class="num">0</td>{{/rate}}</tr>
{{/trendRows}}
</tbody></table>
</details>
</figure>
{{/hasTrend}}
{{/overview}}
</div>
{{/hasHistory}}
</section>

"""#####,
        "releases": #####"""
<section id="releases">
<h2>Releases</h2>
{{#releases}}
{{#canCompare}}
{{#hasComparisons}}
<h3>Between consecutive versions{{#hasRegressions}}: <span class="verdict-worse">{{regressions}} regression(s)</span>{{/hasRegressions}}</h3>
<table id="comparisons">
<thead><tr><th>base → head</th><th>rule</th><th class="num">base %</th><th class="num">head %</th><th class="num">change (points)</th><th>test</th><th class="num">p</th><th>verdict</th></tr></thead>
<tbody>
{{#comparisons}}
<tr data-base="{{base}}" data-head="{{head}}" data-rule="{{rule}}"><td>{{base}} → {{head}}</td><td><code>{{rule}}</code></td><td class="num">{{baseRate}}</td><td class="num">{{headRate}}</td><td class="num">{{change}}</td><td>{{test}}</td><td class="num">{{pValue}}</td><td class="verdict-{{verdict}}">{{#isWorse}}▲ {{/isWorse}}{{#isBetter}}▼ {{/isBetter}}{{verdict}}</td></tr>
{{/comparisons}}
</tbody>
</table>
<p class="note">Percent of sessions affected, as <code>hig-audit compare --base BASE --head HEAD</code> gives them; regressions first.</p>
{{/hasComparisons}}
{{^hasComparisons}}<p class="note">Only one app version: nothing to compare yet.</p>{{/hasComparisons}}
{{/canCompare}}
{{^canCompare}}<p class="note">Verdicts need the results store: run <code>hig-audit compare</code> on a store for them.</p>{{/canCompare}}
{{#hasVersions}}
<h3>% of sessions affected per app version</h3>
{{#hasOlderVersions}}<p class="note">The newest versions; {{olderVersions}} older ones are left out here: <code>hig-audit query --group-by app_version,rule</code> lists every one.</p>{{/hasOlderVersions}}
<table id="version-rates">
<thead><tr><th>rule</th>{{#versions}}<th class="num">{{version}}</th>{{/versions}}</tr></thead>
<tbody>
{{#rows}}
<tr data-rule="{{rule}}"><td><code>{{rule}}</code></td>{{#cells}}<td class="num" data-version="{{version}}">{{#rate}}{{percent}}{{/rate}}{{^rate}}–{{/rate}}</td>{{/cells}}</tr>
{{/rows}}
</tbody>
</table>
{{#hasCharts}}
<details><summary>Charts per rule</summary>
<div class="trend-grid">
{{#charts}}
<figure><figcaption><code>{{rule}}</code>: % of sessions affected by version (numbers in the table above)</figcaption>{{{svg}}}</figure>
{{/charts}}
</div>
</details>
{{/hasCharts}}
{{/hasVersions}}
{{/releases}}
</section>

"""#####,
        "screens": #####"""
<section id="screens">
<h2>Worst screens</h2>
{{^hasWorstScreens}}<p class="note">No violation on any screen.</p>{{/hasWorstScreens}}
{{#hasScreens}}
<table id="worst-screens">
<thead><tr><th>screen</th><th class="num">violations</th><th class="num">sessions affected</th><th>rule broken most</th><th class="num">its violations</th></tr></thead>
<tbody>
{{#screens}}<tr><td class="mono">{{screen}}</td><td class="num">{{violations}}</td><td class="num">{{sessionsAffected}}</td><td><code>{{topRule}}</code></td><td class="num">{{topRuleViolations}}</td></tr>
{{/screens}}
</tbody>
</table>
<p class="note">Over all rules, the screens with the most violations, as the <code>worst_screens</code> table of <code>hig-audit query</code> and <code>analyze</code> lists them.</p>
{{/hasScreens}}
{{#hasWorstScreens}}<h3>Per rule</h3>{{/hasWorstScreens}}
<div class="trend-grid">
{{#worstScreens}}
<div>
<h3><code>{{rule}}</code></h3>
<table data-rule="{{rule}}"><thead><tr><th>screen</th><th class="num">sessions affected</th><th class="num">violations</th></tr></thead><tbody>
{{#screens}}<tr><td class="mono">{{screen}}</td><td class="num">{{sessionsAffected}}</td><td class="num">{{violations}}</td></tr>
{{/screens}}
</tbody></table>
</div>
{{/worstScreens}}
</div>
</section>

"""#####,
        "examples": #####"""
<section id="examples">
<h2>Examples</h2>
<p class="note">The {{examplesPerRule}} most recent violations of each rule, with the log file and line they come from; times are UTC, and a shortened id or path shows whole when pointed at.
{{#csvLink}}All of them: <a href="{{csvLink}}" id="csv-link">the violations table (CSV)</a>.{{/csvLink}}
{{^csvLink}}All of them: <code>hig-audit export</code> or <code>--out</code> writes the violations table as CSV.{{/csvLink}}</p>
{{#hasExamples}}
<table id="examples-table" class="examples">
<thead><tr><th>time (UTC)</th><th>session</th><th>device</th><th>version</th><th>screen</th><th>detail</th><th>source</th></tr></thead>
{{#examples}}
<tbody data-rule="{{rule}}">
<tr class="group" id="rule-{{rule}}"><th colspan="7"><code>{{rule}}</code>: {{shown}} of {{total}}{{#hasMore}} · {{#csvLink}}<a href="{{csvLink}}">all {{total}} in the CSV export</a>{{/csvLink}}{{^csvLink}}the CSV export has every one{{/csvLink}}{{/hasMore}}</th></tr>
{{#violations}}<tr><td class="id"><time datetime="{{time}}" title="{{time}}">{{shortTime}}</time></td><td class="id" title="{{session}}">{{shortSession}}</td><td class="id" title="{{device}}">{{shortDevice}}</td><td class="id">{{appVersion}}</td><td class="id">{{screen}}</td><td>{{detail}}</td><td class="id" title="{{source}}">{{shortSource}}</td></tr>
{{/violations}}
</tbody>
{{/examples}}
</table>
{{/hasExamples}}
</section>

"""#####,
        "accepted": #####"""
<section id="accepted">
<h2>Accepted findings</h2>
{{#hasRules}}
<table id="accepted-table">
<thead><tr><th>rule</th><th class="num">suppressed</th>{{#hasBaselineColumn}}<th class="num">new</th>{{/hasBaselineColumn}}</tr></thead>
<tbody>
{{#rules}}<tr><td><code>{{rule}}</code></td><td class="num">{{suppressed}}</td>{{#hasBaselineColumn}}<td class="num{{#hasNew}} verdict-worse{{/hasNew}}">{{new}}</td>{{/hasBaselineColumn}}</tr>
{{/rules}}
</tbody>
</table>
{{/hasRules}}
{{^hasRules}}<p class="note">No violation is suppressed{{#baseline}} or new{{/baseline}}.</p>{{/hasRules}}
<p class="note">Suppressed violations matched an <code>exclude:</code> entry of the config in force when they were judged; they count nowhere else on this page.{{#baseline}} New violations are those whose (rule, screen) pair is not in the baseline <code>{{path}}</code> ({{pairs}} pairs), as <code>hig-audit query --baseline</code> counts them.{{/baseline}}</p>
{{#hasExclusions}}
<table id="exclusions-table">
<caption>The <code>exclude:</code> entries {{#exclusionsRun}}of run {{exclusionsRun}}{{/exclusionsRun}}{{^exclusionsRun}}of this run's config{{/exclusionsRun}}</caption>
<thead><tr><th>config line</th><th>rules</th><th>screens</th><th>app versions</th><th>until</th><th>in force</th><th>reason</th></tr></thead>
<tbody>
{{#exclusions}}<tr><td class="mono">{{location}}</td><td class="mono">{{rules}}</td><td class="mono">{{screens}}</td><td class="mono">{{appVersions}}</td><td class="mono">{{until}}</td><td>{{#inForce}}yes{{/inForce}}{{^inForce}}expired{{/inForce}}</td><td>{{reason}}</td></tr>
{{/exclusions}}
</tbody>
</table>
{{/hasExclusions}}
</section>

"""#####,
        "health": #####"""
<section id="health">
<h2>Input health</h2>
{{#health}}
{{^hasRows}}<p class="note">No run yet.</p>{{/hasRows}}
{{#hasChart}}
<figure id="health-chart">
<figcaption>Events read per run, oldest first (numbers in the table below)</figcaption>
{{{svg}}}
</figure>
{{/hasChart}}
{{#hasRows}}
<table id="health-table">
<thead><tr><th>run</th><th>finished (UTC)</th><th class="num">files</th><th class="num">events</th><th class="num">malformed lines</th><th class="num">late events</th><th class="num">duplicate events</th><th class="num">faults</th></tr></thead>
<tbody>
{{#rows}}<tr><td>{{label}}</td><td class="mono">{{finished}}</td><td class="num">{{files}}</td><td class="num">{{events}}</td><td class="num{{#hasProblems}} verdict-worse{{/hasProblems}}">{{malformedLines}}</td><td class="num">{{lateEvents}}</td><td class="num">{{duplicateEvents}}</td><td class="num">{{faults}}</td></tr>
{{/rows}}
</tbody>
</table>
<p class="note">Counted as the <code>ingest</code> table counts them (<code>hig-audit query --run N --table ingest</code>); late events came after their session had closed, or more than <code>max_lateness_ms</code> behind its newest event.</p>
{{/hasRows}}
{{/health}}
</section>

"""#####,
        "catalogue": #####"""
<section id="catalogue">
<h2>The rules</h2>
{{#catalogue}}
<h3 id="catalogue-{{rule}}"><code>{{rule}}</code>: {{name}} <span class="severity-{{severity}}">({{severity}})</span></h3>
<p>{{summary}}</p>
<p><strong>Guideline:</strong> {{guideline}} (Apple Human Interface Guidelines: <a href="{{pageURL}}">{{pageTitle}}</a>)</p>
{{#hasParameters}}
<table><thead><tr><th>parameter</th><th class="num">default</th><th>meaning</th></tr></thead><tbody>
{{#parameters}}<tr><td><code>{{name}}</code></td><td class="num">{{value}}</td><td>{{summary}}</td></tr>
{{/parameters}}
</tbody></table>
{{/hasParameters}}
{{/catalogue}}
</section>

"""#####,
    ]
}
