import ArgumentParser

/// An option that takes one value, given twice. swift-argument-parser keeps the last value without a
/// word, so `--config base.yml --config team.yml` ran without the base file's rules and exclusions,
/// and `compare --base 5.1.0 --base 5.2.1` compared 5.2.1 alone. A usage error instead names the
/// option and both values: options meant to be repeated (`--app-version`, `--rule`) are not looked at.
struct RepeatedOption: Equatable {
    let command: String
    let option: String
    let values: [String]

    var message: String {
        let given = values.map { "'\($0)'" }.joined(separator: " and ")
        return "--\(option) is given more than once (\(given)) but takes one value for \(command): give it once"
    }

    /// The first option of `arguments` (the command line without the program name) that takes one
    /// value and is given more than once, read as `subcommands` (or `defaultCommand`, when the first
    /// argument names none) would read them. The subcommand's description is read only when a long
    /// option's name comes twice.
    static func find(
        in arguments: [String], subcommands: [any ParsableCommand.Type], defaultCommand: any ParsableCommand.Type
    ) -> RepeatedOption? {
        let (command, rest) = UnknownOption.subcommand(of: arguments, among: subcommands, defaultCommand: defaultCommand)
        let names = rest.prefix { $0 != "--" }.filter { $0.hasPrefix("--") }.map { UnknownOption.split($0).0 }
        guard Set(names).count < names.count, let name = command.configuration.commandName else { return nil }
        let options = KnownOptions(command)
        var values: [String: [String]] = [:]
        var order: [String] = []
        options.forEachLongOption(in: rest) { long, value in
            guard let value, !options.repeating.contains(long) else { return true }
            if values[long] == nil { order.append(long) }
            values[long, default: []].append(value)
            return true
        }
        guard let repeated = order.first(where: { values[$0, default: []].count > 1 }) else { return nil }
        return RepeatedOption(command: name, option: repeated, values: values[repeated] ?? [])
    }
}
