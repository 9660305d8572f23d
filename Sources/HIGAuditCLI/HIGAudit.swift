import ArgumentParser

@main
struct HIGAudit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hig-audit",
        abstract: "Find where an iOS/iPadOS app's behaviour in the field breaks Apple's Human Interface Guidelines."
    )
}
