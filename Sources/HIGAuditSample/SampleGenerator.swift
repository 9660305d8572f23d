/// The realistic, deterministic log generator behind `hig-audit sample` and the benchmarks.
///
/// Devices are generated one after another, each from its own random stream derived from the seed,
/// so output depends only on the configuration. Files go to a `SampleLogSink` as soon as they are
/// complete: memory stays at one device's current hour, whatever the total size.
public struct SampleGenerator: Sendable {
    public let configuration: SampleConfiguration

    public init(configuration: SampleConfiguration) {
        self.configuration = configuration
    }

    /// The device with this index (0-based), with its settings drawn from the seed.
    public func device(_ index: Int) -> DeviceProfile {
        var random = SampleRandom(seed: configuration.seed, stream: UInt64(truncatingIfNeeded: index) &* 2 &+ 1)
        return DeviceProfile(index: index, random: &random)
    }

    /// Generates all files into `sink` and returns what was generated and planted.
    public func generate(into sink: inout some SampleLogSink) throws -> SampleManifest {
        var manifest = SampleManifest(seed: configuration.seed, versions: AppVersionBehaviour.releases.map(\.version))
        switch configuration.size {
        case .sessions(let sessions):
            let devices = configuration.deviceCount
            guard sessions > 0 else { return manifest }
            for index in 0..<devices {
                let count = sessions / devices + (index < sessions % devices ? 1 : 0)
                manifest.add(try generateDevice(index, sessions: count, into: &sink))
            }
        case .targetBytes(let target):
            let perDevice = max(1, configuration.sessionsPerDevicePerDay * max(1, configuration.days))
            var index = 0
            while manifest.uncompressedBytes < target {
                manifest.add(try generateDevice(index, sessions: perDevice, into: &sink))
                index += 1
            }
        }
        return manifest
    }

    private func generateDevice(_ index: Int, sessions: Int, into sink: inout some SampleLogSink) throws -> SampleManifest {
        let random = SampleRandom(seed: configuration.seed, stream: UInt64(truncatingIfNeeded: index) &* 2 &+ 2)
        var stream = DeviceLogStream(configuration: configuration, device: device(index), random: random)
        try stream.generate(sessionCount: sessions, into: &sink)
        return stream.manifest
    }
}
