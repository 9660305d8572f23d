/// One order of the input files of several partial stores, for the merged store's file ids.
///
/// Each part read its files in the order of the whole run, left out the files it did not need, so
/// every part's order is a subsequence of the run's. The merged order keeps every part's order (a
/// violation's source file still sorts as it did in its part, which is the order the tables' ties
/// are broken by); files that no part orders against each other keep the order they were first
/// met in, part by part.
enum FileOrder {
    /// Fails (nil) when two parts read two files in opposite orders: they were not made from one run.
    static func combined(_ sequences: [[String]]) -> [String]? {
        var firstSeen: [String: Int] = [:]
        var successors: [String: Set<String>] = [:]
        var predecessorCount: [String: Int] = [:]
        for sequence in sequences {
            for (index, file) in sequence.enumerated() {
                if firstSeen[file] == nil {
                    firstSeen[file] = firstSeen.count
                    predecessorCount[file] = 0
                }
                guard index > 0 else { continue }
                let before = sequence[index - 1]
                if before != file, successors[before, default: []].insert(file).inserted {
                    predecessorCount[file, default: 0] += 1
                }
            }
        }
        // Kahn's algorithm, taking among the ready files the one met first.
        var ready = firstSeen.keys.filter { predecessorCount[$0] == 0 }.sorted { firstSeen[$0]! < firstSeen[$1]! }
        var order: [String] = []
        order.reserveCapacity(firstSeen.count)
        while !ready.isEmpty {
            let file = ready.removeFirst()
            order.append(file)
            for next in successors[file] ?? [] {
                predecessorCount[next]! -= 1
                if predecessorCount[next] == 0 {
                    let position = ready.firstIndex { firstSeen[$0]! > firstSeen[next]! } ?? ready.endIndex
                    ready.insert(next, at: position)
                }
            }
        }
        return order.count == firstSeen.count ? order : nil
    }
}
