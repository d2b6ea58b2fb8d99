import KanbanCore
import Testing

@testable import kanban

// The parser finds commands and options through lookups made once from the command table
// (README: Performance): each must answer as a scan of the table does, for every name.
@Suite struct ParserLookupTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case everyCommandNameAndAliasFindsWhatAScanFinds
        case wordsThatNameNoCommandFindNone
        case everyShortLetterFindsWhatAScanFinds
        case anOptionIsTheSameWhereverItIsDeclared
        case everyCommandAcceptsTheOptionsItDeclaresAndNoOthers
        case everyCommandsOperandCountIsItsUsages
        case splittingBytesGivesTheWordsOfAScalarSplitter
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .everyCommandNameAndAliasFindsWhatAScanFinds: everyCommandNameAndAliasFindsWhatAScanFinds()
        case .wordsThatNameNoCommandFindNone: wordsThatNameNoCommandFindNone()
        case .everyShortLetterFindsWhatAScanFinds: everyShortLetterFindsWhatAScanFinds()
        case .anOptionIsTheSameWhereverItIsDeclared: anOptionIsTheSameWhereverItIsDeclared()
        case .everyCommandAcceptsTheOptionsItDeclaresAndNoOthers: everyCommandAcceptsTheOptionsItDeclaresAndNoOthers()
        case .everyCommandsOperandCountIsItsUsages: everyCommandsOperandCountIsItsUsages()
        case .splittingBytesGivesTheWordsOfAScalarSplitter: try splittingBytesGivesTheWordsOfAScalarSplitter()
        }
    }

    /// The command a name or alias meant before the lookup: the first in the list.
    private func scannedCommand(_ name: String) -> CommandSpec? {
        Commands.all.first { $0.name == name || $0.aliases.contains(name) }
    }

    func everyCommandNameAndAliasFindsWhatAScanFinds() {
        var names = 0
        for spec in Commands.all {
            for name in [spec.name] + spec.aliases {
                names += 1
                expectEqual(Commands.named(name)?.name, scannedCommand(name)?.name, "\(name)")
                expectTrue(Commands.named(name) != nil, "\(name) finds no command")
            }
        }
        expectTrue(names > Commands.all.count, "aliases were looked up too")
    }

    func wordsThatNameNoCommandFindNone() {
        let words = Commands.groups + Commands.groups.flatMap(Commands.subcommands(of:)) + [
            "", " ", "mov", "Move", "move ", " move", "board  add", "boardadd", "--help", "-h", "list\u{301}", "ls\0",
        ]
        for word in words {
            expectEqual(Commands.named(word)?.name, scannedCommand(word)?.name, "\(word.debugDescription)")
        }
    }

    func everyShortLetterFindsWhatAScanFinds() {
        let shorts = Options.all.values.compactMap(\.short)
        expectEqual(Set(shorts).count, shorts.count, "a letter names one option")
        let letters: [Character] = shorts + Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-=é")
        for letter in letters {
            expectEqual(
                Options.long(for: letter), Options.all.values.first { $0.short == letter }, "-\(letter)")
        }
    }

    /// Commands accept options by their long names: that is a test of the whole option only
    /// because every declaration of a name is the same option.
    func anOptionIsTheSameWhereverItIsDeclared() {
        for option in Options.global + Commands.all.flatMap(\.options) {
            expectEqual(Options.all[option.spec.name], option.spec, "\(option.spec.name)")
        }
    }

    func everyCommandAcceptsTheOptionsItDeclaresAndNoOthers() {
        for spec in Commands.all {
            for option in Options.all.values {
                let declared =
                    Options.global.contains { $0.spec == option } || spec.options.contains { $0.spec == option }
                expectEqual(spec.accepts(option), declared, "\(spec.name) \(option.name)")
            }
        }
    }

    func everyCommandsOperandCountIsItsUsages() {
        for spec in Commands.all {
            let (lower, upper) = Usage.operandCount(spec.usage)
            expectTrue(spec.operandCount == (lower, upper), "\(spec.name): \(spec.operandCount) for \(lower), \(upper as Int?)")
        }
    }

    /// Random lines of quotes, backslashes, blanks, `#` and scalars of 1 to 4 bytes (a
    /// combining mark after a quote included) split as a splitter of Unicode scalars
    /// splits them, words and problems alike.
    func splittingBytesGivesTheWordsOfAScalarSplitter() throws {
        var random = TestRandom(20_261_127, "splittingBytesGivesTheWordsOfAScalarSplitter")
        let alphabet = Array("ab '\"\\\t#$ é漢🙂\u{301}\u{200D}\r")
        for _ in 0..<5_000 {
            let line = String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let expected: Result<[String], ShellWords.Problem>
            do { expected = .success(try Self.scalarWords(line[...])) } catch { expected = .failure(error) }
            let actual: Result<[String], ShellWords.Problem>
            do { actual = .success(try ShellWords.split(line[...])) } catch { actual = .failure(error) }
            expectTrue(actual == expected, "seed \(random.seed): \(line.debugDescription): \(actual) for \(expected)")
        }
    }

    /// The splitter as it was, scalar by scalar: the model the bytes must follow.
    private static func scalarWords(_ line: Substring) throws(ShellWords.Problem) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var inWord = false
        var characters = line.unicodeScalars.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t":
                if inWord {
                    words.append(String(word))
                    word = String.UnicodeScalarView()
                    inWord = false
                }
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                while true {
                    guard let next = characters.next() else {
                        throw ShellWords.Problem(message: "a single quote is not closed")
                    }
                    if next == "'" { break }
                    word.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = characters.next() else {
                        throw ShellWords.Problem(message: "a double quote is not closed")
                    }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = characters.next() else {
                            throw ShellWords.Problem(message: "a double quote is not closed")
                        }
                        if escaped != "\"" && escaped != "\\" { word.append("\\" as Unicode.Scalar) }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                guard let escaped = characters.next() else {
                    throw ShellWords.Problem(message: "a backslash ends the line; a command is one line")
                }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(String(word)) }
        return words
    }
}
