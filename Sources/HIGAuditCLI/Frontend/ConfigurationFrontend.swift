import HIGAuditCore
import HIGAuditIO

extension ConfigOptions {
    /// The run's configuration: the YAML file if one was given, then the command-line overrides.
    /// The config file the run reads, which no output may replace.
    var readFiles: [ReadFile] { config.map { [ReadFile(what: "the config file (--config)", path: $0)] } ?? [] }

    func resolved() throws(FatalError) -> AuditConfiguration {
        var configuration = AuditConfiguration()
        if let path = config {
            do {
                configuration = try ConfigurationLoader(rules: RuleRegistry.descriptions).load(path: path)
            } catch {
                throw FatalError("\(error)")
            }
        }
        if let maxLatenessMs { configuration.maxLatenessMs = maxLatenessMs }
        if let sessionGapMs { configuration.sessionGapMs = sessionGapMs }
        return configuration
    }
}

extension InputOptions {
    func makeReader() throws(FatalError) -> InputReader {
        do {
            var options = ReaderOptions(maxWindowLog: maxWindowLog, dictionaryFiles: dictionaries)
            options.readsGzip = from != nil
            if from != nil { options.maxLineBytes = ReaderOptions.exportLineBytes }
            return try InputReader(options: options)
        } catch {
            throw FatalError("\(error)")
        }
    }
}
