import Testing

@testable import kanban

/// Parses argv, expecting success.
private func parse(_ arguments: String...) throws -> Invocation {
    try Parser.parse(arguments)
}

/// Parses argv, expecting a usage error, and returns its message.
private func usageError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    do {
        let invocation = try Parser.parse(arguments)
        Issue.record("expected a usage error, got \(invocation)", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case .usage(let message, _) = error else {
            Issue.record("expected a usage error, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(error.status.exit == .usage, sourceLocation: sourceLocation)
        return message
    }
}

@Suite struct ParsingCommands {
    @Test func initTakesSampleOrBoards() throws {
        #expect(try parse("init").command == .initialize(sample: false, boards: nil))
        #expect(try parse("init", "--sample").command == .initialize(sample: true, boards: nil))
        #expect(try parse("init", "--boards", "A,B,C").command == .initialize(sample: false, boards: ["A", "B", "C"]))
        #expect(try parse("init", "--boards=A, B").command == .initialize(sample: false, boards: ["A", " B"]))
    }

    @Test func listTakesBoardsAndAFormat() throws {
        #expect(try parse("list").command == .list(boards: [], format: .text))
        #expect(try parse("ls", "Todo", "Done").command == .list(boards: ["Todo", "Done"], format: .text))
        #expect(try parse("list", "--json").command == .list(boards: [], format: .json))
        #expect(try parse("list", "--json").options.json)
        #expect(try parse("list", "--tsv").command == .list(boards: [], format: .tsv))
    }

    @Test func addTakesTextsABoardAndAPosition() throws {
        #expect(try parse("add").command == .add(texts: [], to: nil, position: nil))
        #expect(
            try parse("add", "a", "b", "--to", "Todo").command == .add(texts: ["a", "b"], to: "Todo", position: nil))
        #expect(
            try parse("add", "-", "--to=Todo", "--at", "0").command == .add(texts: ["-"], to: "Todo", position: .at(0)))
        #expect(try parse("add", "x", "--top").command == .add(texts: ["x"], to: nil, position: .top))
        #expect(try parse("add", "x", "--bottom").command == .add(texts: ["x"], to: nil, position: .bottom))
        #expect(
            try parse("add", "x", "--before", "k3f9").command == .add(texts: ["x"], to: nil, position: .before("k3f9")))
        #expect(
            try parse("add", "x", "--after=Todo:1").command == .add(texts: ["x"], to: nil, position: .after("Todo:1")))
    }

    @Test(arguments: ["move", "mv"])
    func moveTakesItemsABoardAScopeAndAPosition(_ name: String) throws {
        let invocation = try parse(name, "Analytics", "k3f9", "--to", "Done", "--from", "In Progress", "--at", "2")
        #expect(
            invocation.command
                == .move(items: ["Analytics", "k3f9"], to: "Done", from: "In Progress", position: .at(2)))
    }

    @Test(arguments: ["copy", "cp"])
    func copyTakesTheSameArgumentsAsMove(_ name: String) throws {
        #expect(
            try parse(name, "k3f9", "--to", "Done").command
                == .copy(items: ["k3f9"], to: "Done", from: nil, position: nil))
    }

    @Test(arguments: ["remove", "rm"])
    func removeTakesItems(_ name: String) throws {
        #expect(
            try parse(name, "a", "Done:0", "--from", "Done").command == .remove(items: ["a", "Done:0"], from: "Done"))
    }

    @Test func renameTakesAnItemAndATitle() throws {
        #expect(
            try parse("rename", "k3f9", "New title").command == .rename(item: "k3f9", title: "New title", from: nil))
    }

    @Test func boardSubcommands() throws {
        #expect(
            try parse("board", "add", "Review", "--at", "2", "--limit", "2").command
                == .boardAdd(title: "Review", at: 2, limit: 2))
        #expect(try parse("board", "add", "Review").command == .boardAdd(title: "Review", at: nil, limit: nil))
        #expect(try parse("board", "rename", "Review", "QA").command == .boardRename(board: "Review", title: "QA"))
        #expect(try parse("board", "move", "Done", "--at=0").command == .boardMove(board: "Done", at: 0))
        #expect(try parse("board", "limit", "Doing", "3").command == .boardLimit(board: "Doing", limit: 3))
        #expect(try parse("board", "limit", "Doing", "none").command == .boardLimit(board: "Doing", limit: nil))
        #expect(try parse("board", "remove", "Old").command == .boardRemove(board: "Old"))
        #expect(try parse("board", "rm", "Old", "--force").command == .boardRemove(board: "Old"))
        #expect(try parse("board", "rm", "Old", "--force").options.force)
    }

    @Test func helpAndVersion() throws {
        #expect(try parse("help").command == .help(topic: []))
        #expect(try parse("help", "board", "add").command == .help(topic: ["board", "add"]))
        #expect(try parse("--help").command == .help(topic: []))
        #expect(try parse("-h").command == .help(topic: []))
        #expect(try parse("move", "--help").command == .help(topic: ["move"]))
        #expect(try parse("mv", "-h").command == .help(topic: ["move"]))
        #expect(try parse("board", "add", "-h").command == .help(topic: ["board", "add"]))
        #expect(try parse("board", "--help").command == .help(topic: ["board"]))
        #expect(try parse("--version").command == .version)
        #expect(try parse("list", "--version").command == .version)
        #expect(try parse("--version", "--json").options.json)
    }

    @Test func versionPrintsTextOrJSON() throws {
        #expect(try App(options: GlobalOptions()).run(.version) == Array("kanban \(App.version)\n".utf8))
        #expect(
            try App(options: GlobalOptions(json: true)).run(.version)
                == Array("{\"version\":\"\(App.version)\"}\n".utf8))
    }
}

@Suite struct ParsingOptions {
    @Test func globalOptionsGoBeforeOrAfterTheCommand() throws {
        let before = try parse("-f", "x.json", "--json", "-q", "--color", "never", "list")
        let after = try parse("list", "--file=x.json", "--json", "--quiet", "--color=never")
        for invocation in [before, after] {
            #expect(invocation.options == GlobalOptions(file: "x.json", json: true, quiet: true, color: .never))
        }
    }

    @Test func shortOptionsTakeAttachedOrSeparateValuesAndBundle() throws {
        #expect(try parse("list", "-fx.json").options.file == "x.json")
        #expect(try parse("list", "-f=x.json").options.file == "x.json")
        let bundled = try parse("list", "-qf", "x.json")
        #expect(bundled.options.quiet && bundled.options.file == "x.json")
    }

    @Test func mutatingCommandsTakeDryRunAndForce() throws {
        let invocation = try parse("move", "a", "--to", "Done", "--dry-run", "--force")
        #expect(invocation.options.dryRun && invocation.options.force)
        #expect(try parse("board", "limit", "A", "1", "--dry-run").options.dryRun)
        #expect(try parse("init", "--dry-run").options.dryRun)
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(
            try parse("add", "--to", "Todo", "--", "--not-an-option", "-q").command
                == .add(texts: ["--not-an-option", "-q"], to: "Todo", position: nil))
        #expect(try parse("board", "add", "--", "--weird").command == .boardAdd(title: "--weird", at: nil, limit: nil))
    }

    @Test func aValueMayLookLikeAnOption() throws {
        #expect(try parse("add", "x", "--to", "--weird").command == .add(texts: ["x"], to: "--weird", position: nil))
        #expect(try parse("add", "x", "--to=--at").command == .add(texts: ["x"], to: "--at", position: nil))
        #expect(try parse("move", "a", "--to", "-").command == .move(items: ["a"], to: "-", from: nil, position: nil))
    }

    @Test func aNegativeNumberIsAnOperandNotAnOption() throws {
        #expect(try parse("rename", "k3f9", "-5").command == .rename(item: "k3f9", title: "-5", from: nil))
    }

    @Test func colorModes() throws {
        for mode in ColorMode.allCases {
            #expect(try parse("list", "--color", mode.rawValue).options.color == mode)
        }
        #expect(try parse("list").options.color == .auto)
    }

    @Test func theSameValueTwiceIsAllowed() throws {
        #expect(
            try parse("move", "a", "--to", "Done", "--to", "Done").command
                == .move(items: ["a"], to: "Done", from: nil, position: nil))
    }
}

@Suite struct UsageErrors {
    @Test func noCommand() {
        #expect(usageError([])?.contains("no command") == true)
    }

    @Test(arguments: [("mvoe", "move"), ("lst", "list"), ("remvoe", "remove"), ("bord", "board"), ("ad", "add")])
    func unknownCommandsSuggestTheClosest(_ typed: String, _ suggestion: String) {
        let message = usageError([typed, "x"])
        #expect(message?.contains("unknown command '\(typed)'") == true)
        #expect(message?.contains("did you mean '\(suggestion)'?") == true)
    }

    @Test func unknownCommandWithNothingClose() {
        let message = usageError(["frobnicate"])
        #expect(message?.contains("unknown command 'frobnicate'") == true)
        #expect(message?.contains("did you mean") == false)
    }

    @Test func unknownBoardSubcommandsSuggestTheClosest() {
        #expect(usageError(["board", "ad", "X"])?.contains("did you mean 'board add'?") == true)
        #expect(usageError(["board"])?.contains("needs a subcommand") == true)
    }

    @Test(arguments: [
        (["move", "a", "--to", "Done", "--tto", "x"], "--to"),
        (["move", "a", "--to", "Done", "--forse"], "--force"),
        (["add", "x", "--dryrun"], "--dry-run"),
        (["list", "--jsn"], "--json"),
        (["init", "--sampel"], "--sample"),
    ])
    func unknownOptionsSuggestTheClosest(_ arguments: [String], _ suggestion: String) {
        let message = usageError(arguments)
        #expect(message?.contains("unknown option") == true)
        #expect(message?.contains("did you mean '\(suggestion)'?") == true)
    }

    @Test func anOptionOfAnotherCommandSaysWhoseItIs() {
        let message = usageError(["list", "--to", "Done"])
        #expect(message?.contains("'list' has no option '--to'") == true)
        #expect(message?.contains("add, move, copy") == true)
    }

    @Test func unknownShortOption() {
        #expect(usageError(["list", "-x"])?.contains("unknown option '-x'") == true)
    }

    @Test(arguments: [
        ["move", "a"],  // no --to
        ["move", "--to", "Done"],  // no items
        ["copy", "--to", "Done"],
        ["remove"],
        ["rename", "a"],
        ["rename", "a", "b", "c"],
        ["init", "extra"],
        ["board", "add"],
        ["board", "rename", "A"],
        ["board", "move", "A"],  // no --at
        ["board", "limit", "A"],
        ["board", "remove"],
    ])
    func missingOrExtraArguments(_ arguments: [String]) {
        #expect(usageError(arguments) != nil)
    }

    @Test(arguments: [
        ["add", "x", "--at", "-1"], ["add", "x", "--at", "one"], ["add", "x", "--at", "1.5"], ["add", "x", "--at="],
        ["board", "add", "X", "--limit", "-2"], ["board", "move", "X", "--at", "x"],
        ["board", "limit", "X", "lots"], ["board", "limit", "X", "-1"],
        ["add", "x", "--at", "99999999999999999999999"],
    ])
    func malformedNumbers(_ arguments: [String]) {
        #expect(usageError(arguments) != nil)
    }

    @Test func optionsThatNeedAValue() {
        #expect(usageError(["add", "x", "--to"])?.contains("needs a value") == true)
        #expect(usageError(["list", "-f"])?.contains("needs a value") == true)
        let message = usageError(["move", "a", "--to", "--at", "3"])
        #expect(message?.contains("--to=--at") == true)
    }

    @Test func flagsTakeNoValue() {
        #expect(usageError(["list", "--tsv=yes"])?.contains("takes no value") == true)
    }

    @Test func atMostOnePosition() {
        #expect(usageError(["add", "x", "--top", "--at", "1"])?.contains("one position") == true)
        #expect(usageError(["move", "a", "--to", "B", "--before", "x", "--after", "y"]) != nil)
    }

    @Test func conflictingOptions() {
        #expect(usageError(["list", "--json", "--tsv"]) != nil)
        #expect(usageError(["init", "--sample", "--boards", "A"]) != nil)
        #expect(usageError(["list", "--color", "sometimes"])?.contains("auto, always or never") == true)
        #expect(usageError(["move", "a", "--to", "A", "--to", "B"])?.contains("twice") == true)
    }

    @Test func helpForAnUnknownTopicSuggests() throws {
        #expect(throws: CLIError.self) { try Help.text(for: ["mvoe"]) }
        do {
            _ = try Help.text(for: ["mvoe"])
        } catch {
            #expect(error.message.contains("did you mean 'move'?"))
        }
    }
}

@Suite struct HelpText {
    @Test(arguments: Commands.all.map(\.name))
    func everyCommandHasHelpListingItsOptions(_ name: String) throws {
        let spec = try #require(Commands.named(name))
        let text = try Help.text(for: name.split(separator: " ").map(String.init))
        #expect(text.hasPrefix("Usage: kanban \(name) "))
        for option in spec.options {
            #expect(text.contains(option), "help for \(name) lacks \(option)")
        }
        for option in Options.global {
            #expect(text.contains(option.name))
        }
    }

    @Test func theOverviewListsEveryCommand() throws {
        let text = try Help.text(for: [])
        for spec in Commands.all {
            #expect(text.contains("  \(spec.name) "), "overview lacks \(spec.name)")
        }
    }

    @Test func everyOptionAnyCommandTakesIsDescribed() {
        for spec in Commands.all {
            for option in spec.options {
                #expect(Options.all[option] != nil, "\(spec.name) names an undescribed option \(option)")
            }
        }
    }
}
