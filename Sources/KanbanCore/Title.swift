/// A title typed by a user, trimmed and checked: non-empty, one line, no control characters.
///
/// Every new item and board title goes through this type, so the core never stores a
/// title a user typed that could break a line or drive a terminal.
public struct Title: Hashable, Sendable, CustomStringConvertible {
    /// The trimmed text.
    public let text: String

    /// Trims surrounding whitespace from `raw` and checks what is left.
    ///
    /// - Throws: ``KanbanError/invalidTitle(title:reason:)`` when nothing is left or a
    ///   control character (C0 other than tab, DEL, C1) remains.
    public init(_ raw: String) throws(KanbanError) {
        // Most titles are printable ASCII with nothing to trim: no Unicode look needed.
        let utf8 = raw.utf8
        if let first = utf8.first, let last = utf8.last, first != 0x20, last != 0x20,
            utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        {
            text = raw
            return
        }
        let trimmed = raw.trimmingSurroundingWhitespace()
        guard !trimmed.isEmpty else {
            throw .invalidTitle(title: raw, reason: .empty)
        }
        for (offset, scalar) in trimmed.unicodeScalars.enumerated() where scalar.isForbiddenInTitle {
            let leading = raw.unicodeScalars.prefix(while: \.properties.isWhitespace).count
            throw .invalidTitle(title: raw, reason: .controlCharacter(scalar, offset: leading + offset))
        }
        text = trimmed
    }

    public var description: String { text }
}

extension Unicode.Scalar {
    /// C0 controls except tab, DEL, and C1 controls.
    var isForbiddenInTitle: Bool {
        switch value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

extension String {
    /// Whether the string is empty or only white space: a title must not be.
    var isBlank: Bool {
        // Most titles start with a visible ASCII character; only the others need a Unicode look.
        if let first = utf8.first, first > 0x20 && first < 0x7F { return false }
        return unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// The string without leading and trailing whitespace (Unicode `White_Space`).
    func trimmingSurroundingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
