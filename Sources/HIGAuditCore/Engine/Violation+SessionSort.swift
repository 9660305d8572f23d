extension Array where Element == Violation {
    /// Sorts the violations by `Violation.sessionOrder`, keeping equal ones in their order (as a stable
    /// sort does), comparing them where they lie and then moving each to its place once.
    ///
    /// A closed session's violations are mostly in order already (`SessionContext.takeReport` sorts
    /// only when they are not); when they are not, the standard library's sort of a short array is an
    /// insertion sort that copies and destroys a whole `Violation` (retaining and releasing its
    /// strings) at every step.
    mutating func sortInSessionOrder() {
        let order: [Int] = withUnsafeBufferPointer { all in
            all.indices.sorted { first, second in
                if Violation.sessionOrder(all[first], all[second]) { return true }
                if Violation.sessionOrder(all[second], all[first]) { return false }
                return first < second
            }
        }
        // Place k takes the violation at `order[k]`: each cycle of the permutation is followed once,
        // swapping, which moves the violations without copying them.
        withUnsafeMutableBufferPointer { all in
            var placed = [Bool](repeating: false, count: all.count)
            for start in all.indices where !placed[start] {
                var place = start
                while order[place] != start {
                    all.swapAt(place, order[place])
                    placed[place] = true
                    place = order[place]
                }
                placed[place] = true
            }
        }
    }
}
