import ArgumentParser
import Foundation
import HIGAuditCore

/// An option the subcommand does not have, found before parsing. swift-argument-parser checks a
/// command's own rules (`validate`) before it reports options it did not use, so `compare --from 5.1
/// --to 5.2` was told that its base side is missing, never that `--from` is no option of compare. Here
/// it is a usage error that names the option and the one meant: a word people type for another tool's
/// option (`--from` for `--base`), or a name within two edits of one.
struct UnknownOption: Equatable {
    let command: String
    let typed: String
    let suggestion: String?

    var message: String {
        let why = [suggestion.map { "did you mean '--\($0)'?" }, Self.hints[command]].compactMap { $0 }
        let aside = why.isEmpty ? "" : " (\(why.joined(separator: " ")))"
        return "unknown option '\(typed)' for \(command)\(aside); 'hig-audit help \(command)' lists its options"
    }

    /// Words for options of other tools, per subcommand, and the option each means here.
    static let synonyms: [String: [String: String]] = [
        "compare": [
            "from": "base", "to": "head", "old": "base", "new": "head", "before": "base", "after": "head",
            "baseline": "base", "candidate": "head",
        ],
    ]

    /// What to say about a subcommand's options when one is unknown.
    static let hints: [String: String] = [
        "compare": "compare's two sides are --base and --head, or their -day, -since/-until and -run forms",
    ]

    /// The first unknown long option of `arguments` (the command line without the program name), read
    /// as `subcommands` (or `defaultCommand`, when the first argument names none) would read them.
    static func find(
        in arguments: [String], subcommands: [any ParsableCommand.Type], defaultCommand: any ParsableCommand.Type
    ) -> UnknownOption? {
        let (command, rest) = subcommand(of: arguments, among: subcommands, defaultCommand: defaultCommand)
        guard let name = command.configuration.commandName else { return nil }
        let options = KnownOptions(command)
        var unknown: UnknownOption?
        options.forEachLongOption(in: rest) { long, _ in
            guard options.long[long] == nil else { return true }
            unknown = UnknownOption(command: name, typed: "--" + long, suggestion: options.suggestion(for: long, command: name))
            return false
        }
        return unknown
    }

    /// The subcommand `arguments` run (`defaultCommand` when the first argument names none of
    /// `subcommands`), and the arguments it reads.
    static func subcommand(
        of arguments: [String], among subcommands: [any ParsableCommand.Type], defaultCommand: any ParsableCommand.Type
    ) -> (any ParsableCommand.Type, ArraySlice<String>) {
        if let first = arguments.first, let named = subcommands.first(where: { $0.configuration.commandName == first }) {
            return (named, arguments.dropFirst())
        }
        return (defaultCommand, arguments[...])
    }

    /// `--name=value` as (`name`, true), `--name` as (`name`, false).
    static func split(_ argument: String) -> (String, Bool) {
        let body = argument.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), false) }
        return (String(body[..<equals]), true)
    }
}

/// A subcommand's option names, whether each takes a value, and which may be given more than once,
/// read from the description swift-argument-parser gives of it (`--experimental-dump-help`'s JSON).
struct KnownOptions {
    var long: [String: Bool] = [:]
    var short: [Character: Bool] = [:]
    var repeating: Set<String> = []

    init(_ command: any ParsableCommand.Type) {
        // The parser's own flags, on every subcommand.
        for flag in ["help", "version", "experimental-dump-help"] { long[flag] = false }
        long["generate-completion-script"] = true
        short["h"] = false
        guard let json = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
              let description = json["command"] as? [String: Any],
              let arguments = description["arguments"] as? [[String: Any]]
        else { return }
        for argument in arguments {
            let takesValue = (argument["kind"] as? String) == "option"
            let repeats = argument["isRepeating"] as? Bool ?? false
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                switch name["kind"] as? String {
                case "long":
                    long[text] = takesValue
                    if repeats { repeating.insert(text) }
                case "short": if let character = text.first { short[character] = takesValue }
                default: break
                }
            }
        }
    }

    /// Calls `body` with each long option of `arguments` before `--`, by name, with its value when it
    /// takes one (after `=`, or the next argument); the values of options, short ones included, are
    /// not taken for options. Stops when `body` returns false.
    func forEachLongOption(in arguments: ArraySlice<String>, _ body: (_ name: String, _ value: String?) -> Bool) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return }
            guard argument.hasPrefix("-"), argument.count > 1 else { continue }
            if argument.hasPrefix("--") {
                let (name, hasValue) = UnknownOption.split(argument)
                var value: String?
                if long[name] == true {
                    if hasValue {
                        value = String(argument.drop { $0 != "=" }.dropFirst())
                    } else if index < arguments.endIndex {
                        value = arguments[index]
                        index += 1
                    }
                }
                guard body(name, value) else { return }
            } else if let last = argument.dropFirst().last, short[last] == true {
                index += 1
            }
        }
    }

    /// The option meant by `typed`: a synonym of the subcommand's, or the nearest name within two edits.
    func suggestion(for typed: String, command: String) -> String? {
        if let meant = UnknownOption.synonyms[command]?[typed.lowercased()], long[meant] != nil { return meant }
        let names = long.keys.filter { !["experimental-dump-help", "generate-completion-script", "version"].contains($0) }
        let scored = names.map { ($0, ClosestValues.editDistance(typed, $0)) }.filter { $0.1 <= 2 }
        return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}
