/// How long the simulated sessions last: the mix of quick looks, sketches and long drawing sessions.
///
/// The length decides how many activities a session holds, so it sets the size of the logs far more
/// than the number of sessions does. Both mixes draw the same random numbers, so a seed gives the same
/// devices, session starts and settings with either.
public enum SessionLength: String, Sendable, Equatable, CaseIterable {
    /// 35 % 20–90 s, 50 % 1.5–5 min, 15 % 5–15 min (mean ≈ 3.4 min): drawing sessions as they are.
    case mixed
    /// 50 % 10–45 s, 40 % 45 s–2 min, 10 % 2–5 min (mean ≈ 1.1 min): many sessions in little data, for
    /// committed sample logs.
    case short

    /// The planned activity time of one session, drawn from the mix.
    func durationMs(random: inout SampleRandom) -> Int64 {
        switch self {
        case .mixed:
            switch random.pick(weights: [0.35, 0.5, 0.15]) {
            case 0: random.ms(20_000...90_000)
            case 1: random.ms(90_000...300_000)
            default: random.ms(300_000...900_000)
            }
        case .short:
            switch random.pick(weights: [0.5, 0.4, 0.1]) {
            case 0: random.ms(10_000...45_000)
            case 1: random.ms(45_000...120_000)
            default: random.ms(120_000...300_000)
            }
        }
    }
}
