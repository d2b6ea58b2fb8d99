/// A piece of card text that wraps as a whole: a word of a title, a `#label`, `due 11-23`.
struct Word: Equatable {
    enum Kind: Equatable {
        case title, label, due, overdue
    }

    let text: String
    /// The columns `text` takes.
    var width: Int
    var kind = Kind.title
    /// Whether a space separates it from the word before it on a line: not between two
    /// ideographs of one run of CJK text.
    var spaced = true
    /// Whether it is all printable ASCII, a column a character: a line cuts it by counting.
    let isPrintableASCII: Bool

    init(_ text: String, kind: Kind = .title, spaced: Bool = true) {
        self.init(text, width: DisplayWidth.of(text), kind: kind, spaced: spaced)
    }

    init(_ text: String, width: Int, kind: Kind = .title, spaced: Bool = true) {
        self.text = text
        self.width = width
        self.kind = kind
        self.spaced = spaced
        isPrintableASCII = text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }
}

/// Words laid out on one line, and the columns they take.
struct Line: Equatable {
    var words: [Word] = []
    var width = 0

    /// The columns `word` adds to the line, its space included.
    func cost(of word: Word) -> Int {
        (words.isEmpty || !word.spaced ? 0 : 1) + word.width
    }

    mutating func append(_ word: Word) {
        width += cost(of: word)
        words.append(word)
    }

    /// The line as text: labels, due dates and the overdue ones styled when color is on.
    func text(style: Style) -> String {
        var out = ""
        for (w, word) in words.enumerated() {
            if w > 0 && word.spaced { out += " " }
            switch word.kind {
            case .title: out += word.text
            case .label: out += style.cyan(word.text)
            case .due: out += style.dim(word.text)
            case .overdue: out += style.red(word.text)
            }
        }
        return out
    }

    /// The line as plain text.
    var plain: String { text(style: Style(enabled: false)) }
}

/// Breaks card text into lines: at spaces, and between ideographs as CJK text breaks; a
/// word is cut only where it is wider than a whole line. One pass over the words.
enum Wrapping {
    /// The words of `card`: its title's, then its ``details(of:)``.
    static func words(of card: CardText) -> [Word] {
        words(of: card.title) + details(of: card)
    }

    /// What a card shows after its title: its signed words (`#label` for each label), then
    /// `due MM-DD`.
    static func details(of card: CardText) -> [Word] {
        var words = card.words.map { Word($0, kind: .label) }
        if let due = card.due { words.append(Word("due " + due, kind: card.overdue ? .overdue : .due)) }
        return words
    }

    /// The words of `text`, split at spaces and where lines may break inside CJK text.
    static func words(of text: String, kind: Word.Kind = .title) -> [Word] {
        var words: [Word] = []
        for chunk in text.split(separator: " ", omittingEmptySubsequences: true) {
            for (p, piece) in pieces(of: chunk).enumerated() {
                words.append(Word(String(piece), kind: kind, spaced: p == 0))
            }
        }
        return words
    }

    /// Lines of at most `width` columns (`firstWidth` for the first one), as many as it takes.
    /// A word that does not fit on the current line goes to the next; one wider than a
    /// whole line is cut between characters, starting on a line of its own.
    static func wrap(_ words: [Word], width: Int, firstWidth: Int? = nil) -> [Line] {
        var lines: [Line] = []
        var line = Line()
        var limit = max(1, firstWidth ?? width)
        func endLine() {
            lines.append(line)
            line = Line()
            limit = max(1, width)
        }
        for word in words {
            if line.width + line.cost(of: word) <= limit {
                line.append(word)
                continue
            }
            if !line.words.isEmpty { endLine() }
            guard word.width > limit else {
                line.append(word)
                continue
            }
            // Cut into lines; what is left of the word is a slice of it until the last line,
            // so a word of a megabyte is not copied once per line.
            var rest = Substring(word.text)
            var restWidth = word.width
            while restWidth > limit {
                let (head, headWidth) = prefix(of: rest, width: limit, atLeastOne: true)
                line.append(Word(String(head), width: headWidth, kind: word.kind))
                rest = rest[head.endIndex...]
                restWidth -= headWidth
                endLine()
            }
            if !rest.isEmpty { line.append(Word(String(rest), width: restWidth, kind: word.kind)) }
        }
        if !line.words.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// How many lines ``wrap(_:width:firstWidth:)`` makes, without making them: column
    /// layout asks this for many widths.
    static func lineCount(_ words: [Word], width: Int) -> Int {
        let limit = max(1, width)
        var lines = 0
        var used = 0
        var started = false  // whether the current line has a word, maybe of no width
        for word in words {
            let cost = (!started || !word.spaced ? 0 : 1) + word.width
            if used + cost <= limit {
                used += cost
                started = true
                continue
            }
            if started { lines += 1 }
            used = word.width
            started = true
            if used > limit, word.isPrintableASCII {
                // One column a character: every cut line is full.
                let cuts = (used - 1) / limit
                lines += cuts
                used -= cuts * limit
            } else if used > limit {
                // Cut as `wrap` cuts: full lines of characters, then what is left.
                var rest = Substring(word.text)
                while used > limit {
                    let (head, headWidth) = prefix(of: rest, width: limit, atLeastOne: true)
                    lines += 1
                    rest = rest[head.endIndex...]
                    used -= headWidth
                }
                started = !rest.isEmpty
            }
        }
        return lines + (started || lines == 0 ? 1 : 0)
    }

    /// The words on one line of at most `width` columns, ending in `…` where they go on.
    static func truncate(_ words: [Word], to width: Int) -> Line {
        var whole = Line()
        for word in words { whole.append(word) }
        guard whole.width > width else { return whole }
        var line = Line()
        guard width > 0 else { return line }
        let budget = width - 1
        for word in words {
            let cost = line.cost(of: word)
            if line.width + cost <= budget {
                line.append(word)
                continue
            }
            let room = budget - line.width - (cost - word.width)
            if room > 0 {
                let (head, headWidth) = prefix(of: word.text, width: room, atLeastOne: false)
                if !head.isEmpty {
                    line.append(Word(String(head), width: headWidth, kind: word.kind, spaced: word.spaced))
                }
            }
            line.append(Word("…", width: 1, kind: word.kind, spaced: false))
            break
        }
        return line
    }

    /// The longest prefix of `text` within `width` columns; with `atLeastOne`, at least
    /// one character even if it is wider.
    static func prefix(of text: some StringProtocol, width: Int, atLeastOne: Bool) -> (Substring, Int) {
        // Printable ASCII takes a column a character: counted in bytes, when the byte after
        // the prefix is ASCII too (no combining mark joins the prefix's last character).
        let utf8 = text.utf8
        var asciiEnd = utf8.startIndex
        var count = 0
        while count < width, asciiEnd != utf8.endIndex, (0x20...0x7E).contains(utf8[asciiEnd]) {
            utf8.formIndex(after: &asciiEnd)
            count += 1
        }
        if count > 0 || width == 0 && !atLeastOne, asciiEnd == utf8.endIndex || utf8[asciiEnd] < 0x80,
            count == width || asciiEnd == utf8.endIndex
        {
            return (Substring(text[..<asciiEnd]), count)
        }
        var used = 0
        var end = text.startIndex
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width && !(atLeastOne && end == text.startIndex) { break }
            used += w
            end = text.index(after: end)
        }
        return (Substring(text[..<end]), used)
    }

    // MARK: - Breaks inside CJK text

    /// `chunk` (no spaces) split where a line may break inside it: after a hyphen or a
    /// slash between letters (`words-joined-by-dashes`, `a/path`), and before and after each
    /// ideograph or kana, except before closing punctuation and after opening punctuation,
    /// which stay with their neighbours. Hangul is written with spaces and breaks at them.
    static func pieces(of chunk: Substring) -> [Substring] {
        // Nothing below U+0800 is CJK.
        guard chunk.utf8.contains(where: { $0 >= 0xE0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "/") }) else {
            return [chunk]
        }
        var pieces: [Substring] = []
        var start = chunk.startIndex
        var previous: Character?
        var beforePrevious: Character?
        for index in chunk.indices {
            let character = chunk[index]
            if let before = previous, breaks(between: before, and: character, after: beforePrevious) {
                pieces.append(chunk[start..<index])
                start = index
            }
            beforePrevious = previous
            previous = character
        }
        pieces.append(chunk[start...])
        return pieces
    }

    /// Whether a line may break between `before` and `after`, `earlier` being the character before `before`.
    private static func breaks(between before: Character, and after: Character, after earlier: Character?) -> Bool {
        if before == "-" || before == "/" {
            return earlier?.isLetter == true && after.isLetter
        }
        return (isIdeographic(before) || isIdeographic(after)) && !closing.contains(after) && !opening.contains(before)
    }

    private static func isIdeographic(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x2E80...0x2FFF, 0x3005...0x3007, 0x3021...0x3029, 0x3041...0x30FF, 0x31F0...0x31FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9D, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Characters that do not start a line.
    private static let closing = Set("、。，．・：；？！）」』】〕〉》〗〙〛〜ー゛゜ゝゞヽヾ々〻！），．：；？］｝｡｣､･ｰ)]},.:;!?%")
    /// Characters that do not end a line.
    private static let opening = Set("（「『【〔〈《〖〘〚［｛｢([{")
}
