import Foundation
import HIGAuditIO

/// Writes generated files below a directory as zstd, one frame per upload chunk: the I/O edge of
/// the generator.
public struct ZstdDirectorySink: SampleLogSink {
    public let directory: URL
    public let level: Int32
    private let encoder: ZstdFrameEncoder
    private var output: [UInt8] = []
    /// Compressed bytes written so far.
    public private(set) var compressedBytes: Int64 = 0
    public private(set) var paths: [String] = []

    public init(directory: URL, level: Int32 = 3) throws {
        self.directory = directory
        self.level = level
        encoder = try ZstdFrameEncoder()
    }

    public mutating func write(_ file: SampleLogFile) throws {
        output.removeAll(keepingCapacity: true)
        try file.contents.withUnsafeBytes { contents in
            for chunk in file.chunks {
                switch chunk {
                case .frame(let range, let checksum, let contentSize):
                    try encoder.appendFrame(
                        UnsafeRawBufferPointer(rebasing: contents[range]),
                        options: ZstdFrameOptions(level: level, checksum: checksum, contentSize: contentSize),
                        to: &output
                    )
                case .skippable(let variant, let payload):
                    output.append(contentsOf: ZstdFrameEncoder.skippableFrame(variant: variant, payload: payload))
                }
            }
        }
        let url = directory.appendingPathComponent(file.path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(output).write(to: url)
        compressedBytes += Int64(output.count)
        paths.append(file.path)
    }
}

extension SampleGenerator {
    /// Generates into `directory` (created if needed) and writes `sample-manifest.json` beside the logs
    /// (a `.json` file, so readers of the directory skip it). The benchmarks call this.
    public func write(to directory: URL) throws -> SampleManifest {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var sink = try ZstdDirectorySink(directory: directory, level: configuration.compressionLevel)
        var manifest = try generate(into: &sink)
        manifest.compressedBytes = sink.compressedBytes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: directory.appendingPathComponent("sample-manifest.json"))
        return manifest
    }
}
