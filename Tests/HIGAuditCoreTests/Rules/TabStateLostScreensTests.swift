import Foundation
import Testing
@testable import HIGAuditCore

/// `TabStateLostRule.State.screens` (`TabScreens`): found and compared as a `[String: String]` is,
/// and stored as one.
@Suite struct TabStateLostScreensTests {
    /// The state as it was declared when `screens` was a `[String: String]`, with the synthesised
    /// coding: the stored form checkpoints already hold.
    struct FormerState: Codable, Equatable {
        var activeTab: String?
        var activeScreen: String?
        var screens: [String: String]
        var sightingsAtSwitch: Int
    }

    static func screens(_ pairs: [(String, String)]) -> TabScreens {
        var screens = TabScreens()
        for (tab, screen) in pairs { screens.set(screen, for: tab) }
        return screens
    }

    static let manyTabs = (0..<(TabScreens.listLimit + 5)).map { ("tab:\($0)", "screen \($0)") }

    @Test(arguments: [0, 3, TabScreens.listLimit, TabScreens.listLimit + 5])
    func aStateIsStoredAsTheFormerStateWasAndReadBack(tabCount: Int) throws {
        let pairs = Array(Self.manyTabs.prefix(tabCount))
        var state = TabStateLostRule.State()
        state.activeTab = "tab:active"
        state.activeScreen = "home"
        state.screens = Self.screens(pairs)
        state.sightingsAtSwitch = 7
        let former = FormerState(
            activeTab: "tab:active", activeScreen: "home",
            screens: Dictionary(uniqueKeysWithValues: pairs), sightingsAtSwitch: 7)

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let stored = try encoder.encode(state)
        #expect(stored == (try encoder.encode(former)))
        let read = try JSONDecoder().decode(TabStateLostRule.State.self, from: stored)
        #expect(read == state)
        #expect(read.screens.dictionary == former.screens)
        #expect(try JSONDecoder().decode(FormerState.self, from: stored) == former)
    }

    /// Without an active tab the optional keys are left out, as the synthesised coding left them out.
    @Test func aFreshStateIsStoredAsTheFormerStateWas() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let stored = try encoder.encode(TabStateLostRule.State())
        #expect(stored == (try encoder.encode(FormerState(screens: [:], sightingsAtSwitch: 0))))
        #expect(String(decoding: stored, as: UTF8.self) == #"{"screens":{},"sightingsAtSwitch":0}"#)
    }

    @Test func tabsAreFoundAsDictionaryKeysAre() {
        var screens = Self.screens([("tab:caf\u{E9}", "one"), ("tab:B", "two")])
        #expect(screens.screen(of: "tab:cafe\u{301}") == "one")
        screens.set("three", for: "tab:cafe\u{301}")
        #expect(screens.count == 2)
        // The spelling first set is kept, as a dictionary keeps its key.
        #expect(screens.dictionary.keys.contains { $0.unicodeScalars.elementsEqual("tab:caf\u{E9}".unicodeScalars) })
        #expect(screens.removeScreen(of: "tab:cafe\u{301}") == "three")
        #expect(screens.removeScreen(of: "tab:caf\u{E9}") == nil)
        #expect(screens.dictionary == ["tab:B": "two"])
    }

    @Test func equalWhateverTheOrderAndWhereTheyAreKept() {
        let pairs = Array(Self.manyTabs.prefix(TabScreens.listLimit))
        let listed = Self.screens(pairs)
        #expect(listed == Self.screens(pairs.reversed()))
        #expect(listed != Self.screens(pairs.dropLast()))
        #expect(listed != Self.screens(pairs.dropLast() + [(pairs.last!.0, "elsewhere")]))
        // One more tab moves them into the dictionary; removing it again leaves them there.
        var moved = Self.screens(Self.manyTabs.prefix(TabScreens.listLimit + 1).reversed())
        #expect(moved.removeScreen(of: Self.manyTabs[TabScreens.listLimit].0) == Self.manyTabs[TabScreens.listLimit].1)
        #expect(moved == listed && listed == moved)
        moved.set("elsewhere", for: pairs[0].0)
        #expect(moved != listed && listed != moved)
        #expect(TabScreens(Dictionary(uniqueKeysWithValues: Self.manyTabs)) == Self.screens(Self.manyTabs))
    }
}
