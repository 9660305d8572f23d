import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit rules`: what each rule checks, why (the guideline it cites) and how to tune it.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the guideline rules with their citation, severity and parameters.",
        discussion: """
            Every rule cites the guideline it enforces: one sentence, and the page of Apple's Human Interface \
            Guidelines that states it (its title here; its address in the other formats). Parameters can be changed in a YAML config file \
            passed with --config (keys rules.<id>.<parameter> and rules.<id>.enabled).

            Examples:
              hig-audit rules
              hig-audit rules --format markdown > RULES.md
              hig-audit rules --defaults > hig-audit.yml  # a commented config to start from
            """
    )

    @Option(help: "Output format: table (the default), csv, json or markdown; not with --defaults, which prints YAML.")
    var format: OutputFormat?

    @Flag(help: "Print a complete, commented YAML config with every rule and parameter at its default.")
    var defaults = false

    /// Accepted for uniformity: rules says nothing on standard error but errors.
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<SilentMessages>

    func validate() throws {
        if defaults, let format {
            throw ValidationError("--defaults prints the config as YAML; --format \(format.rawValue) does not apply to it.")
        }
    }

    func run() throws {
        let format = format ?? .table
        var stdout = FileOutput.standardOutput()
        if defaults {
            stdout.write(DefaultConfigWriter.render(rules: RuleRegistry.descriptions))
        } else {
            format.writer(colors: false, screen: .standardOutput()).write(
                Self.listing(RuleRegistry.descriptions, compact: format == .table), to: &stdout)
        }
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)").exit()
        }
    }

    /// One row per rule, in id order. A terminal gets the columns that fit a screen; the other formats
    /// also carry the summary and the page's address.
    static func listing(_ rules: [RuleDescription], compact: Bool) -> Table {
        let names = compact
            ? ["rule", "severity", "parameters", "hig_page"]
            : ["rule", "severity", "name", "summary", "parameters", "guideline", "hig_page", "hig_url"]
        let rows: [[TableCell]] = rules.sorted { $0.identifier < $1.identifier }.map { rule in
            let parameters = rule.parameters.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: " ")
            let values: [String: String] = [
                "rule": rule.identifier, "severity": rule.severity.rawValue, "name": rule.name,
                "summary": rule.summary, "parameters": parameters,
                "guideline": rule.citation.guideline, "hig_page": rule.citation.page.title, "hig_url": rule.citation.page.url,
            ]
            return names.map { TableCell.label(values[$0] ?? "") }
        }
        // On a narrow terminal the parameters go under their rule's row, whole, rather than cut.
        let columns = names.map { $0 == "parameters" ? TableColumn.text($0).narrowed(.below) : TableColumn.text($0) }
        return Table(name: "rules", columns: columns, rows: rows)
    }
}
