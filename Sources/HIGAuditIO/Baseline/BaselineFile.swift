import Foundation
import HIGAuditCore

/// The baseline file of SPEC §6, `{"version": 1, "pairs": [{"rule": …, "screen": …}]}`: a team commits
/// it beside its code, so it is written to read well in a diff: one pair a line, sorted by rule then
/// screen in byte order, the same pairs always the same bytes, a newline at the end.
public enum BaselineFile {
    /// The only format version this build reads and writes.
    public static let version = 1

    /// The file's text for `baseline`.
    public static func text(_ baseline: Baseline) -> String {
        let pairs = baseline.sortedPairs.map { pair in
            "    {\"rule\": \(JSONWriter.string(pair.rule)), \"screen\": \(JSONWriter.string(pair.screen))}"
        }
        let list = pairs.isEmpty ? "[]" : "[\n" + pairs.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"version\": \(version),\n  \"pairs\": \(list)\n}\n"
    }

    /// Writes `baseline` to `path` under a temporary name renamed over it, so a run killed midway
    /// leaves the last good baseline in place.
    public static func write(_ baseline: Baseline, to path: String) throws(FileOutputError) {
        let output = try FileOutput.replacingFile(at: path)
        output.write(text(baseline))
        try output.close()
    }

    /// Reads and validates the baseline at `path`.
    /// - Throws: `BaselineFileError` naming the path and what is wrong: unreadable, not JSON, another
    ///   version, or a pair that is not two strings.
    public static func read(_ path: String) throws(BaselineFileError) -> Baseline {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
            throw BaselineFileError(path: path, problem: "\(reason); write one with `hig-audit baseline --out \(path)`")
        }
        return try parse(data, path: path)
    }

    /// Validates the bytes of a baseline file; `path` is for the messages.
    public static func parse(_ data: Data, path: String) throws(BaselineFileError) -> Baseline {
        let object: Any
        do {
            try data.withUnsafeBytes { try JSONDocument.validate($0) }
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw BaselineFileError(
                path: path, problem: "it is not JSON\(Self.whatAndWhere(error)); a baseline is written by `hig-audit baseline --out FILE`")
        }
        guard let top = object as? [String: Any] else {
            throw BaselineFileError(path: path, problem: "expected a JSON object with \"version\" and \"pairs\"")
        }
        let unknown = top.keys.filter { $0 != "version" && $0 != "pairs" }.sorted()
        if !unknown.isEmpty {
            throw BaselineFileError(path: path, problem: "unknown key \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); a baseline holds only \"version\" and \"pairs\"")
        }
        guard let found = top["version"] as? NSNumber, isInteger(found), found.intValue == version else {
            throw BaselineFileError(
                path: path,
                problem: "\"version\" is \(shown(top["version"])), and this hig-audit reads version \(version); write the baseline again with `hig-audit baseline`")
        }
        guard let list = top["pairs"] as? [Any] else {
            throw BaselineFileError(path: path, problem: "\"pairs\" is missing or not a list")
        }
        var pairs: [BaselinePair] = []
        pairs.reserveCapacity(list.count)
        for (index, entry) in list.enumerated() {
            guard let pair = entry as? [String: Any], pair.count == 2,
                  let rule = pair["rule"] as? String, let screen = pair["screen"] as? String
            else {
                throw BaselineFileError(
                    path: path, problem: "pair \(index + 1) is not {\"rule\": string, \"screen\": string}")
            }
            pairs.append(BaselinePair(rule: rule, screen: screen))
        }
        return Baseline(pairs: pairs)
    }

    /// `: WHAT at byte N` for the strict check's verdict; nothing for `JSONSerialization`'s, whose
    /// wording is Foundation's (it refuses little the check lets through: a lone surrogate escape).
    private static func whatAndWhere(_ error: any Error) -> String {
        guard let problem = error as? MalformedLine else { return "" }
        let what = problem.reason.hasPrefix("invalid JSON: ") ? String(problem.reason.dropFirst(14)) : problem.reason
        return ": " + what + (problem.column.map { " at byte \($0 + 1)" } ?? "")
    }

    /// Whether `JSONSerialization` read the number from an integer literal: `true` and `1.0` come as
    /// numbers too, and `as? Int` takes both for 1. Told apart by the type each is stored as.
    private static func isInteger(_ number: NSNumber) -> Bool {
        "silqSILQ".utf8.contains(UInt8(bitPattern: number.objCType.pointee))
    }

    /// A value of the file as a message shows it: a string in quotes, so that `"1"` is not read as 1.
    private static func shown(_ value: Any?) -> String {
        switch value {
        case nil: "missing"
        case let text as String: "the string \(JSONWriter.string(text))"
        case let number as NSNumber where number.objCType.pointee == CChar(UInt8(ascii: "c")): number.boolValue ? "true" : "false"
        case let number as NSNumber where isInteger(number): number.stringValue
        case let number as NSNumber: String(number.doubleValue)
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        default: "null"
        }
    }
}

/// A baseline file that cannot be used: the run stops before it reads any input.
public struct BaselineFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "cannot use the baseline \(path): \(problem)" }
}
