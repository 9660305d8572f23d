/// `--version` given with anything else. swift-argument-parser answers `--version` before it looks at
/// the rest of the command line, so `hig-audit analyze logs/ --version 5.2`, meant as the app version of
/// the logs, would print hig-audit's own version and exit 0 without reading anything. With any other
/// argument it is a usage error that names the option the user meant.
enum VersionFlagMisuse {
    /// The error for `arguments` (the command line without the program name), if `--version` is one of
    /// several arguments. Arguments after `--` are inputs, not options.
    static func message(for arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        guard arguments.count > 1, options.contains(where: { $0 == "--version" || $0.hasPrefix("--version=") }) else {
            return nil
        }
        return "--version prints hig-audit's own version and takes no other argument; "
            + "for the app version of the logs use --app-version VERSION (compare: --base VERSION --head VERSION)"
    }
}
