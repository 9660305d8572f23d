/// The realistic, deterministic log generator behind `hig-audit sample` and the benchmarks.
///
/// Devices are generated one after another, each from its own random stream derived from the seed,
/// so output depends only on the configuration. Files go to a `SampleLogSink` as soon as they are
/// complete: memory stays at one device's current upload in the layouts with a file per upload named
/// by time, and at one device's uploads in the `device` and `uploads` layouts, whatever the total size.
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
        var run = GenerationRun(configuration: configuration)
        switch configuration.size {
        case .sessions(let sessions):
            let devices = configuration.deviceCount
            guard sessions > 0 else { return manifest }
            let offline = offlineDevices(among: devices)
            for index in 0..<devices {
                let count = sessions / devices + (index < sessions % devices ? 1 : 0)
                try generateDevice(index, sessions: count, uploadsLate: offline.contains(index), run: &run, manifest: &manifest, into: &sink)
            }
        case .targetBytes(let target):
            let perDevice = max(1, configuration.sessionsPerDevicePerDay * max(1, configuration.days))
            var index = 0
            while manifest.uncompressedBytes < target {
                let uploadsLate = Self.offlineRank(seed: configuration.seed, device: index) < configuration.offlineDeviceFraction
                try generateDevice(index, sessions: perDevice, uploadsLate: uploadsLate, run: &run, manifest: &manifest, into: &sink)
                index += 1
            }
        }
        try run.interleaver?.write(endingBy: .max, into: &sink, manifest: &manifest)
        return manifest
    }

    /// What generating one device leaves for the next: the lanes of `concurrentSessions` and the
    /// `stream` layout's periods not yet written.
    private struct GenerationRun {
        var lanes: LaneSchedule?
        var interleaver: StreamInterleaver?

        init(configuration: SampleConfiguration) {
            lanes = configuration.concurrentSessions.map {
                LaneSchedule(lanes: $0, startMs: configuration.startMs, seed: configuration.seed)
            }
            interleaver = configuration.layout == .stream ? StreamInterleaver(configuration: configuration) : nil
        }
    }

    /// The devices, of `count`, that upload late: the `offlineDeviceFraction` share of them (rounded)
    /// with the lowest `offlineRank`.
    public func offlineDevices(among count: Int) -> Set<Int> {
        let offline = Int((configuration.offlineDeviceFraction * Double(count)).rounded())
        guard offline > 0 else { return [] }
        let ranks = (0..<count).map { Self.offlineRank(seed: configuration.seed, device: $0) }
        let ranked = (0..<count).sorted { (ranks[$0], $0) < (ranks[$1], $1) }
        return Set(ranked.prefix(offline))
    }

    /// A uniform number in [0, 1) per device and seed, drawn apart from the device's other streams, that
    /// decides whether the device is offline.
    static func offlineRank(seed: UInt64, device: Int) -> Double {
        var random = SampleRandom(seed: seed ^ 0x6F66_666C_696E_6500, stream: UInt64(truncatingIfNeeded: device))
        return random.unit()
    }

    private func generateDevice(
        _ index: Int, sessions: Int, uploadsLate: Bool, run: inout GenerationRun, manifest: inout SampleManifest,
        into sink: inout some SampleLogSink
    ) throws {
        let random = SampleRandom(seed: configuration.seed, stream: UInt64(truncatingIfNeeded: index) &* 2 &+ 2)
        var stream = DeviceLogStream(configuration: configuration, device: device(index), random: random, uploadsLate: uploadsLate)
        try stream.generate(sessionCount: sessions, laneStart: run.lanes?.start(ofDevice: index), into: &sink)
        run.lanes?.finish(device: index, lastTs: stream.lastEventTs)
        manifest.add(stream.manifest)
        if run.interleaver != nil {
            run.interleaver?.add(stream.takeStreamUploads(), device: index)
            // Without lanes any later device may still send into any period.
            try run.interleaver?.write(endingBy: run.lanes?.earliestFree ?? .min, into: &sink, manifest: &manifest)
        }
    }
}
