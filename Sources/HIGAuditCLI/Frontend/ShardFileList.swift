import Foundation

/// `nightly --shard-files`: the files one shard reads, in the run's order, and which of them it counts
/// (`count<TAB>path`) or only reads for its sessions (`read<TAB>path`). Written by the Spark job's
/// planner; a list file keeps the command line short for shards of many thousand files.
struct ShardFileList {
    var paths: [String]
    var counted: Set<String>

    static func read(_ path: String) throws -> ShardFileList {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("cannot read --shard-files \(path): \(error.localizedDescription)")
        }
        var list = ShardFileList(paths: [], counted: [])
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, fields[0] == "count" || fields[0] == "read", !fields[1].isEmpty else {
                throw UsageError("--shard-files \(path):\(index + 1): expected `count<TAB>path` or `read<TAB>path`")
            }
            let file = String(fields[1])
            list.paths.append(file)
            if fields[0] == "count" { list.counted.insert(file) }
        }
        guard !list.paths.isEmpty else { throw UsageError("--shard-files \(path) lists no file") }
        return list
    }
}
