/// Where one device's uploads go in each `SampleConfiguration.Layout`: the paths of the files, and the
/// random-looking upload ids of the `uploads` layout.
///
/// Names never draw from the generator's session or noise streams, so the same seed gives the same
/// events and noise in every layout; only the paths differ.
struct UploadPaths {
    let layout: SampleConfiguration.Layout
    let seed: UInt64
    let device: DeviceProfile
    /// True for a device that was offline and uploads after everyone else (see `lateUploadsFolder`).
    let uploadsLate: Bool

    private var prefix: String { uploadsLate ? SampleConfiguration.lateUploadsFolder + "/" : "" }

    /// The path of one upload in the layouts with a file per upload named by time (`device-hour`, else
    /// `time`): `day` is the UTC date (`2026-11-20`) and `period` the upload's period start as `HH` or `HHMM`.
    func timedPath(day: String, period: String) -> String {
        layout == .deviceHour
            ? prefix + day + "/" + device.id + "/" + period + ".ndjson.zst"
            : prefix + day + "/" + period + "/" + device.id + ".ndjson.zst"
    }

    /// The path of the `stream` layout's file of one period, shared by every device that uploads on
    /// time (the offline ones share theirs below `lateUploadsFolder`).
    func streamPath(day: String, period: String) -> String {
        prefix + day + "/" + period + ".ndjson.zst"
    }

    /// The path of the `device` layout's single file of this device.
    var deviceFilePath: String { prefix + "devices/" + device.id + ".ndjson.zst" }

    /// The paths of the `uploads` layout for the device's `count` uploads, in upload order.
    func uploadPaths(count: Int) -> [String] {
        Self.uploadIDs(count: count, seed: seed, device: device.index).map { prefix + "inbox/" + $0 + ".ndjson.zst" }
    }

    /// `count` upload ids of 32 hex digits, in upload order, that sort in that order.
    ///
    /// The first 16 digits are `count` sorted random numbers below 2^63 drawn for this device (made
    /// strictly increasing), so across all devices the ids sort as a uniformly random interleaving
    /// that keeps each device's uploads in order. The last 16 digits mix that number with a tag that
    /// is distinct per device (a bijection of its index), so ids are unique across devices too.
    static func uploadIDs(count: Int, seed: UInt64, device: Int) -> [String] {
        var random = SampleRandom(seed: seed ^ 0x7570_6C6F_6164_0000, stream: UInt64(truncatingIfNeeded: device))
        var keys = (0..<count).map { _ in random.next() >> 1 }
        keys.sort()
        for index in keys.indices.dropFirst() where keys[index] <= keys[index - 1] { keys[index] = keys[index - 1] + 1 }
        let tag = SampleRandom.mix(seed ^ SampleRandom.mix(UInt64(truncatingIfNeeded: device) ^ 0x6465_7669_6365_0000))
        return keys.map { hex16($0) + hex16(SampleRandom.mix($0 ^ tag)) }
    }

    private static func hex16(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
