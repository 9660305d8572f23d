/// Small inline SVG charts, drawn from the numbers of the table beside them. Colours come from CSS
/// classes (`series`, `bar`, `axis`), so the page's palette and its dark variant apply to them too.
///
/// Every value is text as the table prints it; a chart parses it for drawing only.
enum SVGChart {
    /// A line over `values` (nil: no point that day), scaled to the largest value (a flat zero line
    /// when all are zero), with its axes labelled: the largest value (as the table prints it, with
    /// `unit`) at the top and 0 at the bottom of the vertical axis, and `xLabels` under the ends of the
    /// horizontal one.
    static func trend(
        _ values: [String?], label: String, xLabels: (first: String, last: String)? = nil, unit: String = "",
        width: Int = 240, height: Int = 64
    ) -> String {
        let numbers = values.map { $0.flatMap(Double.init) }
        let largest = numbers.indices.filter { numbers[$0] != nil }.max { numbers[$0]! < numbers[$1]! }
        let peak = largest.map { numbers[$0]! }.flatMap { $0 > 0 ? $0 : nil } ?? 1
        let left = 40, right = 4, top = 6, bottom = xLabels == nil ? 4 : 16
        let baseline = height - bottom
        let plot = Double(baseline - top)
        let step = numbers.count > 1 ? Double(width - left - right) / Double(numbers.count - 1) : 0
        func point(_ index: Int, _ value: Double) -> String {
            let x = Double(left) + step * Double(index)
            let y = Double(baseline) - (value / peak) * plot
            return "\(format(x)),\(format(y))"
        }
        var segments: [[String]] = [[]]
        for (index, value) in numbers.enumerated() {
            if let value {
                segments[segments.count - 1].append(point(index, value))
            } else if !(segments.last?.isEmpty ?? true) {
                segments.append([])
            }
        }
        var body = "<line class=\"axis\" x1=\"\(left)\" y1=\"\(baseline)\" x2=\"\(width - right)\" y2=\"\(baseline)\"/>"
        body += "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(baseline)\"/>"
        let peakText = largest.flatMap { values[$0] }.flatMap { (Double($0) ?? 0) > 0 ? $0 : nil } ?? "1"
        body += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(top + 8)\" text-anchor=\"end\">\(escape(peakText + unit))</text>"
        body += "<text class=\"tick\" x=\"\(left - 4)\" y=\"\(baseline)\" text-anchor=\"end\">\(escape("0" + unit))</text>"
        if let xLabels {
            body += "<text class=\"tick\" x=\"\(left)\" y=\"\(height - 3)\">\(escape(xLabels.first))</text>"
            body += "<text class=\"tick\" x=\"\(width - right)\" y=\"\(height - 3)\" text-anchor=\"end\">\(escape(xLabels.last))</text>"
        }
        for segment in segments where !segment.isEmpty {
            if segment.count == 1 {
                let xy = segment[0].split(separator: ",")
                body += "<circle class=\"series\" cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2\"/>"
            } else {
                body += "<polyline class=\"series\" points=\"\(segment.joined(separator: " "))\"/>"
            }
        }
        if let last = numbers.indices.last, let value = numbers[last] {
            let xy = point(last, value).split(separator: ",")
            body += "<circle class=\"series-end\" cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\"/>"
        }
        return svg(width: width, height: height, label: label, body: body)
    }

    /// Horizontal bars, one per value, labelled; scaled to the largest value (at least 1).
    static func bars(_ items: [(label: String, value: String)], caption: String, width: Int = 360) -> String {
        let rowHeight = 18, labelWidth = 110, valueWidth = 60
        let height = max(rowHeight, items.count * rowHeight) + 4
        let peak = max(1, items.compactMap { Double($0.value) }.max() ?? 0)
        let room = Double(width - labelWidth - valueWidth)
        var body = ""
        for (index, item) in items.enumerated() {
            let y = 2 + index * rowHeight
            let length = (Double(item.value) ?? 0) / peak * room
            body += "<text class=\"label\" x=\"\(labelWidth - 6)\" y=\"\(y + 13)\" text-anchor=\"end\">\(escape(item.label))</text>"
            body += "<rect class=\"bar\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(format(max(length, 0.5)))\" height=\"\(rowHeight - 6)\"/>"
            body += "<text class=\"value\" x=\"\(format(Double(labelWidth) + length + 4))\" y=\"\(y + 13)\">\(escape(item.value))</text>"
        }
        return svg(width: width, height: height, label: caption, body: body)
    }

    /// Vertical bars, one per value in order, scaled to the largest value (at least 1); the first and
    /// last are labelled below, the largest value above.
    static func columns(_ items: [(label: String, value: String)], caption: String, width: Int = 600, height: Int = 90) -> String {
        let top = 14, bottom = 16
        let peak = max(1, items.compactMap { Double($0.value) }.max() ?? 0)
        let slot = Double(width - 8) / Double(max(items.count, 1))
        let room = Double(height - top - bottom)
        var body = "<line class=\"axis\" x1=\"4\" y1=\"\(height - bottom)\" x2=\"\(width - 4)\" y2=\"\(height - bottom)\"/>"
        for (index, item) in items.enumerated() {
            let length = (Double(item.value) ?? 0) / peak * room
            let x = 4 + slot * Double(index)
            body += "<rect class=\"bar\" x=\"\(format(x + slot * 0.1))\" y=\"\(format(Double(height - bottom) - length))\" width=\"\(format(max(slot * 0.8, 0.5)))\" height=\"\(format(length))\"/>"
        }
        if let first = items.first, let last = items.last {
            body += "<text class=\"label\" x=\"4\" y=\"\(height - 3)\">\(escape(first.label))</text>"
            body += "<text class=\"label\" x=\"\(width - 4)\" y=\"\(height - 3)\" text-anchor=\"end\">\(escape(last.label))</text>"
        }
        body += "<text class=\"value\" x=\"4\" y=\"11\">max \(escape(items.map(\.value).max { (Double($0) ?? 0) < (Double($1) ?? 0) } ?? "0"))</text>"
        return svg(width: width, height: height, label: caption, body: body)
    }

    private static func svg(width: Int, height: Int, label: String, body: String) -> String {
        "<svg viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(escape(label))\">"
            + body + "</svg>"
    }

    /// One decimal, no trailing `.0`: short coordinates keep the page small.
    static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return String(whole) }
        return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    /// Text for SVG/HTML content and attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
