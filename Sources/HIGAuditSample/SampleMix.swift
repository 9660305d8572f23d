/// A preset of the options that shape the event mix, for `sample --mix`: explicit options override it.
public enum SampleMix: String, Sendable, Equatable, CaseIterable {
    /// Shaped like the field data of issue 49 (a held-out corpus from another generator): about 29 %
    /// `touch` `moved` lines, 85 haptics and 23 planted violations per 1,000 lines, short sessions,
    /// about 3,000 of them in progress at once and interleaved line by line (the `stream` layout), each
    /// device writing with one of several SDKs' JSON writers. `SampleMixTests` holds the output to
    /// these proportions.
    case field

    /// Sets the options this preset decides; the caller then applies the options given explicitly.
    public func apply(to configuration: inout SampleConfiguration) {
        switch self {
        case .field:
            configuration.sessionLength = .short
            configuration.moveSamplingMs = Self.fieldMoveSamplingMs
            configuration.extraHapticsPerMinute = Self.fieldExtraHapticsPerMinute
            configuration.problemRateScale = Self.fieldProblemRateScale
            configuration.concurrentSessions = Self.fieldConcurrentSessions
            configuration.sessionsPerDevicePerDay = Self.fieldSessionsPerDevice
            configuration.layout = .stream
            configuration.encoders = .mixed
        }
    }

    public static let fieldMoveSamplingMs = 80
    public static let fieldExtraHapticsPerMinute = 10.0
    public static let fieldProblemRateScale = 2.5
    public static let fieldConcurrentSessions = 3_000
    /// Two sessions a device: a lane holds a device for two short sessions, so that 3,000 lanes fill
    /// with 6,000 sessions (about 200 MB) and the first 30 MB of the input already interleave 3,000.
    public static let fieldSessionsPerDevice = 2
}
