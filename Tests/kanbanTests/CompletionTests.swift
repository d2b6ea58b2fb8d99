import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

// Shell completion: the engine in-process, then each shell's script as a user loads it,
// driven non-interactively. bash is always there, so its tests always run; zsh and fish
// tests run when those shells are installed (Debian packages zsh, fish) and are skipped,
// saying so, when they are not. The lists of commands and options expected come from the
// command table, so a command added to it is checked without touching these tests.

/// The shells on this machine.
enum Shells {
    static func find(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
    static let bash = find("bash")
    static let zsh = find("zsh")
    static let fish = find("fish")

    static let completionDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Completion").path
}

/// A sandbox with a kanban whose titles need quoting, an archive, labels, and a second file.
final class CompletionSandbox {
    let sandbox: KanbanSandbox

    init() throws {
        sandbox = try KanbanSandbox(inProcess: true)
        try sandbox.initSample()
        try sandbox.succeed(["board", "add", "Q3: Plans", "-q"])
        try sandbox.succeed(["add", "It's \"quoted\" & more", "--to", "Q3: Plans", "--label", "bug", "-q"])
        try sandbox.succeed(["add", "Labelled", "--label", "p1", "--label", "@alice", "-q"])
        try sandbox.succeed(["archive", "System Architecture", "-q"])
        try sandbox.succeed(["init", "--boards", "Elsewhere", "-f", "other.json", "-q"])
    }

    deinit { sandbox.remove() }

    /// The kanban's cards: ids, and titles.
    var cards: (ids: [String], titles: [String]) {
        get throws {
            let boards = try sandbox.boards()
            return (boards.allIDs, boards.flatMap(\.items))
        }
    }

    /// Runs `program` with `arguments` here, with the built kanban first on PATH.
    func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let binary = try KanbanBinary.require()
        let path = (binary as NSString).deletingLastPathComponent + ":/usr/local/bin:/usr/bin:/bin"
        return try SpawnedProcess.start(
            program, arguments, environment: sandbox.environment(["PATH": path].merging(environment) { $1 }),
            directory: sandbox.path
        ).wait()
    }
}

/// Splits output of the form "### LINE" then candidates into candidates by line.
func sections(_ output: String) -> [String: [String]] {
    var result: [String: [String]] = [:]
    var current: String?
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("### ") {
            current = String(line.dropFirst(4))
            result[current!] = []
        } else if let current, !line.isEmpty {
            result[current]!.append(String(line))
        }
    }
    return result
}

func singleQuoted(_ text: String) -> String {
    "'" + text.replacing("'", with: "'\\''") + "'"
}

/// What every command offers after a `-`, and every option's fixed values: from the table.
enum TableExpectations {
    static func options(of spec: CommandSpec) -> Set<String> {
        Set((spec.options + Options.global).flatMap { [$0.spec.name] + ($0.spec.short.map { ["-\($0)"] } ?? []) })
    }

    /// Every (command name or alias, option, words) where the option takes one of a few words.
    static var wordOptions: [(command: String, option: String, words: [String])] {
        Commands.all.flatMap { spec in
            ([spec.name] + spec.aliases).flatMap { name in
                (spec.options + Options.global).compactMap { option -> (String, String, [String])? in
                    guard case .words(let words) = option.kind else { return nil }
                    return (name, option.spec.name, words)
                }
            }
        }
    }
}

@Suite("Shell completion")
struct CompletionTests {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case theFileOnTheLineIsFound
        case everyCommandOfTheTableHasItsOperandsFromItsUsage
        case quotingForTheShellReadsBackAsTheValue
        case bashRegistersTheFunctionWithCompleteF
        case bashOffersEveryCommandSubcommandOptionAndFixedValueOfTheTable
        case bashCompletesBoardsCardsAndLabelsFromTheKanbanFile
        case bashUsesTheFileTheLineNames
        case bashQuotesWhatItInsertsSoThatTheCompletedLineWorks
        case bashCompletesTitlesWithBangsSoThatNothingIsExpanded
        case bashLeavesFileNamesToReadline
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .theFileOnTheLineIsFound: theFileOnTheLineIsFound()
        case .everyCommandOfTheTableHasItsOperandsFromItsUsage: everyCommandOfTheTableHasItsOperandsFromItsUsage()
        case .quotingForTheShellReadsBackAsTheValue: quotingForTheShellReadsBackAsTheValue()
        case .bashRegistersTheFunctionWithCompleteF: try bashRegistersTheFunctionWithCompleteF()
        case .bashOffersEveryCommandSubcommandOptionAndFixedValueOfTheTable:
            try bashOffersEveryCommandSubcommandOptionAndFixedValueOfTheTable()
        case .bashCompletesBoardsCardsAndLabelsFromTheKanbanFile:
            try bashCompletesBoardsCardsAndLabelsFromTheKanbanFile()
        case .bashUsesTheFileTheLineNames: try bashUsesTheFileTheLineNames()
        case .bashQuotesWhatItInsertsSoThatTheCompletedLineWorks:
            try bashQuotesWhatItInsertsSoThatTheCompletedLineWorks()
        case .bashCompletesTitlesWithBangsSoThatNothingIsExpanded:
            try bashCompletesTitlesWithBangsSoThatNothingIsExpanded()
        case .bashLeavesFileNamesToReadline: try bashLeavesFileNamesToReadline()
        }
    }

    // MARK: - The engine, in-process

    @Test(arguments: [
        ([""], CompletionContext.Target.command),
        (["mo"], .command),
        (["-f", "x.json", ""], .command),
        (["board", ""], .subcommand(group: "board")),
        (["move", ""], .value([.item, .board])),
        (["move", "a", "b", ""], .value([.item, .board])),
        (["move", "--to", ""], .value([.board])),
        (["move", "--to=Do"], .value([.board])),
        (["move", "--before", ""], .value([.item])),
        (["--color", ""], .value([.words(["auto", "always", "never"])])),
        (["export", "--format", ""], .value([.words(["markdown", "csv", "json"])])),
        (["import", "--format", ""], .value([.words(["trello", "markdown", "csv", "json"])])),
        (["import", ""], .value([.path])),
        (["export", "-o", ""], .value([.path])),
        (["-f", ""], .value([.path])),
        (["-fkan"], .value([.path])),
        (["board", "rename", ""], .value([.board])),
        (["board", "rename", "Todo", ""], .nothing),
        (["board", "limit", "Todo", ""], .value([.words(["none"])])),
        (["board", "role", ""], .value([.board])),
        (["board", "role", "Todo", ""], .value([.words(["backlog", "active", "done", "default"])])),
        (["restore", ""], .value([.archivedItem])),
        (["add", ""], .nothing),
        (["add", "x", "--label", ""], .value([.label])),
        (["completion", ""], .value([.words(["bash", "zsh", "fish"])])),
        (["help", ""], .value([.command])),
        (["move", "-"], .option(commandName: "move")),
        (["mv", "--t"], .option(commandName: "move")),
        (["move", "--", "-x"], .value([.item, .board])),
        (["frobnicate", ""], .nothing),
    ])
    func theContextSaysWhatGoesWhereTheCursorIs(words: [String], target: CompletionContext.Target) {
        expectEqual(CompletionContext(words: words).target, target)
    }

    func theFileOnTheLineIsFound() {
        expectEqual(CompletionContext(words: ["-f", "a.json", "move", ""]).file, "a.json")
        expectEqual(CompletionContext(words: ["move", "--file=b.json", ""]).file, "b.json")
        expectEqual(CompletionContext(words: ["-qfc.json", "move", ""]).file, "c.json")
        expectTrue(CompletionContext(words: ["move", "--", "-f", "d.json", ""]).file == nil)
        let value = CompletionContext(words: ["move", "--to=In P"])
        expectEqual(value.stem, "--to=")
        expectEqual(value.prefix, "In P")
    }

    func everyCommandOfTheTableHasItsOperandsFromItsUsage() {
        for spec in Commands.all {
            // Every operand says what it is (or is deliberately free text).
            for slot in spec.operandSlots {
                expectTrue(!slot.kinds.isEmpty && !slot.kinds.contains(.words([])), "\(spec.name)")
            }
        }
        expectEqual(Commands.named("move")!.operandSlots.flatMap(\.kinds), [.item, .board])
        expectEqual(Commands.named("rename")!.operandSlots.flatMap(\.kinds), [.item, .text])
        expectEqual(Commands.named("import")!.operandSlots.flatMap(\.kinds), [.path])
        expectEqual(Commands.named("export")!.operandSlots.flatMap(\.kinds), [.board])
        expectEqual(Commands.named("list")!.operandSlots.flatMap(\.kinds), [.board])
    }

    func quotingForTheShellReadsBackAsTheValue() {
        var random = SeededGenerator(seed: 3)
        let alphabet = Array("ab Q:'\"\\$`!&;|()<>*?[]{}#~=,\t-é漢🙂")
        for _ in 0..<2_000 {
            let value = String(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            expectEqual(ShellQuote.dequote(ShellQuote.quote(value, state: .none)).value, value)
            expectEqual(ShellQuote.dequote("'" + ShellQuote.quote(value, state: .single(at: 0)) + "'").value, value)
            expectEqual(ShellQuote.dequote("\"" + ShellQuote.quote(value, state: .double(at: 0)) + "\"").value, value)
        }
    }

    // MARK: - bash

    /// Runs `t LINE WORD…` calls in bash, after loading the script as README says; each call
    /// sets COMP_WORDS to the WORDs (as bash splits LINE: at spaces, and at ':' and '=') and
    /// COMP_CWORD to the last, calls _kanban, and prints "### LINE" and COMPREPLY.
    private func bash(
        _ calls: [(line: String, words: [String])], in here: CompletionSandbox, environment: [String: String] = [:]
    ) throws -> (output: [String: [String]], result: ProcessResult) {
        var script = """
            source <(kanban completion bash) || exit 9
            compopt() { printf 'compopt %s\\n' "$*" >> compopt.log; }
            t() {
                COMP_LINE=$1 COMP_POINT=${#1}
                shift
                COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMPREPLY=()
                _kanban
                printf '### %s\\n' "$COMP_LINE"
                printf '%s\\n' "${COMPREPLY[@]}"
            }

            """
        for call in calls {
            script += "t \(singleQuoted(call.line)) \(call.words.map(singleQuoted).joined(separator: " "))\n"
        }
        let result = try here.run(Shells.bash!, ["-c", script], environment: environment)
        expectEqual(result.status, 0, "\(result)")
        return (sections(result.out), result)
    }

    /// A call for a line bash splits at spaces only.
    private func plain(_ line: String) -> (line: String, words: [String]) {
        var words = line.split(separator: " ").map(String.init)
        if line.hasSuffix(" ") { words.append("") }
        return (line, words)
    }

    func bashRegistersTheFunctionWithCompleteF() throws {
        let here = try CompletionSandbox()
        let result = try here.run(Shells.bash!, ["-c", "source <(kanban completion bash) && complete -p kanban"])
        expectEqual(result.out, "complete -F _kanban kanban\n", "\(result)")
        expectTrue(result.stderr.isEmpty)
    }

    func bashOffersEveryCommandSubcommandOptionAndFixedValueOfTheTable() throws {
        let here = try CompletionSandbox()
        var calls = [plain("kanban ")] + CommandGroups.names.map { plain("kanban \($0) ") }
        for spec in Commands.all {
            for name in [spec.name] + spec.aliases { calls.append(plain("kanban \(name) -")) }
        }
        for entry in TableExpectations.wordOptions {
            calls.append(plain("kanban \(entry.command) \(entry.option) "))
        }
        let (output, _) = try bash(calls, in: here)
        expectEqual(Set(output["kanban "] ?? []), Set(Commands.topLevelNames))
        expectEqual(Set(output["kanban board "] ?? []), Set(Commands.boardSubcommands))
        for group in CommandGroups.names {
            expectEqual(Set(output["kanban \(group) "] ?? []), Set(CommandGroups.subcommands(of: group)), "\(group)")
        }
        for spec in Commands.all {
            for name in [spec.name] + spec.aliases {
                let offered = Set(output["kanban \(name) -"] ?? [])
                expectEqual(offered, TableExpectations.options(of: spec), "kanban \(name) -")
            }
        }
        for entry in TableExpectations.wordOptions {
            expectEqual(output["kanban \(entry.command) \(entry.option) "], entry.words, "\(entry)")
        }
    }

    func bashCompletesBoardsCardsAndLabelsFromTheKanbanFile() throws {
        let here = try CompletionSandbox()
        let (ids, titles) = try here.cards
        let (output, result) = try bash(
            [
                plain("kanban move "), plain("kanban move Ana"), plain("kanban move Mach"),
                plain("kanban move x --to "), plain("kanban restore "), plain("kanban add x --label "),
                plain("kanban board limit Todo "), plain("kanban help "), plain("kanban completion "),
                plain("kanban rename Todo:0 "),
            ], in: here)
        expectTrue(result.stderr.isEmpty, "\(result.err)")
        let escapedTitles = titles.map { ShellQuote.quote($0, state: .none) }
        expectTrue(
            Set(output["kanban move "] ?? [])
                == Set(ids + escapedTitles + ["Todo", "In\\ Progress", "Done", "Q3:\\ Plans"]))
        expectEqual(output["kanban move Ana"], ["Analytics"])
        expectEqual(output["kanban move Mach"], ["Machine\\ Learning"])
        expectEqual(output["kanban move x --to "], ["Todo", "In\\ Progress", "Done", "Q3:\\ Plans"])
        let archived = try require(output["kanban restore "])
        expectTrue(archived.count == 2 && archived.contains("System\\ Architecture"))
        expectEqual(Set(output["kanban add x --label "] ?? []), ["bug", "p1", "@alice"])
        expectEqual(output["kanban board limit Todo "], ["none"])
        expectEqual(Set(output["kanban help "] ?? []), Set(Commands.topLevelNames))
        expectEqual(output["kanban completion "], ["bash", "zsh", "fish"])
        expectEqual(output["kanban rename Todo:0 "], [])
    }

    func bashUsesTheFileTheLineNames() throws {
        let here = try CompletionSandbox()
        let calls = [
            plain("kanban -f other.json move x --to "),
            (
                "kanban --file=other.json move x --to ",
                ["kanban", "--file", "=", "other.json", "move", "x", "--to", ""]
            ),
            plain("kanban -fother.json move x --to "),
            plain("kanban -f missing.json move x --to "),
        ]
        let (output, result) = try bash(calls, in: here)
        expectEqual(output["kanban -f other.json move x --to "], ["Elsewhere"])
        expectEqual(output["kanban --file=other.json move x --to "], ["Elsewhere"])
        expectEqual(output["kanban -fother.json move x --to "], ["Elsewhere"])
        expectEqual(output["kanban -f missing.json move x --to "], [])
        expectTrue(result.stderr.isEmpty, "\(result.err)")
        let (fromEnvironment, _) = try bash(
            [plain("kanban move x --to ")], in: here, environment: ["KANBAN_FILE": "other.json"])
        expectEqual(fromEnvironment["kanban move x --to "], ["Elsewhere"])
    }

    func bashQuotesWhatItInsertsSoThatTheCompletedLineWorks() throws {
        let here = try CompletionSandbox()
        let calls = [
            plain("kanban show It"),
            ("kanban show 'It", ["kanban", "show", "'It"]),
            ("kanban show \"It", ["kanban", "show", "\"It"]),
            ("kanban move Analytics --to Q3:", ["kanban", "move", "Analytics", "--to", "Q3", ":"]),
            ("kanban move Analytics --to=In", ["kanban", "move", "Analytics", "--to", "=", "In"]),
            ("kanban move Analytics --to 'Q3: P", ["kanban", "move", "Analytics", "--to", "'Q3: P"]),
        ]
        let (output, _) = try bash(calls, in: here)
        let unquoted = try require(output["kanban show It"]?.first)
        expectEqual(unquoted, "It\\'s\\ \\\"quoted\\\"\\ \\&\\ more")
        let single = try require(output["kanban show 'It"]?.first)
        let double = try require(output["kanban show \"It"]?.first)
        let colon = try require(output["kanban move Analytics --to Q3:"]?.first)
        expectEqual(colon, "\\ Plans")
        let equals = try require(output["kanban move Analytics --to=In"]?.first)
        expectEqual(equals, "In\\ Progress")
        let quotedColon = try require(output["kanban move Analytics --to 'Q3: P"]?.first)
        // Readline puts the reply in place of the text after the word's opening quote (or after
        // its last ':' or '='), closing an open quote; the lines must then run as meant.
        let lines = [
            "kanban show \(unquoted)", "kanban show '\(single)'", "kanban show \"\(double)\"",
            "kanban move Analytics --to Q3:\(colon) --dry-run", "kanban move Analytics --to=\(equals) --dry-run",
            "kanban move Analytics --to '\(quotedColon)' --dry-run",
        ]
        for line in lines {
            let result = try here.run(Shells.bash!, ["-c", line])
            expectEqual(result.status, 0, "\(line): \(result)")
        }
        let shown = try here.run(Shells.bash!, ["-c", "kanban show \(unquoted)"])
        expectTrue(shown.out.hasPrefix("It's \"quoted\" & more\n"), "\(shown)")
    }

    /// A title with `!!` completed inside double quotes: bash expands `!` there, and readline
    /// closes the quote after the reply, so the reply takes each `!` out of the quotes
    /// (README: Security). Each completed line reads back, at a prompt, as the title.
    func bashCompletesTitlesWithBangsSoThatNothingIsExpanded() throws {
        let here = try CompletionSandbox()
        let title = "Wow!! $(touch canary) it's `x` great"
        try here.sandbox.succeed(["add", title, "-q"])
        let calls = [
            plain("kanban show Wow"),
            ("kanban show \"Wow", ["kanban", "show", "\"Wow"]),
            ("kanban show 'Wow", ["kanban", "show", "'Wow"]),
        ]
        let (output, _) = try bash(calls, in: here)
        let unquoted = try require(output["kanban show Wow"]?.first)
        let double = try require(output["kanban show \"Wow"]?.first)
        let single = try require(output["kanban show 'Wow"]?.first)
        try expectShellsRead(
            [(unquoted, [title]), ("\"\(double)\"", [title]), ("'\(single)'", [title])], in: ["bash"])
    }

    func bashLeavesFileNamesToReadline() throws {
        let here = try CompletionSandbox()
        let (output, _) = try bash(
            [plain("kanban import "), plain("kanban export -o "), plain("kanban -f "), plain("kanban init --import ")],
            in: here)
        for line in ["kanban import ", "kanban export -o ", "kanban -f ", "kanban init --import "] {
            expectEqual(output[line], [], "\(line)")
        }
        let log = String(decoding: try here.sandbox.bytes("compopt.log"), as: UTF8.self)
        expectEqual(log, String(repeating: "compopt -o default\n", count: 4))
    }

    // MARK: - zsh

    /// What zsh offers for each line, from Tests/Completion/capture.zsh with the script saved
    /// as _kanban, as README says.
    private func zsh(_ lines: [String], in here: CompletionSandbox) throws -> [String: [String]] {
        try here.sandbox.write(try here.sandbox.succeed(["completion", "zsh"]), to: "_kanban")
        let result = try here.run(
            Shells.zsh!, ["-f", Shells.completionDirectory + "/capture.zsh", here.sandbox.path] + lines)
        expectEqual(result.status, 0, "\(result)")
        return sections(result.out)
    }

    @Test(
        .enabled(if: Shells.zsh != nil, "zsh is not installed (apt-get install zsh); skipping the zsh completion tests")
    )
    func zshOffersEveryCommandOptionAndCardWithItsTitle() throws {
        let here = try CompletionSandbox()
        var lines = [
            "kanban ", "kanban board ", "kanban move x --to ", "kanban move ", "kanban -f other.json move x --to ",
        ]
        lines += ["kanban import ", "kanban move x --to=In", "kanban restore "]
        lines += Commands.all.map { "kanban \($0.name) -" } + CommandGroups.names.map { "kanban \($0) " }
        let output = try zsh(lines, in: here)
        func values(_ line: String) -> Set<String> {
            Set(
                (output[line] ?? []).map { candidate in
                    candidate.range(of: " -- ").map { String(candidate[..<$0.lowerBound]) } ?? candidate
                })
        }
        expectEqual(values("kanban "), Set(Commands.topLevelNames))
        expectTrue(
            output["kanban "]?.contains {
                $0.hasPrefix("move ") && $0.hasSuffix("move cards to a board, or reorder them in it")
            } == true)
        expectEqual(values("kanban board "), Set(Commands.boardSubcommands))
        expectEqual(values("kanban move x --to "), ["Todo", "In\\ Progress", "Done", "Q3:\\ Plans"])
        expectTrue(
            output["kanban move x --to "]?.contains {
                $0.hasPrefix("In\\ Progress -- In Progress") && $0.hasSuffix("-- board, 3 cards")
            } == true)
        expectEqual(values("kanban -f other.json move x --to "), ["Elsewhere"])
        expectEqual(values("kanban move x --to=In"), ["--to=In\\ Progress"])
        expectTrue(values("kanban import ").contains("kanban.json"))
        // Cards: ids described by their titles, and titles.
        let (ids, _) = try here.cards
        let analytics = try here.sandbox.boards().id(of: "Analytics")
        expectTrue(values("kanban move ").isSuperset(of: Set(ids)))
        expectTrue(
            output["kanban move "]?.contains {
                $0.hasPrefix("\(analytics) ") && $0.contains("Analytics (In Progress:1)")
            } == true)
        expectEqual(output["kanban move "]?.contains { $0.hasPrefix("Machine\\ Learning ") }, true)
        expectTrue(values("kanban restore ").contains("System\\ Architecture"))
        for spec in Commands.all {
            expectEqual(values("kanban \(spec.name) -"), TableExpectations.options(of: spec), "\(spec.name)")
        }
        for group in CommandGroups.names {
            expectEqual(values("kanban \(group) "), Set(CommandGroups.subcommands(of: group)), "\(group)")
        }
    }

    /// What zsh inserts for a title with `!!`, also inside an opened quote, read back by an
    /// interactive zsh (which expands `!` as bash does): the title, with nothing run.
    @Test(
        .enabled(if: Shells.zsh != nil, "zsh is not installed (apt-get install zsh); skipping the zsh completion tests")
    )
    func zshCompletesTitlesWithBangsSoThatNothingIsExpanded() throws {
        let here = try CompletionSandbox()
        let title = "Wow!! $(touch canary) it's `x` great"
        try here.sandbox.succeed(["add", title, "-q"])
        let output = try zsh(["kanban show Wow", "kanban show \"Wow", "kanban show 'Wow"], in: here)
        let unquoted = try require(output["kanban show Wow"]?.first?.components(separatedBy: " -- ").first)
        // In a word that opens a quote, zsh inserts what goes inside the quote, and closes it.
        let double = try require(output["kanban show \"Wow"]?.first?.components(separatedBy: " -- ").first)
        let single = try require(output["kanban show 'Wow"]?.first?.components(separatedBy: " -- ").first)
        try expectShellsRead(
            [(unquoted, [title]), ("\"\(double)\"", [title]), ("'\(single)'", [title])], in: ["zsh"])
    }

    // MARK: - fish

    /// What `complete -C` offers in fish for each line, with the script loaded as README says.
    private func fish(_ lines: [String], in here: CompletionSandbox) throws -> [String: [String]] {
        var script = "kanban completion fish | source\n"
        for line in lines {
            script += "echo \(singleQuoted("### " + line)); complete -C \(singleQuoted(line))\n"
        }
        let result = try here.run(Shells.fish!, ["--no-config", "-c", script])
        expectEqual(result.status, 0, "\(result)")
        return sections(result.out)
    }

    @Test(
        .enabled(
            if: Shells.fish != nil, "fish is not installed (apt-get install fish); skipping the fish completion tests"))
    func fishOffersEveryCommandOptionAndCardWithItsTitle() throws {
        let here = try CompletionSandbox()
        var lines = [
            "kanban ", "kanban board ", "kanban move x --to ", "kanban move ", "kanban -f other.json move x --to ",
        ]
        lines += ["kanban restore ", "kanban move x --to=In"]
        lines += Commands.all.map { "kanban \($0.name) -" } + CommandGroups.names.map { "kanban \($0) " }
        lines += TableExpectations.wordOptions.map { "kanban \($0.command) \($0.option) " }
        let output = try fish(lines, in: here)
        func values(_ line: String) -> Set<String> {
            Set((output[line] ?? []).map { String($0.split(separator: "\t")[0]) })
        }
        expectEqual(values("kanban "), Set(Commands.topLevelNames))
        expectEqual(output["kanban "]?.contains("move\tmove cards to a board, or reorder them in it"), true)
        expectEqual(values("kanban board "), Set(Commands.boardSubcommands))
        expectEqual(values("kanban move x --to "), ["Todo", "In Progress", "Done", "Q3: Plans"])
        expectEqual(values("kanban -f other.json move x --to "), ["Elsewhere"])
        expectEqual(values("kanban move x --to=In"), ["--to=In Progress"])
        let (ids, titles) = try here.cards
        let analytics = try here.sandbox.boards().id(of: "Analytics")
        expectTrue(values("kanban move ").isSuperset(of: Set(ids + titles)))
        expectEqual(output["kanban move "]?.contains("\(analytics)\tAnalytics (In Progress:1)"), true)
        expectTrue(values("kanban restore ").contains("System Architecture"))
        for spec in Commands.all {
            expectEqual(values("kanban \(spec.name) -"), TableExpectations.options(of: spec), "\(spec.name)")
        }
        for group in CommandGroups.names {
            expectEqual(values("kanban \(group) "), Set(CommandGroups.subcommands(of: group)), "\(group)")
        }
        for entry in TableExpectations.wordOptions {
            expectEqual(values("kanban \(entry.command) \(entry.option) "), Set(entry.words), "\(entry)")
        }
    }
}
