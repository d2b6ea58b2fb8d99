import KanbanCore

// The cumulative flow diagram as a standalone SVG (README: Flow): a white page, one filled
// band (a `<path>`) per board stacked from the last board up, a count axis, dates along
// the bottom and a legend. Board titles are escaped for XML.

enum FlowSVG {
    /// The SVG document, `width` × `height` pixels.
    static func render(_ flow: CumulativeFlow, width: Int = 800, height: Int = 420) -> String {
        let legendRows = (flow.boards.count + 3) / 4
        let (left, right, top) = (56.0, 24.0, 36.0)
        let bottom = 48.0 + 22.0 * Double(legendRows)
        let plotWidth = max(1, Double(width) - left - right)
        let plotHeight = max(1, Double(height) - top - bottom)
        let totals = flow.counts.map { $0.reduce(0, +) }
        let maximum = max(totals.max() ?? 0, 1)
        let days = flow.days.count
        // A single day is drawn as a band across the whole plot.
        func x(_ day: Int) -> Double {
            days <= 1 ? left + plotWidth * Double(day) : left + plotWidth * Double(day) / Double(days - 1)
        }
        func y(_ value: Int) -> Double { top + plotHeight - plotHeight * Double(value) / Double(maximum) }

        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="sans-serif" font-size="12">
            <title>Cumulative flow\(flow.days.first.map { ", \($0) to \(flow.days[days - 1])" } ?? "")</title>
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff"/>

            """
        // The bands: each board's stack from its lower edge to its upper edge.
        var lower = Array(repeating: 0, count: days)
        let columns = days <= 1 ? [0, 1] : Array(0..<days)
        for board in flow.boards.indices.reversed() where days > 0 {
            let upper = (0..<days).map { lower[$0] + flow.counts[$0][board] }
            let value = { (edge: [Int], column: Int) in edge[min(column, days - 1)] }
            var d = ""
            for (step, column) in columns.enumerated() {
                d += (step == 0 ? "M" : " L") + point(x(column), y(value(upper, column)))
            }
            for column in columns.reversed() { d += " L" + point(x(column), y(value(lower, column))) }
            out += "<path class=\"band\" d=\"\(d) Z\" fill=\"\(FlowPalette.hex(board))\" stroke=\"none\">"
            out += "<title>\(escape(flow.boards[board].title))</title></path>\n"
            lower = upper
        }
        // The axes, the counts and the dates.
        let axisBottom = top + plotHeight
        out += "<g stroke=\"#333333\" stroke-width=\"1\" fill=\"none\">"
        out += "<line x1=\"\(number(left))\" y1=\"\(number(top))\" x2=\"\(number(left))\" y2=\"\(number(axisBottom))\"/>"
        out += "<line x1=\"\(number(left))\" y1=\"\(number(axisBottom))\" x2=\"\(number(left + plotWidth))\" "
        out += "y2=\"\(number(axisBottom))\"/></g>\n"
        for value in Set([0, maximum / 2, maximum]).sorted() {
            out += "<text x=\"\(number(left - 6))\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\" fill=\"#333333\">\(value)</text>\n"
        }
        if days > 0 {
            let labels = max(1, min(days, Int(plotWidth / 90)))
            let picked = Set((0..<labels).map { labels == 1 ? 0 : $0 * (days - 1) / (labels - 1) }).sorted()
            for day in picked {
                let anchor = picked.count > 1 && day == days - 1 ? "end" : day == 0 ? "start" : "middle"
                out += "<text x=\"\(number(x(day)))\" y=\"\(number(axisBottom + 18))\" text-anchor=\"\(anchor)\" "
                out += "fill=\"#333333\">\(flow.days[day])</text>\n"
            }
        }
        // The legend, four boards a row.
        for (index, board) in flow.boards.enumerated() {
            let legendX = left + Double(index % 4) * (plotWidth / 4)
            let legendY = axisBottom + 34 + 22 * Double(index / 4)
            out += "<rect x=\"\(number(legendX))\" y=\"\(number(legendY))\" width=\"14\" height=\"14\" "
            out += "fill=\"\(FlowPalette.hex(index))\"/>"
            out += "<text x=\"\(number(legendX + 20))\" y=\"\(number(legendY + 12))\" fill=\"#333333\">"
            out += escape(board.title) + "</text>\n"
        }
        return out + "</svg>\n"
    }

    private static func point(_ x: Double, _ y: Double) -> String { number(x) + "," + number(y) }

    /// A coordinate to a tenth of a pixel.
    private static func number(_ value: Double) -> String { FlowReport.oneDecimal(value) }

    /// `text` safe inside an XML element or attribute; characters XML 1.0 cannot hold
    /// (controls other than tab, line feed and carriage return) are shown as `\u{…}`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
                    || scalar.value == 0xFFFF
                {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
