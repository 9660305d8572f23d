import ArgumentParser
import HIGAuditCore
import HIGAuditIO

/// `hig-audit rules`: what each rule checks, why (the guideline it cites) and how to tune it.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the guideline rules with their citation, severity and parameters.",
        discussion: """
            Every rule cites the guideline it enforces: a file of the guideline texts in the project's \
            shared/seeds folder and a short quote from it. Parameters can be changed in a YAML config file \
            passed with --config (keys rules.<id>.<parameter> and rules.<id>.enabled).

            Examples:
              hig-audit rules
              hig-audit rules --format markdown > RULES.md
              hig-audit rules --defaults > hig-audit.yml  # a commented config to start from
            """
    )

    @Option(help: "Output format: table, csv, json or markdown.")
    var format: OutputFormat = .table

    @Flag(help: "Print a complete, commented YAML config with every rule and parameter at its default.")
    var defaults = false

    /// Accepted for uniformity: rules says nothing on standard error but errors.
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<SilentMessages>

    func run() throws {
        var stdout = FileOutput.standardOutput()
        if defaults {
            stdout.write(DefaultConfigWriter.render(rules: RuleRegistry.descriptions))
        } else {
            format.writer().write(Self.listing(RuleRegistry.descriptions, compact: format == .table), to: &stdout)
        }
        do {
            try stdout.close()
        } catch {
            throw FatalError("cannot write to standard output: \(error)").exit()
        }
    }

    /// One row per rule, in id order. A terminal gets the columns that fit a screen; the other formats
    /// also carry the summary and the quote.
    static func listing(_ rules: [RuleDescription], compact: Bool) -> Table {
        let names = compact
            ? ["rule", "severity", "parameters", "seed", "guideline"]
            : ["rule", "severity", "name", "summary", "parameters", "seed", "quote", "guideline"]
        let rows: [[TableCell]] = rules.sorted { $0.identifier < $1.identifier }.map { rule in
            let parameters = rule.parameters.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: " ")
            let values: [String: String] = [
                "rule": rule.identifier, "severity": rule.severity.rawValue, "name": rule.name,
                "summary": rule.summary, "parameters": parameters, "seed": rule.citation.seedFile,
                "quote": rule.citation.quote, "guideline": rule.citation.guideline,
            ]
            return names.map { TableCell.label(values[$0] ?? "") }
        }
        return Table(name: "rules", columns: names.map { TableColumn.text($0) }, rows: rows)
    }
}
