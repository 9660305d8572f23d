import ArgumentParser
import Foundation
import HIGAuditCore
import HIGAuditIO

/// `hig-audit shard-plan`: what a planner of a sharded run needs to know of the inputs.
struct ShardPlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shard-plan",
        abstract: "For planning a run split by device: list the input files, or the sessions each file holds.",
        discussion: """
            With --list, prints the log files the inputs name, in the order analyze and nightly read them, one \
            JSON string a line. Without it, reads each file and prints one JSON object a line: \
            {"file": PATH, "devices": [{"device": D, "hash": H, "sessions": [ID, …]}, …]}, where the sessions \
            are those with events in the file, grouped by the device of their first event in the file, and H is \
            the device's FNV-1a 64 hash (its shard is H mod N). A session's shard is that of its first file's \
            entry, in the run's order. The Spark job (Pipelines/spark) runs this as its planning stage.

            Examples:
              hig-audit shard-plan --list uploads/2026-11-20
              hig-audit shard-plan uploads/2026-11-20

            Exit status: 0 on success; 66 when a named input does not exist; 64 on a usage error.
            """
    )

    @Flag(help: "Only list the input files, in reading order.")
    var list = false

    /// The reader's options must be the shards' (dictionaries, window limit): a frame one side decodes
    /// and the other refuses would give the planner other sessions than the shards find.
    @OptionGroup(title: "Input") var input: InputOptions

    /// Accepted for uniformity: shard-plan says nothing on standard error but errors.
    @OptionGroup(title: "Messages") var verbosity: VerbosityOptions<SilentMessages>

    private var inputs: [String] { input.inputs }

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Give at least one input: a log file or a directory.") }
        if inputs.contains("-") { throw ValidationError("shard-plan reads files; standard input cannot be split.") }
    }

    struct DeviceSessions: Encodable {
        var device: String
        var hash: UInt64
        var sessions: [String]
    }

    struct FilePlan: Encodable {
        var file: String
        var devices: [DeviceSessions]
    }

    func run() throws {
        try reportingCommandErrors(execute)
    }

    private func execute() throws {
        let (sources, problems) = InputResolver.resolve(inputs)
        try NoInputError.check(inputs, resolved: sources, problems: problems, allowMissing: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var output = Data()
        if list {
            for source in sources { output += try encoder.encode(source.displayPath) + Data("\n".utf8) }
            FileHandle.standardOutput.write(output)
            return
        }
        let reader = try input.makeReader()
        for source in sources {
            let sessions = SessionStartsSink.sessions(in: source, reader: reader)
            var devices: [DeviceSessions] = []
            var index: [String: Int] = [:]
            for entry in sessions.entries {
                if index[entry.device] == nil {
                    index[entry.device] = devices.count
                    devices.append(DeviceSessions(device: entry.device, hash: DeviceShard.hash(entry.device), sessions: []))
                }
                devices[index[entry.device]!].sessions.append(entry.session)
            }
            output += try encoder.encode(FilePlan(file: source.displayPath, devices: devices)) + Data("\n".utf8)
            if output.count > 1 << 20 {
                FileHandle.standardOutput.write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(output)
    }
}
