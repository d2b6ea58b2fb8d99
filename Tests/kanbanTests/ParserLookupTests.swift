import Dispatch
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
        case aScriptsLinesAreNumberedAndCheckedAsTheySplit
        case optionsGivenAgainOrTogetherAreRefusedAsBefore
        case aCommandsDeclarationIsMadeWhenFirstAskedForAndOnce
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
        case .aScriptsLinesAreNumberedAndCheckedAsTheySplit: aScriptsLinesAreNumberedAndCheckedAsTheySplit()
        case .optionsGivenAgainOrTogetherAreRefusedAsBefore: try optionsGivenAgainOrTogetherAreRefusedAsBefore()
        case .aCommandsDeclarationIsMadeWhenFirstAskedForAndOnce: aCommandsDeclarationIsMadeWhenFirstAskedForAndOnce()
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
        let shorts = Options.all.compactMap(\.short)
        expectEqual(Set(shorts).count, shorts.count, "a letter names one option")
        let letters: [Character] = shorts + Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-=é")
        for letter in letters {
            expectEqual(
                Options.long(for: letter), Options.all.first { $0.short == letter }, "-\(letter)")
        }
    }

    /// Commands accept options, and builders find their values, by the option as an object:
    /// that is a test of the whole option only because every declaration of a name, and
    /// every option the builders ask for, is the one object the tokenizer finds.
    func anOptionIsTheSameWhereverItIsDeclared() {
        let asked =
            Options.words.flatMap { [$0.add, $0.remove] } + Options.dates.map(\.option) + Options.positions
        let declared = Options.global.map(\.spec) + Commands.all.flatMap(\.options).map(\.spec)
        for option in declared + asked {
            expectTrue(Options.named(option.name) === option, "\(option.name) is declared twice")
        }
        // The list the tokenizer scans holds every option a command declares, and no other,
        // each once: the names the table by name held.
        expectEqual(Set(Options.all.map(\.name)), Set(declared.map(\.name)))
        expectEqual(Set(Options.all.map(\.name)).count, Options.all.count, "an option is listed twice")
        for option in Options.all {
            expectTrue(Options.named(option.name) === option, "\(option.name) finds another option")
        }
        for word in ["", "-", "--", "--To", "--to ", "to", "-t", "--to=A", "--dry", "--dry-runs"] {
            expectTrue(Options.named(word) == nil, "\(word.debugDescription) names an option")
        }
        // The tokenizer takes an argument found whole among the names as that option.
        for name in Options.all.map(\.name) {
            expectTrue(name.hasPrefix("--") && name.count > 2 && !name.contains("="), "\(name)")
            expectTrue(name.utf8.allSatisfy { $0 < 0x80 }, "\(name) is ASCII")
        }
    }

    func everyCommandAcceptsTheOptionsItDeclaresAndNoOthers() {
        for spec in Commands.all {
            for option in Options.all {
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

    /// What a command declares besides its names and summary is made the first time it is
    /// asked for, and once; an option's kind when asked for: a run looks every command's
    /// name over but makes only what it uses (README: Performance).
    func aCommandsDeclarationIsMadeWhenFirstAskedForAndOnce() {
        let made = Tally()
        let spec = CommandSpec(
            "probe", aliases: ["pr"], usage: made.count([Usage.item]), summary: "a probe",
            options: made.count([CommandOption(Options.force, "go on")]), details: made.count("details"),
            examples: made.count(["kanban probe x"]), build: { _ throws(CLIError) in .version })
        expectEqual(made.value, 0, "made with the command")
        expectEqual([spec.name] + spec.aliases + [spec.summary], ["probe", "pr", "a probe"])
        expectEqual(made.value, 0, "made for its names")
        expectTrue(spec.accepts(Options.force) && spec.accepts(Options.json) && !spec.accepts(Options.to), "accepts")
        expectTrue(spec.operandCount == (1, 1), "\(spec.operandCount)")
        expectEqual(spec.details + " " + spec.synopsis + " " + spec.examples.joined(), "details ITEM kanban probe x")
        expectEqual(made.value, 4, "made once")
        // Threads asking a new command at once all get the one declaration kept.
        let shared = CommandSpec(
            "probe", usage: [Usage.item], summary: "a probe", details: "", build: { _ throws(CLIError) in .version })
        let seen = (0..<8).map { _ in Seen() }
        DispatchQueue.concurrentPerform(iterations: seen.count) { index in seen[index].declaration = shared.declaration }
        expectTrue(seen.allSatisfy { $0.declaration === shared.declaration }, "one declaration for every thread")
        let kind = Tally()
        let option = OptionSpec("--probe", value: "P", kind: kind.count(.board))
        expectEqual(kind.value, 0, "kind made with the option")
        expectEqual(option.kind, .board)
        expectEqual(kind.value, 1)
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

    /// Random scripts of lines that run, lines skipped and lines refused (a quote left open,
    /// invalid UTF-8, a command that changes nothing), with LF or CRLF, a byte order mark
    /// or not: the operations are those of the lines that run, numbered as the lines split
    /// at LF count them, and the first line refused is the one reported.
    func aScriptsLinesAreNumberedAndCheckedAsTheySplit() {
        var random = TestRandom(20_261_129, "aScriptsLinesAreNumberedAndCheckedAsTheySplit")
        // Each line, and whether it runs (true), is skipped (nil) or is refused (false).
        let kinds: [([UInt8], Bool?)] = [
            (Array("board add B".utf8), true), (Array("move 'a b' Done --at 0".utf8), true),
            (Array("add \"Caf\u{E9}\" --to Todo".utf8), true), ([], nil), (Array("  # a comment".utf8), nil),
            (Array("\t".utf8), nil), (Array("add 'open".utf8), false), ([0x61, 0xFF, 0x62], false),
            ([0xC3], false), (Array("list".utf8), false), (Array("move x --to".utf8), false),
        ]
        for _ in 0..<300 {
            let lines = (0..<Int.random(in: 0...6, using: &random)).map { _ in kinds.randomElement(using: &random)! }
            let crlf = Bool.random(using: &random)
            var script: [UInt8] = Bool.random(using: &random) ? [0xEF, 0xBB, 0xBF] : []
            for (index, line) in lines.enumerated() {
                script += line.0
                if index < lines.count - 1 || Bool.random(using: &random) { script += crlf ? [13, 10] : [10] }
            }
            let refused = lines.firstIndex { $0.1 == false }.map { $0 + 1 }
            let running = lines.indices.filter { index in
                lines[index].1 == true && (refused.map { index + 1 < $0 } ?? true)
            }
            let shown = String(decoding: script, as: UTF8.self).debugDescription
            do {
                let operations = try App.operations(inScript: script, named: "script")
                expectTrue(refused == nil, "seed \(random.seed): \(shown) ran; line \(refused ?? 0) should fail")
                expectEqual(operations.map(\.0), running.map { $0 + 1 }, "seed \(random.seed): \(shown)")
            } catch {
                guard case .atLine(let line, _) = error else {
                    Issue.record("seed \(random.seed): \(shown): \(error) names no line")
                    continue
                }
                expectEqual(line, refused, "seed \(random.seed): \(shown): \(error)")
            }
        }
    }

    /// An option taken once may be given again with the same value; the first option that
    /// breaks a rule, in the order given, is the one reported, with the messages these
    /// command lines had when options were kept by name.
    func optionsGivenAgainOrTogetherAreRefusedAsBefore() throws {
        let refused: [([String], String)] = [
            (["move", "x", "--to", "A", "--to", "B"], "option '--to' is given twice"),
            (["move", "x", "--to", "A", "-q", "--to", "B"], "option '--to' is given twice"),
            (["edit", "x", "--due", "2026-12-01", "--due", "tomorrow"], "option '--due' is given twice"),
            (["add", "x", "--at", "-1", "--at", "-2"], "option '--at' is given twice"),
            (["board", "add", "B", "--at", "1", "--limit", "2", "--limit", "3"], "option '--limit' is given twice"),
            (["list", "-f", "a", "--file", "b"], "option '--file' is given twice"),
            (["list", "--color", "always", "--color", "never"], "option '--color' is given twice"),
            (["move", "x", "Done", "--at", "0", "--top"], "choose one position, not --at and --top"),
            (["move", "x", "Done", "--bottom", "--at", "1", "--top"], "choose one position, not --at and --top and --bottom"),
            (["move", "x", "Done", "--to", "A", "--to", "B", "--label", "a"], "option '--to' is given twice"),
            (
                ["move", "x", "Done", "--label", "a", "--to", "A", "--to", "B"],
                "'move' has no option '--label' (it belongs to: list, add, edit)"
            ),
        ]
        for (arguments, message) in refused {
            do {
                let invocation = try Parser.parse(arguments)
                Issue.record("\(arguments) parsed as \(invocation)")
            } catch {
                expectEqual(error.message, message, "\(arguments)")
            }
        }
        let move = try Parser.parse(["move", "x", "--to=A", "--to", "A", "--at", "0", "--at", "0", "-q", "-q"])
        expectTrue(
            move == Invocation(
                command: .change(.operation(.move(items: ["x"], to: "A", position: .at(0))), dryRun: false),
                options: GlobalOptions(quiet: true)), "\(move)")
        let add = try Parser.parse(["add", "x", "--label", "a", "--to", "T", "--label", "b,c", "--to", "T", "--label", "a"])
        let content = NewCardContent(["labels": .value(.words(try Labels(validating: ["a", "b", "c"]).names))])
        expectTrue(
            add.command == .change(.operation(.add(titles: [try Title("x")], to: "T", position: nil, content: content)), dryRun: false),
            "\(add)")
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

/// Counts the values it hands back: how many times the autoclosures that call it ran.
private final class Tally: @unchecked Sendable {
    private(set) var value = 0

    func count<Value>(_ made: Value) -> Value {
        value += 1
        return made
    }
}

/// What one thread was handed.
private final class Seen: @unchecked Sendable {
    var declaration: CommandSpec.Declaration?
}
