/// Terminal column widths of text, for laying out columns.
///
/// Text is measured per grapheme cluster (a `Character`), as a terminal draws it:
/// - An emoji sequence takes 2 columns, whatever its parts: an emoji with the
///   presentation selector VS16 (`❤️`, the keycap `1️⃣`), a modifier base with a skin
///   tone (`👍🏽`, `☝🏽`), a ZWJ sequence (`🧑‍💻`, `👨‍👩‍👧‍👦`). Grapheme breaking, which is the
///   standard library's, only joins characters across a ZWJ in an emoji sequence.
/// - Any other cluster takes the sum of its scalars' widths, as terminals that count
///   code points draw it: 2 for East Asian Wide and Fullwidth characters (which include
///   every emoji that defaults to emoji presentation), 0 for combining marks, format
///   characters (zero-width space and joiners, the byte order mark, bidirectional
///   controls), controls and the hangul vowel and final jamo that join a syllable,
///   1 for everything else, East Asian Ambiguous included (as outside a legacy CJK
///   locale). So a flag, two regional indicators, takes 2, a lone one 1; VS15 (text
///   presentation) adds nothing and leaves a character its own width.
enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    static func of(_ text: some StringProtocol) -> Int {
        var ascii = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if byte >= 0x20 && byte != 0x7F { ascii += 1 }
        }
        return ascii
    }

    /// The columns one grapheme cluster takes on a terminal: 0, 1 or 2.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return of(first) }
        if isEmojiSequence(first, second, scalars) { return 2 }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on its own: 0, 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }  // DEL and C1 controls
        if value == 0xAD { return 1 }  // the soft hyphen is a format character that terminals draw
        // Hangul vowel and final jamo join the leading consonant's two columns.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0  // even the Wide combining kana voicing marks, U+3099 and U+309A
        case .unassigned:
            // Reserved Extended_Pictographic code points are future emoji, wide as all recent ones.
            let pictographic = (0x1F000...0x1FAFF).contains(value) || (0x1FC00...0x1FFFD).contains(value)
            return isWide(value) || pictographic ? 2 : 1
        default:
            return isWide(value) ? 2 : 1
        }
    }

    /// Whether a cluster that starts with `first`, `second` is an emoji sequence a terminal
    /// draws as one wide picture.
    private static func isEmojiSequence(
        _ first: Unicode.Scalar, _ second: Unicode.Scalar, _ scalars: Character.UnicodeScalarView
    ) -> Bool {
        let properties = first.properties
        guard properties.isEmoji else { return false }
        if second.value == 0xFE0F { return true }  // VS16: emoji presentation
        if second.properties.isEmojiModifier && properties.isEmojiModifierBase { return true }
        // A ZWJ followed by anything: the standard library joins across a ZWJ only between
        // pictographs (`1` + ZWJ is a cluster, `1` + ZWJ + `2` is two).
        var sawJoiner = false
        for scalar in scalars.dropFirst() {
            if sawJoiner { return true }
            sawJoiner = scalar.value == 0x200D
        }
        return false
    }

    /// Whether `value` is East Asian Wide (W) or Fullwidth (F) in Unicode 17.0
    /// (EastAsianWidth-17.0.0.txt), with the unassigned code points that its `@missing`
    /// lines make Wide (the rest of the CJK ideograph blocks and planes 2 and 3). The
    /// standard library of Swift 6.3 knows Unicode 17.0 too, so its clusters, categories
    /// and emoji properties agree with this table; `DisplayWidthTests` checks that every
    /// emoji it says defaults to emoji presentation is in it.
    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wide.count
        while low < high {
            let middle = (low + high) / 2
            if value < wide[middle].lowerBound {
                high = middle
            } else if value > wide[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The Wide and Fullwidth runs, in order, written out from EastAsianWidth-17.0.0.txt.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul choseong (leading consonants)
        0x231A...0x231B,  // ⌚ ⌛
        0x2329...0x232A,  // angle brackets
        0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,  // ⏩…⏬ ⏰ ⏳
        0x25FD...0x25FE,  // ◽ ◾
        0x2614...0x2615,  // ☔ ☕
        0x2630...0x2637,  // trigrams (Wide since 16.0)
        0x2648...0x2653,  // zodiac ♈…♓
        0x267F...0x267F,  // ♿
        0x268A...0x268F,  // digrams (Wide since 16.0)
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD,  // ⚓ ⚡ ⚪ ⚽ ⛄ ⛎ ⛔ ⛪ ⛲ ⛵ ⛺ ⛽
        0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E,
        0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0, 0x27BF...0x27BF,  // ✅ ✊ ✨ ❌ ❓ ❗ ➕ ➰ ➿
        0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,  // ⬛ ⬜ ⭐ ⭕
        0x2E80...0x2E99, 0x2E9B...0x2EF3,  // CJK radicals supplement
        0x2F00...0x2FD5,  // Kangxi radicals
        0x2FF0...0x303E,  // ideographic description, CJK symbols and punctuation (ideographic space)
        0x3041...0x3096, 0x3099...0x30FF,  // hiragana, katakana
        // Bopomofo, hangul compatibility jamo, kanbun, CJK strokes, enclosed CJK letters
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E5, 0x31EF...0x321E, 0x3220...0x3247,
        // Enclosed CJK, CJK compatibility, extension A, Yijing hexagrams, unified ideographs, Yi syllables
        0x3250...0xA48C,
        0xA490...0xA4C6,  // Yi radicals
        0xA960...0xA97C,  // Hangul jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B,  // CJK compatibility forms, small form variants
        0xFF01...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x16FE0...0x16FE4, 0x16FF0...0x16FF6,  // ideographic symbols and punctuation
        0x17000...0x18CD5, 0x18CFF...0x18D1E, 0x18D80...0x18DF2,  // Tangut, Khitan small script
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE,  // kana extended B
        // Kana supplement, kana extended A, small kana extension
        0x1B000...0x1B122, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167,
        0x1B170...0x1B2FB,  // Nüshu
        0x1D300...0x1D356, 0x1D360...0x1D376,  // Tai Xuan Jing symbols, counting rods (Wide since 16.0)
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF,  // 🀄 🃏
        0x1F18E...0x1F18E, 0x1F191...0x1F19A,  // 🆎 🆑…🆚
        // Enclosed ideographic supplement
        0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
        // Emoji: miscellaneous symbols and pictographs, emoticons, transport and map symbols, …
        0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
        0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC,
        0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D8, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
        0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0,  // geometric shapes extended: 🟠…🟫 🟰
        // … supplemental symbols and pictographs, symbols and pictographs extended A
        0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FA7C, 0x1FA80...0x1FA8A,
        0x1FA8E...0x1FAC6, 0x1FAC8...0x1FAC8, 0x1FACD...0x1FADC, 0x1FADF...0x1FAEA, 0x1FAEF...0x1FAF8,
        0x20000...0x2FFFD,  // plane 2: CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD,  // plane 3: CJK extensions G and H
    ]
}
