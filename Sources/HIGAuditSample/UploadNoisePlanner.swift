import HIGAuditCore

/// One line of a session's upload, before encoding.
enum PlannedLine {
    /// `events[index]`; `duplicate` marks a retried second copy.
    case event(index: Int, duplicate: Bool)
    /// An extra, harmless touch more than 10 s behind its session.
    case late(Event)
    case unknownType(UnknownEventType, ms: Int64, id: String)
    case malformed(MalformedLineKind, ms: Int64)
    case blank(String)
}

/// Turns a session's events (in `ts` order) into the order a device uploads them, with the noise of
/// real uploads. Everything it adds keeps the meaning of the data (see `NoiseProfile`):
/// - a reordered event moves 1–3 lines later, never past the session's last event, and only when its
///   `ts` is at most 8 s below every event it now follows (the SPEC's bound is 10 s);
/// - a duplicate (same `id`) follows its original within 3 events, before the session's last event;
///   loading events carry no event id and are never duplicated;
/// - a late event is 11 s to 2 min older than its session's newest event so far.
struct UploadNoisePlanner {
    let noise: NoiseProfile

    func plan(_ events: [Event], random: inout SampleRandom, counts: inout NoiseCounts) -> [PlannedLine] {
        let n = events.count
        guard noise.enabled, n > 0 else { return events.indices.map { .event(index: $0, duplicate: false) } }
        let start = events[0].ts

        var order = Array(0..<n)
        var i = 1
        while i < n - 2 {
            if random.chance(noise.reorder) {
                let j = min(i + random.int(1...3), n - 2)
                if j > i, events[order[j]].ts - events[order[i]].ts <= 8_000 {
                    let moved = order[i]
                    for k in i..<j { order[k] = order[k + 1] }
                    order[j] = moved
                    counts.reorderedEvents += 1
                    i = j + 1
                    continue
                }
            }
            i += 1
        }

        var lines: [PlannedLine] = []
        lines.reserveCapacity(n + n / 32 + 4)
        var pendingDuplicates: [(after: Int, index: Int)] = []
        var newest = Int64.min
        var extraNumber = 0
        for position in 0..<n {
            let index = order[position]
            lines.append(.event(index: index, duplicate: false))
            newest = max(newest, events[index].ts)
            if !pendingDuplicates.isEmpty {
                for pending in pendingDuplicates where pending.after == position {
                    lines.append(.event(index: pending.index, duplicate: true))
                    counts.duplicateEvents += 1
                }
                pendingDuplicates.removeAll { $0.after == position }
            }
            if position < n - 1 {
                if events[index].id != nil, random.chance(noise.duplicate) {
                    pendingDuplicates.append((min(position + random.int(0...3), n - 2), index))
                }
                if newest - start >= 12_000, random.chance(noise.late) {
                    extraNumber += 1
                    let age = random.ms(11_000...min(120_000, newest - start))
                    var late = events[index]
                    late.ts = newest - age
                    late.payload = .touch(Touch(phase: .moved, target: "canvas", input: .pencil, x: 100.5, y: 200.5))
                    late.app = nil
                    late.osVersion = nil
                    late.id = "late-" + String(extraNumber)
                    lines.append(.late(late))
                    counts.lateEvents += 1
                }
                if random.chance(noise.unknownType) {
                    extraNumber += 1
                    let type = UnknownEventType.allCases[random.below(UnknownEventType.allCases.count)]
                    lines.append(.unknownType(type, ms: events[index].ts, id: "x-" + String(extraNumber)))
                    counts.unknownTypes[type.rawValue, default: 0] += 1
                }
            }
            if random.chance(noise.malformed) {
                let kind = MalformedLineKind.allCases[random.below(MalformedLineKind.allCases.count)]
                lines.append(.malformed(kind, ms: events[index].ts))
                counts.malformedLines += 1
                counts.malformedByKind[kind.rawValue, default: 0] += 1
            }
            if random.chance(noise.blank) {
                lines.append(.blank(random.chance(0.5) ? "" : "  \t"))
                counts.blankLines += 1
            }
        }
        return lines
    }
}
