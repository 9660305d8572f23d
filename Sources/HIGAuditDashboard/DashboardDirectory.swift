#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HIGAuditIO

/// Where the page goes: `DIR/index.html`, written into a new sibling directory that then takes `DIR`'s
/// place in one step, so that a reader (a web server, a browser reloading) sees the old page or the new
/// one, never a mix or a half-written file.
public struct DashboardDirectory: Sendable {
    public let path: String
    /// The files a page is made of; a directory holding anything else is not replaced.
    public static let pageFiles: Set<String> = ["index.html"]

    /// Checks, before any work, that `path` can be written: its parent exists and takes new entries,
    /// and `path` is a directory or does not exist yet.
    public init(checking path: String) throws(DashboardOutputError) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.path = trimmed
        var isDirectory: ObjCBool = false
        if [".", "..", "/", ""].contains(Self.lastComponent(of: trimmed)) {
            throw DashboardOutputError(path: trimmed, message: "name a directory of its own (its whole content is replaced)")
        }
        if FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DashboardOutputError(path: trimmed, message: "it is a file, not a directory") }
            // The directory is replaced whole: only one that holds nothing but an earlier page may go.
            let content = (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? []
            if let other = content.sorted().first(where: { !Self.pageFiles.contains($0) }) {
                throw DashboardOutputError(
                    path: trimmed,
                    message: "it holds \(other), which is not part of a dashboard, and the directory is replaced whole; give a new or empty directory")
            }
        }
        let parent = Self.parent(of: trimmed)
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory) else {
            throw DashboardOutputError(path: trimmed, message: "its parent \(parent) does not exist")
        }
        guard isDirectory.boolValue else {
            throw DashboardOutputError(path: trimmed, message: "its parent \(parent) is a file, not a directory")
        }
        // A probe, not access(2): it tells the truth for root, read-only mounts and ACLs alike.
        let probe = "\(parent)/.\(Self.lastComponent(of: trimmed)).probe-\(getpid())"
        guard mkdir(probe, 0o755) == 0 else {
            throw DashboardOutputError(path: trimmed, message: "cannot create entries in \(parent): \(String(cString: strerror(errno)))")
        }
        rmdir(probe)
    }

    /// The new sibling directory `replace` writes the page into before it takes `path`'s place; a
    /// command that is interrupted removes it.
    public var stagingPath: String { "\(Self.parent(of: path))/.\(Self.lastComponent(of: path)).new-\(getpid())" }

    /// Writes `files` (name → content) as the directory's whole content and puts it in place.
    public func replace(with files: [String: String]) throws(DashboardOutputError) {
        let parent = Self.parent(of: path)
        let name = Self.lastComponent(of: path)
        // What a killed run left: its staged page and the old page it was swapping out.
        for stem in [".\(name).new-", ".\(name).old-"] { DeadRunLeftovers.remove(in: parent, stem: stem) }
        let staging = stagingPath
        removeTree(staging)
        guard mkdir(staging, 0o755) == 0 else {
            throw DashboardOutputError(path: staging, message: String(cString: strerror(errno)))
        }
        for (name, content) in files.sorted(by: { $0.key < $1.key }) {
            do {
                try Data(content.utf8).write(to: URL(fileURLWithPath: "\(staging)/\(name)"))
            } catch {
                removeTree(staging)
                throw DashboardOutputError(path: "\(staging)/\(name)", message: "\(error)")
            }
        }
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard rename(staging, path) == 0 else {
                let message = String(cString: strerror(errno))
                removeTree(staging)
                throw DashboardOutputError(path: path, message: message)
            }
            return
        }
        if Self.exchange(staging, path) {
            removeTree(staging)
            return
        }
        // Without renameat2 (not Linux): two renames, with a moment in which `path` is missing.
        let old = "\(parent)/.\(Self.lastComponent(of: path)).old-\(getpid())"
        removeTree(old)
        guard rename(path, old) == 0 else {
            let message = String(cString: strerror(errno))
            removeTree(staging)
            throw DashboardOutputError(path: path, message: message)
        }
        guard rename(staging, path) == 0 else {
            let message = String(cString: strerror(errno))
            _ = rename(old, path)
            removeTree(staging)
            throw DashboardOutputError(path: path, message: message)
        }
        removeTree(old)
    }

    /// Linux's `renameat2(…, RENAME_EXCHANGE)`: swaps two directories in one step. Looked up at run
    /// time, as Swift's Glibc module does not declare it; false when it is missing or refuses.
    static func exchange(_ a: String, _ b: String) -> Bool {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let atCurrentDirectory: Int32 = -100, renameExchange: UInt32 = 1 << 1
        return renameat2(atCurrentDirectory, a, atCurrentDirectory, b, renameExchange) == 0
    }

    private func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

/// `--templates DIR`: every `NAME.mustache` in it replaces the built-in template of that name.
public enum TemplateDirectory {
    public static func load(_ directory: String) throws(DashboardTemplateError) -> DashboardTemplates {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".mustache") }.sorted()
        } catch {
            throw DashboardTemplateError(template: "directory \(directory)", message: "cannot be read: \(error.localizedDescription)")
        }
        guard !names.isEmpty else {
            throw DashboardTemplateError(template: "directory \(directory)", message: "holds no .mustache file")
        }
        var sources: [String: String] = [:], origins: [String: String] = [:]
        for file in names {
            let name = String(file.dropLast(".mustache".count)), path = "\(directory)/\(file)"
            do {
                sources[name] = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw DashboardTemplateError(template: path, message: "cannot be read: \(error.localizedDescription)")
            }
            origins[name] = path
        }
        return try DashboardTemplates(overriding: sources, origins: origins)
    }
}

/// An output directory that cannot take the page.
public struct DashboardOutputError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "cannot write the dashboard to \(path): \(message)" }
}
