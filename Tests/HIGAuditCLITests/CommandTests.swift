import Testing
@testable import HIGAuditCLI

@Suite struct CommandTests {
    @Test func rootCommandIsNamedHigAudit() {
        #expect(HIGAudit.configuration.commandName == "hig-audit")
    }
}

/// `--jobs` is taken for an export too (`--from`): its files are read on a reader thread while the
/// run's thread judges the events (`RunPipeline`), which gives every output one thread gives
/// (`ImportCommandTests.readingThreadsChangeNoOutput`).
@Suite struct ExportJobsTests {
    @Test func jobsAreTakenWithFrom() throws {
        for command in ["analyze", "nightly", "show"] {
            let arguments = switch command {
            case "show": ["--session", "an-id", "export.jsonl"]
            case "nightly": ["--store", "results.sqlite", "export.jsonl"]
            default: ["export.jsonl"]
            }
            let parsed = try HIGAudit.parseAsRoot([command, "--from", "posthog", "--jobs", "2"] + arguments)
            let jobs = switch parsed {
            case let analyze as AnalyzeCommand: analyze.input.jobCount
            case let nightly as NightlyCommand: nightly.input.jobCount
            case let show as ShowCommand: show.input.jobCount
            default: -1
            }
            #expect(jobs == 2, "\(command)")
        }
    }
}
