import Testing

@testable import kanban

@Suite struct DisplayWidths {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case aStringIsTheSumOfItsCharacters
        case theWideTableIsSortedAndDisjoint
        case emojiPresentationIsWide
        case charactersMeasureLikeTheirText
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) {
        switch check {
        case .aStringIsTheSumOfItsCharacters: aStringIsTheSumOfItsCharacters()
        case .theWideTableIsSortedAndDisjoint: theWideTableIsSortedAndDisjoint()
        case .emojiPresentationIsWide: emojiPresentationIsWide()
        case .charactersMeasureLikeTheirText: charactersMeasureLikeTheirText()
        }
    }

    /// Text, and the columns a terminal that follows Unicode's emoji and East Asian Width
    /// rules draws it in (kitty, WezTerm, iTerm2, Ghostty, foot, Windows Terminal).
    static let cases: [(String, Int, String)] = [
        ("", 0, "nothing"),
        ("abc", 3, "ASCII"),
        ("a b\u{7F}", 3, "DEL takes nothing"),
        ("\u{1B}\u{9B}\t", 0, "C0 and C1 controls take nothing"),
        ("café", 4, "precomposed é"),
        ("cafe\u{301}", 4, "e and a combining acute"),
        ("e\u{301}\u{302}\u{323}", 1, "several combining marks"),
        ("\u{301}", 0, "a lone combining mark"),
        ("Ωмα×·①", 6, "Greek, Cyrillic and East Asian Ambiguous take one"),
        ("漢字", 4, "Han"),
        ("ひらがなカタカナ", 16, "kana"),
        ("ｶﾀｶﾅ", 4, "halfwidth katakana"),
        ("ＡＢ！", 6, "fullwidth forms"),
        ("\u{3000}", 2, "ideographic space"),
        ("한국어", 6, "hangul syllables"),
        ("\u{1100}\u{1161}\u{11A8}", 2, "a syllable of conjoining jamo"),
        ("か\u{3099}", 2, "kana and a combining voicing mark (Wide, but a mark)"),
        ("𠀋𪚲", 4, "plane 2 ideographs"),
        ("\u{4DC0}", 2, "Yijing hexagram, Wide since Unicode 16"),
        ("👍", 2, "emoji presentation"),
        ("🚀✅⌚", 6, "emoji presentation in the BMP too"),
        ("👍🏽", 2, "a skin tone joins its base"),
        ("☝🏽", 2, "a text-default modifier base with a skin tone"),
        ("🏽", 2, "a lone skin tone"),
        ("🧑‍💻", 2, "ZWJ sequence"),
        ("👨‍👩‍👧‍👦", 2, "family ZWJ sequence"),
        ("🧑🏽‍💻", 2, "ZWJ sequence with a skin tone"),
        ("🏳️‍🌈", 2, "rainbow flag: VS16 and ZWJ"),
        ("❤️‍🔥", 2, "heart on fire"),
        ("🇫🇷", 2, "regional indicator pair"),
        ("🇫🇷🇯🇵", 4, "two flags"),
        ("🇫", 1, "a lone regional indicator"),
        ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", 2, "subdivision flag (tag sequence)"),
        ("❤", 1, "text-default emoji"),
        ("❤️", 2, "VS16 makes it an emoji"),
        ("☺︎", 1, "VS15 keeps it text"),
        ("⌚︎", 2, "VS15 does not narrow a Wide character"),
        ("1️⃣#️⃣", 4, "keycaps"),
        ("1\u{20E3}", 1, "a keycap without VS16 stays text"),
        ("a\u{FE0F}", 1, "VS16 after a non-emoji adds nothing"),
        ("a\u{200B}b", 2, "zero-width space"),
        ("a\u{200C}\u{200D}b", 2, "zero-width non-joiner and joiner between letters"),
        ("\u{FEFF}x\u{2060}", 1, "byte order mark and word joiner"),
        ("\u{202E}x\u{2066}", 1, "bidirectional controls"),
        ("co\u{AD}op", 5, "a soft hyphen shows"),
        ("हिंदी", 4, "Devanagari: spacing vowel signs take a column, the anusvara none"),
        ("नमस्ते", 4, "Devanagari: the virama and a vowel mark take none"),
        ("ไทย", 3, "Thai"),
        ("שָׁלוֹם", 4, "Hebrew points take nothing"),
        ("\u{E000}", 1, "private use"),
        ("\u{1FAFA}", 2, "a reserved Extended_Pictographic code point: a future emoji"),
        ("\u{0378}", 1, "a reserved code point elsewhere"),
        ("\u{2FFFD}\u{9FFF}", 4, "unassigned in the ideograph blocks is Wide"),
    ]

    @Test(arguments: cases)
    func textTakesTheColumnsATerminalDraws(_ text: String, _ width: Int, _ what: String) {
        expectEqual(DisplayWidth.of(text), width, "\(what): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    func aStringIsTheSumOfItsCharacters() {
        for (text, _, _) in Self.cases {
            expectEqual(DisplayWidth.of(text), text.reduce(0) { $0 + DisplayWidth.of($1) })
        }
        let mixed = Self.cases.map(\.0).joined(separator: " ")
        expectEqual(DisplayWidth.of(mixed), Self.cases.reduce(Self.cases.count - 1) { $0 + $1.1 })
    }

    func theWideTableIsSortedAndDisjoint() {
        for (a, b) in zip(DisplayWidth.wide, DisplayWidth.wide.dropFirst()) {
            expectTrue(a.upperBound + 1 < b.lowerBound, "\(a) and \(b) overlap or touch")
        }
    }

    /// The table, written from EastAsianWidth.txt, checked against the standard library's
    /// Unicode properties: every emoji that defaults to emoji presentation is Wide (UAX #11
    /// says so since Unicode 9), regional indicators apart, and every scalar has a width.
    func emojiPresentationIsWide() {
        var checked = 0
        // Planes 0 to 3 hold every emoji and every wide character.
        for value in UInt32(0)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let width = DisplayWidth.of(scalar)
            expectTrue((0...2).contains(width))
            let properties = scalar.properties
            if properties.isEmojiPresentation && !(0x1F1E6...0x1F1FF).contains(value) {
                expectEqual(width, 2, "U+\(String(value, radix: 16, uppercase: true)) is Emoji_Presentation")
                checked += 1
            }
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark:
                expectEqual(width, 0, "U+\(String(value, radix: 16, uppercase: true)) is a combining mark")
            default: break
            }
        }
        expectTrue(checked > 1_000)
    }

    func charactersMeasureLikeTheirText() {
        expectEqual(DisplayWidth.of("👍🏽" as Character), 2)
        expectEqual(DisplayWidth.of("🧑‍💻" as Character), 2)
        expectEqual(DisplayWidth.of("e\u{301}" as Character), 1)
        expectEqual(DisplayWidth.of("\u{200B}" as Character), 0)
        // Only a ZWJ with something after it, which grapheme breaking allows only between
        // pictographs, makes an emoji sequence.
        expectEqual(DisplayWidth.of("1\u{200D}" as Character), 1)
        expectEqual(DisplayWidth.of("1\u{200D}2"), 2)
    }
}
