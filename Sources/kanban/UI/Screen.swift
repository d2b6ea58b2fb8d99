// The screen model `kanban ui` draws: lines of styled text, and the bytes that turn one
// frame into the next. Text from the kanban is escaped before it gets here (see
// `BoardText`); ``Frame`` escapes every span once more, so that nothing a span holds can
// reach the terminal as a control character.

/// How a run of text looks.
struct TextStyle: Hashable, Sendable {
    enum Color: Int, Hashable, Sendable {
        case red = 31
        case green = 32
        case yellow = 33
        case blue = 34
        case magenta = 35
        case cyan = 36
    }

    var bold = false
    var dim = false
    var underline = false
    var reverse = false
    var color: Color?

    static let plain = TextStyle()
    static let bold = TextStyle(bold: true)
    static let dim = TextStyle(dim: true)
    static let reverse = TextStyle(reverse: true)

    static func colored(_ color: Color, bold: Bool = false) -> TextStyle {
        TextStyle(bold: bold, color: color)
    }

    /// The SGR parameters that set this style from a reset (`0;1;31`).
    func parameters(color enabled: Bool) -> String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if enabled, let color { codes.append(String(color.rawValue)) }
        return codes.joined(separator: ";")
    }
}

/// A run of text in one style.
struct Span: Hashable, Sendable {
    var text: String
    var style: TextStyle
}

/// One line of the screen.
struct ScreenLine: Hashable, Sendable {
    private(set) var spans: [Span] = []
    /// The columns the line takes.
    private(set) var width = 0

    init() {}

    init(_ text: String, style: TextStyle = .plain) {
        append(text, style: style)
    }

    /// The text without styles.
    var plain: String { spans.map(\.text).joined() }

    /// Adds `text` (measured here) in `style`.
    mutating func append(_ text: String, style: TextStyle = .plain) {
        append(text, width: DisplayWidth.of(text), style: style)
    }

    /// Adds `text`, which takes `width` columns, in `style`.
    mutating func append(_ text: String, width: Int, style: TextStyle) {
        guard !text.isEmpty else { return }
        if let last = spans.last, last.style == style {
            spans[spans.count - 1].text += text
        } else {
            spans.append(Span(text: text, style: style))
        }
        self.width += width
    }

    mutating func append(_ line: ScreenLine) {
        for span in line.spans { append(span.text, style: span.style) }
    }

    /// Adds spaces in `style` up to `width` columns.
    mutating func pad(to width: Int, style: TextStyle = .plain) {
        if self.width < width {
            append(String(repeating: " ", count: width - self.width), width: width - self.width, style: style)
        }
    }

    /// The line cut to at most `width` columns, with `…` where it was cut.
    func truncated(to width: Int) -> ScreenLine {
        guard self.width > width else { return self }
        var line = ScreenLine()
        guard width > 0 else { return line }
        for span in spans {
            let room = width - 1 - line.width
            let spanWidth = DisplayWidth.of(span.text)
            if spanWidth <= room {
                line.append(span.text, width: spanWidth, style: span.style)
                continue
            }
            let (head, headWidth) = Wrapping.prefix(of: span.text, width: max(0, room), atLeastOne: false)
            line.append(String(head), width: headWidth, style: span.style)
            line.append("…", width: 1, style: span.style)
            break
        }
        return line
    }
}

/// What the screen shows: `height` lines of at most `width` columns.
struct Screen: Hashable, Sendable {
    var width: Int
    var height: Int
    var lines: [ScreenLine]

    /// The lines as plain text, for tests and screen captures.
    var text: [String] { lines.map(\.plain) }
}

/// The bytes that change what the terminal shows from one screen to the next.
enum Frame {
    /// The bytes that draw `new` over `old`: only the lines that differ, each from its
    /// start, cleared to its end; everything when there is no `old` or its size differs.
    static func bytes(from old: Screen?, to new: Screen, color: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let whole = old == nil || old!.width != new.width || old!.height != new.height
        if whole { out += Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8) }
        for (row, line) in new.lines.enumerated() where row < new.height {
            if !whole, let old, row < old.lines.count, old.lines[row] == line { continue }
            if whole && line.spans.isEmpty { continue }
            out += Array("\u{1B}[\(row + 1);1H".utf8)
            var current: TextStyle? = nil
            for span in line.spans {
                if span.style != current {
                    out += Array("\u{1B}[\(span.style.parameters(color: color))m".utf8)
                    current = span.style
                }
                out += Array(Escape.visible(span.text).utf8)
            }
            if current != nil && current != .plain { out += Array("\u{1B}[0m".utf8) }
            // Erasing from the last column would erase the character written there.
            if line.width < new.width { out += Array("\u{1B}[K".utf8) }
        }
        return out
    }
}
