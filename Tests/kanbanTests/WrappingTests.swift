import Testing

@testable import kanban

private func wrap(_ text: String, _ width: Int) -> [String] {
    Wrapping.wrap(Wrapping.words(of: text), width: width).map(\.plain)
}

@Suite struct WrappingTitles {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case linesBreakAtSpacesAndFillGreedily
        case aWordIsCutOnlyWhenWiderThanTheLine
        case hyphensAndSlashesBetweenLettersAreBreaks
        case cjkTextBreaksBetweenCharactersKeepingPunctuation
        case emojiKeepTheirWidth
        case labelsAndTheDueDateWrapLikeWords
        case colorOnlyStylesLabelsAndDatesWhenEnabled
        case theFirstLineMayBeShorter
        case truncateCutsOneLineWithAnEllipsis
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .linesBreakAtSpacesAndFillGreedily: linesBreakAtSpacesAndFillGreedily()
        case .aWordIsCutOnlyWhenWiderThanTheLine: aWordIsCutOnlyWhenWiderThanTheLine()
        case .hyphensAndSlashesBetweenLettersAreBreaks: hyphensAndSlashesBetweenLettersAreBreaks()
        case .cjkTextBreaksBetweenCharactersKeepingPunctuation: cjkTextBreaksBetweenCharactersKeepingPunctuation()
        case .emojiKeepTheirWidth: emojiKeepTheirWidth()
        case .labelsAndTheDueDateWrapLikeWords: labelsAndTheDueDateWrapLikeWords()
        case .colorOnlyStylesLabelsAndDatesWhenEnabled: colorOnlyStylesLabelsAndDatesWhenEnabled()
        case .theFirstLineMayBeShorter: theFirstLineMayBeShorter()
        case .truncateCutsOneLineWithAnEllipsis: truncateCutsOneLineWithAnEllipsis()
        }
    }

    func linesBreakAtSpacesAndFillGreedily() {
        expectEqual(wrap("one two three", 7), ["one two", "three"])
        expectEqual(wrap("one two three", 13), ["one two three"])
        expectEqual(wrap("  spaced   out  ", 20), ["spaced out"])
        expectEqual(wrap("", 4), [""])
    }

    func aWordIsCutOnlyWhenWiderThanTheLine() {
        expectEqual(wrap("see supercalifragilistic", 10), ["see", "supercalif", "ragilistic"])
        expectEqual(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"])
        // Fits on a line of its own: moves there whole rather than being split.
        expectEqual(wrap("a reliability", 11), ["a", "reliability"])
        expectEqual(wrap("CONTRIBUTING guide", 12), ["CONTRIBUTING", "guide"])
    }

    func hyphensAndSlashesBetweenLettersAreBreaks() {
        expectEqual(wrap("words-joined-by-dashes", 12), ["words-", "joined-by-", "dashes"])
        expectEqual(wrap("see src/kanban/Output", 12), ["see src/", "kanban/", "Output"])
        expectEqual(wrap("-flag --option 1-2", 8), ["-flag", "--option", "1-2"])
    }

    func cjkTextBreaksBetweenCharactersKeepingPunctuation() {
        expectEqual(wrap("修复登录页面的显示问题。", 10), ["修复登录页", "面的显示问", "题。"])
        expectEqual(wrap("「引用」です", 4), ["「引", "用」", "です"])
        expectEqual(wrap("国際化対応のためのメッセージ", 12), ["国際化対応の", "ためのメッ", "セージ"])
        expectEqual(wrap("修复bug的问题", 7), ["修复bug", "的问题"])
        // Korean is written with spaces and breaks at them.
        expectEqual(wrap("한국어 제목도 잘 줄바꿈", 13), ["한국어 제목도", "잘 줄바꿈"])
        expectEqual(wrap("漢字漢字", 3), ["漢", "字", "漢", "字"])
    }

    func emojiKeepTheirWidth() {
        expectEqual(wrap("pair 🧑‍💻 with 👍🏽 and 🇫🇷", 9), ["pair 🧑‍💻", "with 👍🏽", "and 🇫🇷"])
        let lines = Wrapping.wrap(Wrapping.words(of: "pair 🧑‍💻 with 👍🏽 and 🇫🇷"), width: 9)
        expectEqual(lines.map(\.width), [7, 7, 6])
    }

    func labelsAndTheDueDateWrapLikeWords() {
        let card = CardText(index: 0, id: "k3f9p2", title: "Fix login", words: ["#bug", "#@alice"], due: "11-23")
        let words = Wrapping.words(of: card)
        expectEqual(words.map(\.text), ["Fix", "login", "#bug", "#@alice", "due 11-23"])
        expectEqual(words.map(\.kind), [.title, .title, .label, .label, .due])
        let lines = Wrapping.wrap(words, width: 16).map(\.plain)
        expectEqual(lines, ["Fix login #bug", "#@alice", "due 11-23"])
        var overdue = card
        overdue.overdue = true
        expectEqual(Wrapping.words(of: overdue).last?.kind, .overdue)
    }

    func colorOnlyStylesLabelsAndDatesWhenEnabled() {
        let card = CardText(index: 0, id: "a", title: "Ship", words: ["#p1"], due: "01-02", overdue: true)
        let line = Wrapping.truncate(Wrapping.words(of: card), to: 80)
        expectEqual(line.text(style: Style(enabled: false)), "Ship #p1 due 01-02")
        let colored = line.text(style: Style(enabled: true))
        expectTrue(colored.contains("\u{1B}[36m#p1\u{1B}[0m"))
        expectTrue(colored.contains("\u{1B}[1;31mdue 01-02\u{1B}[0m"))
        expectTrue(colored.hasPrefix("Ship "))
    }

    func theFirstLineMayBeShorter() {
        let lines = Wrapping.wrap(Wrapping.words(of: "one two three four five"), width: 14, firstWidth: 7)
        expectEqual(lines.map(\.plain), ["one two", "three four", "five"])
    }

    func truncateCutsOneLineWithAnEllipsis() {
        func cut(_ text: String, _ width: Int) -> String {
            Wrapping.truncate(Wrapping.words(of: text), to: width).plain
        }
        expectEqual(cut("ab cd ef", 8), "ab cd ef")
        expectEqual(cut("ab cd ef", 7), "ab cd…")
        expectEqual(cut("ab cd ef", 5), "ab c…")
        expectEqual(cut("ab cd ef", 3), "ab…")
        expectEqual(cut("ab cd ef", 1), "…")
        expectEqual(cut("ab cd ef", 0), "")
        expectEqual(cut("漢字漢字", 4), "漢…")
        expectEqual(DisplayWidth.of(cut("漢字漢字", 4)), 3)
        expectEqual(BoardView.truncate("In Progress", to: 5), "In P…")
    }
}

@Suite struct WrappingProperties {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everyLineFitsNothingIsLostAndLinesAreFull
        case aPrefixIsWhatCountingCharacterByCharacterGives
        case truncateFitsAndKeepsAPrefix
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .everyLineFitsNothingIsLostAndLinesAreFull: everyLineFitsNothingIsLostAndLinesAreFull()
        case .aPrefixIsWhatCountingCharacterByCharacterGives: aPrefixIsWhatCountingCharacterByCharacterGives()
        case .truncateFitsAndKeepsAPrefix: truncateFitsAndKeepsAPrefix()
        }
    }

    static let vocabulary = [
        "a", "to", "the", "board", "reliability", "CONTRIBUTING", "supercalifragilisticexpialidocious",
        "words-joined", "src/kanban", "漢字", "修复登录页面", "「引用」", "。", "한국어", "🧑‍💻", "👍🏽", "🇫🇷", "é",
        "e\u{301}", "\u{200B}", "x",
    ]

    /// 100 titles from a fixed pseudo-random sequence, each wrapped at every width from 1 to 30.
    func everyLineFitsNothingIsLostAndLinesAreFull() {
        var random = SplitMix(seed: 8)
        for _ in 0..<100 {
            let count = Int(random.next() % 12) + 1
            let title = (0..<count).map { _ in Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }
                .joined(separator: " ")
            let words = Wrapping.words(of: title)
            for width in 1...30 {
                let lines = Wrapping.wrap(words, width: width)
                expectEqual(Wrapping.lineCount(words, width: width), lines.count, "\(title) at \(width)")
                for line in lines {
                    expectEqual(line.width, DisplayWidth.of(line.plain))
                    // Only a single character wider than the whole line may overflow it.
                    expectTrue(line.width <= width || line.plain.count == 1, "\(title) at \(width): \(line.plain)")
                }
                // The text is all there, in order.
                let text = lines.flatMap(\.words).map(\.text).joined()
                expectEqual(text, title.split(separator: " ").joined(), "\(title) at \(width)")
                // Greedy: the first word of each line did not fit at the end of the line before
                // (a word cut because it is wider than a line starts a line of its own).
                for (above, below) in zip(lines, lines.dropFirst()) {
                    guard let first = below.words.first, words.contains(first), !above.words.isEmpty else { continue }
                    expectTrue(above.width + above.cost(of: first) > width, "\(title) at \(width)")
                }
                // A word that fits on a line is never cut.
                for word in words where word.width <= width {
                    expectTrue(lines.contains { $0.words.contains(word) }, "\(word.text) was cut at \(width)")
                }
            }
        }
    }

    /// A line's prefix counts printable ASCII by bytes: the same prefix as character by
    /// character, even where a combining mark follows an ASCII letter.
    func aPrefixIsWhatCountingCharacterByCharacterGives() {
        func reference(_ text: String, _ width: Int, _ atLeastOne: Bool) -> (String, Int) {
            var (kept, used) = ("", 0)
            for character in text {
                let w = DisplayWidth.of(character)
                if used + w > width && !(atLeastOne && kept.isEmpty) { break }
                kept.append(character)
                used += w
            }
            return (kept, used)
        }
        var random = SplitMix(seed: 5)
        var asciiPrefixes = 0
        for _ in 0..<300 {
            let count = Int(random.next() % 6) + 1
            let text = (0..<count).map { _ in Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }
                .joined()
            for width in 0...24 {
                for atLeastOne in [false, true] {
                    let (head, used) = Wrapping.prefix(of: text, width: width, atLeastOne: atLeastOne)
                    let expected = reference(text, width, atLeastOne)
                    expectTrue(String(head) == expected.0 && used == expected.1, "\(text) at \(width)")
                    if !head.isEmpty && head.utf8.allSatisfy({ $0 < 0x80 }) { asciiPrefixes += 1 }
                }
            }
        }
        expectTrue(asciiPrefixes > 1_000, "the ASCII prefixes were exercised: \(asciiPrefixes)")
    }

    func truncateFitsAndKeepsAPrefix() {
        var random = SplitMix(seed: 3)
        for _ in 0..<100 {
            let count = Int(random.next() % 8) + 1
            let title = (0..<count).map { _ in Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }
                .joined(separator: " ")
            let words = Wrapping.words(of: title)
            let whole = Wrapping.truncate(words, to: .max)
            for width in 0...40 {
                let line = Wrapping.truncate(words, to: width)
                expectTrue(line.width <= width)
                expectEqual(line.width, DisplayWidth.of(line.plain))
                if whole.width <= width {
                    expectEqual(line, whole)
                } else {
                    expectTrue(line.plain.hasSuffix("…") || width == 0)
                    expectTrue(whole.plain.hasPrefix(String(line.plain.dropLast())))
                }
            }
        }
    }
}

/// A small deterministic random number generator, so that a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
