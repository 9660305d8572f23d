import Foundation
import HIGAuditCore
import Testing
@testable import HIGAuditIO

/// facebook/zstd's golden vectors (`Tests/Conformance/zstd-golden/`), read through `InputReader`.
///
/// Expectations follow `ZSTD_versionNumber()` (README of the conformance folder): libzstd before
/// 1.5.6 wrongly fails `zeroSeq_2B.zst`; before 1.5.7 it may wrongly accept the error files (1.5.4
/// accepts all three; 1.5.5 and 1.5.6 have only part of the fixes, so there only "no crash" is asserted).
@Suite struct ZstdGoldenTests {
    static let folder = InputFixtures.packageRoot.appendingPathComponent("Tests/Conformance/zstd-golden")
    static let version = ZstdLibrary.versionNumber

    struct Golden: Sendable, CustomStringConvertible {
        var path: String
        var size: Int
        /// Every byte of the content, when it is uniform.
        var fill: UInt8?
        /// The first libzstd version that decodes it.
        var since: Int = 0
        var description: String { path }
    }

    static let decodable: [Golden] = [
        Golden(path: "golden-decompression/block-128k.zst", size: 131_068, fill: 0),
        Golden(path: "golden-decompression/empty-block.zst", size: 0, fill: nil),
        Golden(path: "golden-decompression/rle-first-block.zst", size: 1_048_576, fill: 0),
        Golden(path: "golden-decompression/zeroSeq_2B.zst", size: 13, fill: nil, since: 10506),
        Golden(path: "errata-examples/rle_first_block_then_rle.zst", size: 131_073, fill: 0),
        Golden(path: "errata-examples/tiny_fse_table.zst", size: 39, fill: nil),
    ]

    static let errors = ["off0.bin.zst", "truncated_huff_state.zst", "zeroSeq_extraneous.zst"]

    @Test func recordsTheLinkedVersion() {
        print("libzstd \(ZstdLibrary.versionString) (ZSTD_versionNumber() = \(Self.version))")
        #expect(Self.version >= 10400)
    }

    @Test(arguments: decodable)
    func goldenFrameDecodes(golden: Golden) throws {
        let path = Self.folder.appendingPathComponent(golden.path).path
        let result = try InputFixtures.read(InputSource(path: path, displayPath: golden.path))
        let expectedSize = Int64(golden.size)
        if Self.version >= golden.since {
            #expect(result.diagnostics.isEmpty, "libzstd \(Self.version)")
            #expect(result.statistics.decompressedBytes == expectedSize)
            #expect(result.statistics.frames == 1)
            if let fill = golden.fill {
                // No newline in it: one line of the whole content (1 MiB exactly is not over the limit).
                #expect(result.sink.lines.count == (golden.size == 0 ? 0 : 1))
                #expect(result.sink.lines.allSatisfy { $0.bytes.count == golden.size && $0.bytes.allSatisfy { $0 == fill } })
            }
            if golden.path.hasSuffix("zeroSeq_2B.zst") {
                #expect(result.sink.texts == ["Hello World!"])
            }
        } else {
            // The known bug of this libzstd: reported as a corrupt frame, and the run goes on.
            #expect(result.diagnostics.map(\.category) == [.corruptFrame], "libzstd \(Self.version)")
            #expect(result.statistics.faults == 1)
        }
    }

    @Test(arguments: errors)
    func goldenErrorIsRejected(name: String) throws {
        let path = Self.folder.appendingPathComponent("golden-decompression-errors/\(name)").path
        let result = try InputFixtures.read(InputSource(path: path, displayPath: name))
        let rejected = result.diagnostics.contains { $0.category == .corruptFrame }
        if Self.version >= 10507 {
            #expect(rejected, "libzstd \(Self.version) must reject \(name)")
            #expect(result.statistics.frames == 0)
        } else if Self.version <= 10504 {
            // Known bug of these versions: the frame is accepted.
            #expect(!rejected, "libzstd \(Self.version) is known to accept \(name)")
            #expect(result.statistics.frames == 1)
        }
        #expect(result.statistics.files == 1)
    }
}
