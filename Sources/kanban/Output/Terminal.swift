import Glibc

/// What the output goes to: a terminal or not, how wide and tall, with color or not.
struct Terminal: Equatable {
    /// Whether standard output is a terminal: boards then stand side by side.
    var isTerminal: Bool
    /// The width in columns.
    var width: Int
    /// Whether to emit color escape codes.
    var color: Bool
    /// The height in lines, when known: a taller view goes through a pager.
    var height: Int? = nil

    /// Looks at standard output and the environment.
    static func detect(color mode: ColorMode) -> Terminal {
        let isTerminal = isatty(Surroundings.current.stdout) == 1
        var size = winsize()
        let measured = isTerminal && ioctl(Surroundings.current.stdout, UInt(TIOCGWINSZ), &size) == 0
        let width = measured && size.ws_col > 0 ? Int(size.ws_col) : positive("COLUMNS") ?? 80
        let height = measured && size.ws_row > 0 ? Int(size.ws_row) : positive("LINES")
        let color: Bool
        switch mode {
        case .always: color = true
        case .never: color = false
        case .auto:
            let term = POSIX.environment("TERM")
            let noColor = Surroundings.current.variable("NO_COLOR").map { !$0.isEmpty } ?? false
            color = isTerminal && !noColor && term != "dumb"
        }
        return Terminal(isTerminal: isTerminal, width: width, color: color, height: height)
    }

    /// An environment variable's value as a positive number.
    private static func positive(_ name: String) -> Int? {
        guard let text = POSIX.environment(name), let value = Int(text), value > 0 else {
            return nil
        }
        return value
    }
}

/// ANSI styles, applied only when color is on.
struct Style {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "1;31") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    /// `text` in the SGR color `code` (a board's color in a chart).
    func paint(_ text: String, _ code: String) -> String { wrap(text, code) }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
