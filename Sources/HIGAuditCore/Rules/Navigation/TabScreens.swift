/// The screen each tab other than the active one was left showing (`TabStateLostRule.State.screens`).
///
/// A session switches among a few tabs, so up to `listLimit` of them are kept in a list searched in
/// order: comparing a tab with a few short strings costs less than hashing it for a dictionary. A
/// session that names more tabs moves them into a dictionary, so that its switches do not search an
/// ever longer list. Either way a tab is found by `String` equality (canonical equivalence), as a
/// `[String: String]` finds its keys, a tab set again keeps the spelling it was first set with, and
/// two values are equal when they remember the same screens for the same tabs, in whatever order.
/// Checkpoints store it as that dictionary (`dictionary`, `init(_:)`).
struct TabScreens: Equatable, Sendable {
    private struct Entry: Sendable {
        let tab: String
        var screen: String
    }

    /// More tabs than this are kept in `table`.
    static let listLimit = 16

    /// The tabs while there are at most `listLimit`, each once.
    private var list: [Entry] = []
    /// All the tabs once there have been more than `listLimit` (`list` is then empty).
    private var table: [String: String]?

    init() {}

    init(_ dictionary: [String: String]) {
        if dictionary.count > Self.listLimit {
            table = dictionary
        } else {
            list = dictionary.map { Entry(tab: $0.key, screen: $0.value) }
        }
    }

    /// The same tabs and screens as a dictionary: the form checkpoints store.
    var dictionary: [String: String] {
        if let table { return table }
        // Each tab is in `list` once, so no screen is dropped here.
        return Dictionary(list.lazy.map { ($0.tab, $0.screen) }, uniquingKeysWith: { first, _ in first })
    }

    var count: Int { table?.count ?? list.count }

    /// The screen remembered for `tab`, if any.
    func screen(of tab: String) -> String? {
        if let table { return table[tab] }
        for entry in list where entry.tab == tab { return entry.screen }
        return nil
    }

    /// Remembers `screen` for `tab`, replacing what was remembered for it.
    mutating func set(_ screen: String, for tab: String) {
        if table != nil {
            table![tab] = screen
            return
        }
        if let index = list.firstIndex(where: { $0.tab == tab }) {
            list[index].screen = screen
        } else if list.count < Self.listLimit {
            // Room for a few tabs at once: most sessions use no more, and the list grows no further.
            if list.isEmpty { list.reserveCapacity(4) }
            list.append(Entry(tab: tab, screen: screen))
        } else {
            var moved = dictionary
            moved[tab] = screen
            table = moved
            list = []
        }
    }

    /// Forgets `tab`, returning the screen that was remembered for it.
    mutating func removeScreen(of tab: String) -> String? {
        if table != nil { return table!.removeValue(forKey: tab) }
        guard let index = list.firstIndex(where: { $0.tab == tab }) else { return nil }
        // The list's order means nothing: the last entry takes the removed one's place.
        let last = list.removeLast()
        guard index < list.count else { return last.screen }
        let removed = list[index].screen
        list[index] = last
        return removed
    }

    static func == (lhs: TabScreens, rhs: TabScreens) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if let table = lhs.table { return table.allSatisfy { rhs.screen(of: $0.key) == $0.value } }
        return lhs.list.allSatisfy { rhs.screen(of: $0.tab) == $0.screen }
    }
}
