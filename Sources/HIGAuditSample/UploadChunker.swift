/// Splits a file's bytes into upload chunks, one zstd frame each, as devices append uploads.
///
/// With noise a chunk ends at any byte (mid-line included), frames vary in checksum and content-size
/// flags, and skippable frames appear between chunks. Without noise chunks end at line ends and every
/// frame has both flags.
struct UploadChunker {
    let noise: NoiseProfile

    func chunks(of contents: [UInt8], random: inout SampleRandom, counts: inout NoiseCounts) -> [UploadChunk] {
        var chunks: [UploadChunk] = []
        var offset = 0
        let lower = max(1, noise.chunkBytes.lowerBound)
        let upper = max(lower, noise.chunkBytes.upperBound)
        while offset < contents.count {
            var end = min(contents.count, offset + random.int(lower...upper))
            if !noise.enabled {
                while end < contents.count, contents[end - 1] != UInt8(ascii: "\n") { end += 1 }
            }
            if noise.enabled, random.chance(noise.skippableFrame) {
                let payload = Array(#"{"upload":"retry","attempt":2}"#.utf8)
                chunks.append(.skippable(variant: UInt8(random.below(16)), payload: payload))
                counts.skippableFrames += 1
            }
            let checksum = noise.enabled ? random.chance(0.6) : true
            let contentSize = noise.enabled ? random.chance(0.7) : true
            if !checksum { counts.framesWithoutChecksum += 1 }
            if !contentSize { counts.framesWithoutContentSize += 1 }
            if end < contents.count, contents[end - 1] != UInt8(ascii: "\n") { counts.framesEndingMidLine += 1 }
            chunks.append(.frame(range: offset..<end, checksum: checksum, contentSize: contentSize))
            offset = end
        }
        return chunks
    }
}
