import HIGAuditCore

/// The vocabulary of the simulated app, "Sketchbook", an iPad drawing app: its tabs, their screens and
/// the element ids its telemetry reports. Names follow the SPEC's examples (`tab:Library`, `nav.back`).
enum SketchbookTab: Int, CaseIterable, Sendable {
    case gallery, canvas, brushes, library

    /// The tab id used in `nav.tab_switch` and as a touch `target`.
    var id: String {
        switch self {
        case .gallery: "tab:Gallery"
        case .canvas: "tab:Canvas"
        case .brushes: "tab:Brushes"
        case .library: "tab:Library"
        }
    }

    /// The screens a tab's navigation stack can show, root first; a push goes one step deeper.
    var screens: [String] {
        switch self {
        case .gallery: ["gallery.grid", "gallery.artwork", "gallery.artwork.info"]
        case .canvas: ["canvas.editor", "canvas.layers"]
        case .brushes: ["brushes.list", "brushes.detail", "brushes.detail.shape"]
        case .library: ["library.home", "library.collection", "library.item"]
        }
    }

    var root: String { screens[0] }

    /// The element a user touches to push the next screen, e.g. `cell:artwork`.
    func pushTarget(depth: Int) -> String {
        switch (self, depth) {
        case (.gallery, 1): "cell:artwork"
        case (.gallery, _): "button:info"
        case (.canvas, _): "button:layers"
        case (.brushes, 1): "cell:brush"
        case (.brushes, _): "button:shape"
        case (.library, 1): "cell:collection"
        case (.library, _): "cell:item"
        }
    }
}

/// A modal the app presents, with the screen id shown while it is on top.
struct SketchbookModal: Sendable {
    var id: String
    var style: ModalStyle
    var screen: String

    static let exportSheet = SketchbookModal(id: "export-sheet", style: .pageSheet, screen: "export.sheet")
    static let exportOptions = SketchbookModal(id: "export-options", style: .formSheet, screen: "export.options")
    /// 5.2.0 pushes the format picker as a third modal level instead of inside the options sheet.
    static let exportFormat = SketchbookModal(id: "export-format", style: .formSheet, screen: "export.format")
    static let exportFailedAlert = SketchbookModal(id: "export-failed", style: .alert, screen: "export.failed")
    static let brushPopover = SketchbookModal(id: "brush-popover", style: .popover, screen: "brush.popover")
    static let resetBrushAlert = SketchbookModal(id: "reset-brush", style: .alert, screen: "brush.reset")
    /// Presented over the brush popover by the faulty versions (only an alert may appear there).
    static let brushEditor = SketchbookModal(id: "brush-editor", style: .formSheet, screen: "brush.editor")
    static let camera = SketchbookModal(id: "camera", style: .fullScreen, screen: "camera.capture")
    static let deleteAlert = SketchbookModal(id: "delete-artwork", style: .alert, screen: "gallery.delete")
    static let shareSheet = SketchbookModal(id: "share", style: .actionSheet, screen: "share.sheet")
}
