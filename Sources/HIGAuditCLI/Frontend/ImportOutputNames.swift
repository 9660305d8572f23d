import HIGAuditCore
import HIGAuditIO

/// The files `import -o DIR` writes, one per input, as paths below DIR.
///
/// Why the names matter: `analyze DIR` reads a directory's files in the byte order of their paths, and
/// a device's results depend on the order its events are read (SPEC §2). So the written files, in
/// path order, must come in the order their inputs were read, or a device's later upload is read
/// before its earlier one and its events count as late (SPEC §7: results on imported data equal
/// those on the NDJSON that `import` writes).
///
/// Each input keeps its path below the directory named on the command line (`2026-11-20/part-0.jsonl`
/// becomes `2026-11-20/part-0.ndjson`), or its file name when it was named itself (`stdin` for
/// standard input). Where those paths would not keep the reading order (inputs named in another
/// order than their names sort, two inputs that would share a name), every file is named by its place
/// in the reading order instead (`0001-2026-11-20-part-0.ndjson`).
enum ImportOutputNames {
    static func paths(for sources: [InputSource]) -> [String] {
        let mirrored = sources.map(mirroredPath)
        if Set(mirrored).count == mirrored.count,
           zip(mirrored, mirrored.dropFirst()).allSatisfy({ $0.precedesInByteOrder($1) }) {
            return mirrored
        }
        let width = max(4, String(sources.count).count)
        return mirrored.enumerated().map { index, path in
            let place = String(index + 1)
            return String(repeating: "0", count: width - place.count) + place + "-"
                + path.split(separator: "/").joined(separator: "-")
        }
    }

    /// The input's path below its directory, or its file name, with the export's endings replaced by
    /// `.ndjson`.
    private static func mirroredPath(_ source: InputSource) -> String {
        var path = source.pathInDirectory
            ?? (source.displayPath == "-" ? "stdin" : String(source.displayPath.split(separator: "/").last ?? "import"))
        var name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        path.removeLast(name.count)
        for ending in [".gz", ".zst", ".json", ".jsonl", ".ndjson"] where name.lowercased().hasSuffix(ending) && name.count > ending.count {
            name = String(name.dropLast(ending.count))
        }
        return path + name + ".ndjson"
    }
}
