import Testing

import KanbanCore

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
        expectTrue(error.status.exit == .usage, sourceLocation: sourceLocation)
        return message
    }
}

/// A mutating command as the parser builds it.
private func change(_ operation: Operation, dryRun: Bool = false) -> Command {
    .change(.operation(operation), dryRun: dryRun)
}

private func title(_ text: String) throws -> Title { try Title(text) }

@Suite struct ParsingCommands {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case initTakesSampleOrBoards
        case listTakesBoardsAFormatAndFilters
        case noCommandShowsTheOverview
        case everySetOfWordsHasItsOptions
        case everyDateHasItsOption
        case addTakesTextsABoardAPositionAndCardFields
        case renameTakesAnItemAndATitle
        case editTakesEditsOrOpensTheEditor
        case archiveTakesItemsOrABoard
        case showTakesItems
        case boardSubcommands
        case helpAndVersion
        case versionPrintsTextOrJSON
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .initTakesSampleOrBoards: try initTakesSampleOrBoards()
        case .listTakesBoardsAFormatAndFilters: try listTakesBoardsAFormatAndFilters()
        case .noCommandShowsTheOverview: try noCommandShowsTheOverview()
        case .everySetOfWordsHasItsOptions: try everySetOfWordsHasItsOptions()
        case .everyDateHasItsOption: try everyDateHasItsOption()
        case .addTakesTextsABoardAPositionAndCardFields: try addTakesTextsABoardAPositionAndCardFields()
        case .renameTakesAnItemAndATitle: try renameTakesAnItemAndATitle()
        case .editTakesEditsOrOpensTheEditor: try editTakesEditsOrOpensTheEditor()
        case .archiveTakesItemsOrABoard: try archiveTakesItemsOrABoard()
        case .showTakesItems: try showTakesItems()
        case .boardSubcommands: try boardSubcommands()
        case .helpAndVersion: try helpAndVersion()
        case .versionPrintsTextOrJSON: try versionPrintsTextOrJSON()
        }
    }

    func initTakesSampleOrBoards() throws {
        try expectEqual(parse("init").command, .initialize(sample: false, boards: nil, dryRun: false))
        try expectEqual(parse("init", "--sample").command, .initialize(sample: true, boards: nil, dryRun: false))
        expectTrue(
            try parse("init", "--boards", "A,B,C").command
                == .initialize(sample: false, boards: ["A", "B", "C"], dryRun: false))
        expectTrue(
            try parse("init", "--boards=A, B", "--dry-run").command
                == .initialize(sample: false, boards: ["A", " B"], dryRun: true))
    }

    func listTakesBoardsAFormatAndFilters() throws {
        try expectEqual(parse("list").command, .list(ListRequest()))
        try expectEqual(parse("ls", "Todo", "Done").command, .list(ListRequest(boards: ["Todo", "Done"])))
        try expectEqual(parse("list", "--json").command, .list(ListRequest(format: .json)))
        expectTrue(try parse("list", "--json").options.json)
        try expectEqual(parse("list", "--tsv").command, .list(ListRequest(format: .tsv)))
        expectTrue(try parse("list", "--compact", "--no-pager").command == .list(ListRequest(compact: true, pager: false)))
        let filtered = try parse(
            "list", "--label", "bug", "--label=p1,@me", "--grep", "login", "--due-before", "2026-12-01", "--overdue",
            "--older-than", "2w", "--archived"
        ).command
        expectTrue(
            filtered
                == .list(
                    ListRequest(
                        filter: CardFilter(
                            labels: ["@me", "bug", "p1"], grep: "login",
                            dueBefore: .date(try require(Day(iso: "2026-12-01"))), overdue: true,
                            olderThan: try Age("2w"), archived: true))))
    }

    func noCommandShowsTheOverview() throws {
        try expectEqual(parse().command, .overview)
        try expectEqual(parse("-f", "x.json").command, .overview)
        try expectEqual(parse("-f", "x.json").options.file, "x.json")
    }

    /// Every set of words a card has comes with its options, which add, edit and the
    /// command lines printed back go through (README: Cards with content).
    func everySetOfWordsHasItsOptions() throws {
        expectTrue(Options.words.map(\.field) == CardField.all.filter { $0.kind == .words }.map(\.name))
        for options in Options.words {
            let edit = try parse("edit", "k3f9", options.add.name, "a,@b", options.remove.name, "c,@d").command
            let removed = options.syntax == .names ? ["c", "d"] : ["c,@d"]
            let added = try Labels(validating: options.syntax == .names ? ["a", "b"] : ["a", "@b"]).names
            let edits = EditInput(words: [options.field: WordEdits(add: added, remove: removed)])
            expectTrue(edit == change(.edit(item: "k3f9", edits: edits)))
            expectTrue(
                try parse("add", "x", options.add.name, "a,@b").command
                    == change(.add(titles: [try title("x")], to: nil, position: nil, content: NewCardContent([options.field: .value(.words(added))]))))
        }
    }

    /// Every date a card has comes with its option, as `--due` (README: Cards with content).
    func everyDateHasItsOption() throws {
        expectTrue(Options.dates.map(\.field) == CardField.all.filter { $0.kind == .day }.map(\.name))
        for options in Options.dates {
            expectTrue(
                try parse("edit", "k3f9", options.option.name, "+2d").command
                    == change(.edit(item: "k3f9", edits: EditInput(dates: [options.field: .inDays(2)]))))
            expectTrue(
                try parse("add", "x", options.option.name, "2026-12-01").command
                    == change(.add(titles: [try title("x")], to: nil, position: nil, content: NewCardContent([options.field: .day(.date(Day(year: 2026, month: 12, day: 1)!))]))))
        }
    }

    func addTakesTextsABoardAPositionAndCardFields() throws {
        expectTrue(
            try parse("add").command
                == .change(
                    .addReadingInput(
                        texts: [], to: nil, position: nil, content: NewCardContent(), force: false),
                    dryRun: false))
        expectTrue(
            try parse("add", "a", "b", "--to", "Todo").command
                == change(.add(titles: [try title("a"), try title("b")], to: "Todo", position: nil)))
        expectTrue(
            try parse("add", "-", "--to=Todo", "--at", "0").command
                == .change(
                    .addReadingInput(
                        texts: ["-"], to: "Todo", position: .at(0), content: NewCardContent(), force: false),
                    dryRun: false))
        expectTrue(try parse("add", "x", "--top").command == change(.add(titles: [try title("x")], to: nil, position: .top)))
        expectTrue(
            try parse("add", "x", "--at", "-1").command == change(.add(titles: [try title("x")], to: nil, position: .at(-1))))
        expectTrue(
            try parse("add", "x", "--before", "k3f9").command
                == change(.add(titles: [try title("x")], to: nil, position: .before("k3f9"))))
        expectTrue(
            try parse("add", "x", "--label", "bug", "--label", "P1", "--due", "+3d", "--note", "why", "--force").command
                == change(
                    .add(
                        titles: [try title("x")], to: nil, position: nil,
                        content: NewCardContent(labels: ["bug", "P1"], due: .inDays(3), note: "why"), force: true)))
    }

    @Test(arguments: ["move", "mv"])
    func moveTakesItemsABoardAScopeAndAPosition(_ name: String) throws {
        let invocation = try parse(name, "Analytics", "k3f9", "--to", "Done", "--from", "In Progress", "--at", "2")
        expectTrue(
            invocation.command
                == change(.move(items: ["Analytics", "k3f9"], to: "Done", from: "In Progress", position: .at(2))))
    }

    @Test(arguments: ["move", "mv", "copy", "cp"])
    func withoutToTheLastArgumentIsTheDestination(_ name: String) throws {
        let command = try parse(name, "Todo:0", "Todo:1", "Done", "--dry-run").command
        let expected: Operation =
            name.hasPrefix("m")
            ? .move(items: ["Todo:0", "Todo:1"], to: "Done") : .copy(items: ["Todo:0", "Todo:1"], to: "Done")
        expectEqual(command, change(expected, dryRun: true))
    }

    @Test(arguments: ["copy", "cp"])
    func copyTakesTheSameArgumentsAsMove(_ name: String) throws {
        expectTrue(
            try parse(name, "k3f9", "--to", "Done", "--force").command
                == change(.copy(items: ["k3f9"], to: "Done", force: true)))
    }

    @Test(arguments: ["remove", "rm"])
    func removeTakesItems(_ name: String) throws {
        expectTrue(
            try parse(name, "a", "Done:0", "--from", "Done").command
                == change(.remove(items: ["a", "Done:0"], from: "Done")))
    }

    func renameTakesAnItemAndATitle() throws {
        expectTrue(
            try parse("rename", "k3f9", "New title").command
                == change(.rename(item: "k3f9", title: try title("New title"))))
    }

    func editTakesEditsOrOpensTheEditor() throws {
        expectTrue(
            try parse(
                "edit", "k3f9", "--title", "T", "--note", "n", "--label", "a", "--unlabel", "b", "--due", "none"
            ).command
                == change(
                    .edit(
                        item: "k3f9",
                        edits: EditInput(
                            title: try title("T"), note: .set("n"), words: ["labels": WordEdits(add: ["a"], remove: ["b"])], due: DueInput.none))))
        expectTrue(
            try parse("edit", "k3f9", "--append-note", "more").command
                == change(.edit(item: "k3f9", edits: EditInput(note: .append("more")))))
        expectTrue(
            try parse("edit", "k3f9", "--note", "-").command
                == .change(.editReadingNote(item: "k3f9", from: nil, edits: EditInput()), dryRun: false))
        try expectEqual(parse("edit", "k3f9").command, .editInEditor(item: "k3f9", from: nil, dryRun: false))
    }

    func archiveTakesItemsOrABoard() throws {
        try expectEqual(parse("archive", "a", "b").command, change(.archive(items: ["a", "b"])))
        try expectEqual(parse("archive", "--from", "Done").command, change(.archiveBoard(board: "Done")))
        expectTrue(
            try parse("archive", "--from", "Done", "--older-than", "3d").command
                == change(.archiveBoard(board: "Done", olderThan: try Age("3d"))))
        expectTrue(
            try parse("restore", "a", "--to", "Todo", "--force").command
                == change(.restore(items: ["a"], to: "Todo", force: true)))
    }

    func showTakesItems() throws {
        try expectEqual(parse("show", "a", "Todo:1").command, .show(items: ["a", "Todo:1"]))
    }

    func boardSubcommands() throws {
        expectTrue(
            try parse("board", "add", "Review", "--at", "2", "--limit", "2").command
                == change(.boardAdd(title: try title("Review"), at: 2, limit: 2)))
        expectTrue(try parse("board", "add", "Review").command == change(.boardAdd(title: try title("Review"))))
        expectTrue(
            try parse("board", "rename", "Review", "QA").command
                == change(.boardRename(board: "Review", title: try title("QA"))))
        try expectEqual(parse("board", "move", "Done", "--at=0").command, change(.boardMove(board: "Done", at: 0)))
        try expectEqual(parse("board", "limit", "Doing", "3").command, change(.boardLimit(board: "Doing", limit: 3)))
        expectTrue(try parse("board", "limit", "Doing", "none").command == change(.boardLimit(board: "Doing", limit: nil)))
        try expectEqual(parse("board", "remove", "Old").command, change(.boardRemove(board: "Old")))
        try expectEqual(parse("board", "rm", "Old", "--force").command, change(.boardRemove(board: "Old", force: true)))
    }

    func helpAndVersion() throws {
        try expectEqual(parse("help").command, .help(topic: []))
        try expectEqual(parse("help", "board", "add").command, .help(topic: ["board", "add"]))
        try expectEqual(parse("--help").command, .help(topic: []))
        try expectEqual(parse("-h").command, .help(topic: []))
        try expectEqual(parse("move", "--help").command, .help(topic: ["move"]))
        try expectEqual(parse("mv", "-h").command, .help(topic: ["move"]))
        try expectEqual(parse("board", "add", "-h").command, .help(topic: ["board", "add"]))
        try expectEqual(parse("board", "--help").command, .help(topic: ["board"]))
        try expectEqual(parse("--version").command, .version)
        try expectEqual(parse("list", "--version").command, .version)
        expectTrue(try parse("--version", "--json").options.json)
    }

    func versionPrintsTextOrJSON() throws {
        let clock = Moment(now: Timestamp(seconds: 0), today: Day(daysSinceEpoch: 0))
        expectTrue(try App(options: GlobalOptions(), clock: clock).run(.version).stdout == Array("kanban \(App.version)\n".utf8))
        expectTrue(
            try App(options: GlobalOptions(json: true), clock: clock).run(.version).stdout
                == Array("{\"version\":\"\(App.version)\"}\n".utf8))
    }
}

@Suite struct ParsingOptions {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case globalOptionsGoBeforeOrAfterTheCommand
        case shortOptionsTakeAttachedOrSeparateValuesAndBundle
        case mutatingCommandsTakeDryRunAndForceInTheirCommand
        case doubleDashEndsOptions
        case aValueMayLookLikeAnOption
        case aNegativeNumberIsAnOperandNotAnOption
        case colorModes
        case theSameValueTwiceIsAllowed
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .globalOptionsGoBeforeOrAfterTheCommand: try globalOptionsGoBeforeOrAfterTheCommand()
        case .shortOptionsTakeAttachedOrSeparateValuesAndBundle: try shortOptionsTakeAttachedOrSeparateValuesAndBundle()
        case .mutatingCommandsTakeDryRunAndForceInTheirCommand: try mutatingCommandsTakeDryRunAndForceInTheirCommand()
        case .doubleDashEndsOptions: try doubleDashEndsOptions()
        case .aValueMayLookLikeAnOption: try aValueMayLookLikeAnOption()
        case .aNegativeNumberIsAnOperandNotAnOption: try aNegativeNumberIsAnOperandNotAnOption()
        case .colorModes: try colorModes()
        case .theSameValueTwiceIsAllowed: try theSameValueTwiceIsAllowed()
        }
    }

    func globalOptionsGoBeforeOrAfterTheCommand() throws {
        let before = try parse("-f", "x.json", "--json", "-q", "--color", "never", "list")
        let after = try parse("list", "--file=x.json", "--json", "--quiet", "--color=never")
        for invocation in [before, after] {
            expectEqual(invocation.options, GlobalOptions(file: "x.json", json: true, quiet: true, color: .never))
        }
    }

    func shortOptionsTakeAttachedOrSeparateValuesAndBundle() throws {
        try expectEqual(parse("list", "-fx.json").options.file, "x.json")
        try expectEqual(parse("list", "-f=x.json").options.file, "x.json")
        let bundled = try parse("list", "-qf", "x.json")
        expectTrue(bundled.options.quiet && bundled.options.file == "x.json")
    }

    func mutatingCommandsTakeDryRunAndForceInTheirCommand() throws {
        expectTrue(
            try parse("move", "a", "--to", "Done", "--dry-run", "--force").command
                == change(.move(items: ["a"], to: "Done", force: true), dryRun: true))
        expectTrue(
            try parse("board", "limit", "A", "1", "--dry-run").command
                == change(.boardLimit(board: "A", limit: 1), dryRun: true))
        try expectEqual(parse("init", "--dry-run").command, .initialize(sample: false, boards: nil, dryRun: true))
    }

    func doubleDashEndsOptions() throws {
        expectTrue(
            try parse("add", "--to", "Todo", "--", "--not-an-option", "-q").command
                == change(.add(titles: [try title("--not-an-option"), try title("-q")], to: "Todo", position: nil)))
        expectTrue(try parse("board", "add", "--", "--weird").command == change(.boardAdd(title: try title("--weird"))))
    }

    func aValueMayLookLikeAnOption() throws {
        expectTrue(
            try parse("add", "x", "--to", "--weird").command
                == change(.add(titles: [try title("x")], to: "--weird", position: nil)))
        expectTrue(
            try parse("add", "x", "--to=--at").command == change(.add(titles: [try title("x")], to: "--at", position: nil)))
        expectTrue(try parse("move", "a", "--to", "-").command == change(.move(items: ["a"], to: "-")))
    }

    func aNegativeNumberIsAnOperandNotAnOption() throws {
        expectTrue(try parse("rename", "k3f9", "-5").command == change(.rename(item: "k3f9", title: try title("-5"))))
    }

    func colorModes() throws {
        for mode in ColorMode.allCases {
            try expectEqual(parse("list", "--color", mode.rawValue).options.color, mode)
        }
        try expectEqual(parse("list").options.color, .auto)
    }

    func theSameValueTwiceIsAllowed() throws {
        expectTrue(try parse("move", "a", "--to", "Done", "--to", "Done").command == change(.move(items: ["a"], to: "Done")))
    }
}

@Suite struct UsageErrors {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case unknownCommandWithNothingClose
        case unknownBoardSubcommandsSuggestTheClosest
        case anOptionOfAnotherCommandSaysWhoseItIs
        case unknownShortOption
        case optionsThatNeedAValue
        case flagsTakeNoValue
        case atMostOnePosition
        case conflictingOptions
        case helpForAnUnknownTopicSuggests
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .unknownCommandWithNothingClose: unknownCommandWithNothingClose()
        case .unknownBoardSubcommandsSuggestTheClosest: unknownBoardSubcommandsSuggestTheClosest()
        case .anOptionOfAnotherCommandSaysWhoseItIs: anOptionOfAnotherCommandSaysWhoseItIs()
        case .unknownShortOption: unknownShortOption()
        case .optionsThatNeedAValue: optionsThatNeedAValue()
        case .flagsTakeNoValue: flagsTakeNoValue()
        case .atMostOnePosition: atMostOnePosition()
        case .conflictingOptions: conflictingOptions()
        case .helpForAnUnknownTopicSuggests: try helpForAnUnknownTopicSuggests()
        }
    }


    @Test(arguments: [("mvoe", "move"), ("lst", "list"), ("remvoe", "remove"), ("bord", "board"), ("ad", "add")])
    func unknownCommandsSuggestTheClosest(_ typed: String, _ suggestion: String) {
        let message = usageError([typed, "x"])
        expectEqual(message?.contains("unknown command '\(typed)'"), true)
        expectEqual(message?.contains("did you mean '\(suggestion)'?"), true)
    }

    func unknownCommandWithNothingClose() {
        let message = usageError(["frobnicate"])
        expectEqual(message?.contains("unknown command 'frobnicate'"), true)
        expectEqual(message?.contains("did you mean"), false)
    }

    func unknownBoardSubcommandsSuggestTheClosest() {
        expectEqual(usageError(["board", "ad", "X"])?.contains("did you mean 'board add'?"), true)
        expectEqual(usageError(["board"])?.contains("needs a subcommand"), true)
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
        expectEqual(message?.contains("unknown option"), true)
        expectEqual(message?.contains("did you mean '\(suggestion)'?"), true)
    }

    func anOptionOfAnotherCommandSaysWhoseItIs() {
        let message = usageError(["list", "--to", "Done"])
        expectEqual(message?.contains("'list' has no option '--to'"), true)
        expectEqual(message?.contains("add, move, copy"), true)
    }

    func unknownShortOption() {
        expectEqual(usageError(["list", "-x"])?.contains("unknown option '-x'"), true)
    }

    @Test(arguments: [
        ["move", "a"],  // no --to and no second argument
        ["mv", "a"],
        ["copy", "a"],
        ["move", "--to", "Done"],  // no items
        ["edit"],
        ["edit", "a", "b"],
        ["archive"],
        ["restore"],
        ["show"],
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
        expectTrue(usageError(arguments) != nil)
    }

    @Test(arguments: [
        ["add", "x", "--at", "- 1"], ["add", "x", "--at", "one"], ["board", "add", "X", "--at", "-1"],
        ["list", "--due-before", "soon"], ["list", "--older-than", "3y"], ["add", "x", "--due", "2026-13-01"],
        ["add", "x", "--label", "two words"], ["add", "x", "--label", "-x"], ["list", "--due-before", "none"], ["add", "x", "--at", "1.5"], ["add", "x", "--at="],
        ["board", "add", "X", "--limit", "-2"], ["board", "move", "X", "--at", "x"],
        ["board", "limit", "X", "lots"], ["board", "limit", "X", "-1"],
        ["add", "x", "--at", "99999999999999999999999"],
    ])
    func malformedNumbers(_ arguments: [String]) {
        expectTrue(usageError(arguments) != nil)
    }

    func optionsThatNeedAValue() {
        expectEqual(usageError(["add", "x", "--to"])?.contains("needs a value"), true)
        expectEqual(usageError(["list", "-f"])?.contains("needs a value"), true)
        let message = usageError(["move", "a", "--to", "--at", "3"])
        expectEqual(message?.contains("--to=--at"), true)
    }

    func flagsTakeNoValue() {
        expectEqual(usageError(["list", "--tsv=yes"])?.contains("takes no value"), true)
    }

    func atMostOnePosition() {
        expectEqual(usageError(["add", "x", "--top", "--at", "1"])?.contains("one position"), true)
        expectTrue(usageError(["move", "a", "--to", "B", "--before", "x", "--after", "y"]) != nil)
    }

    func conflictingOptions() {
        expectTrue(usageError(["edit", "a", "--note", "x", "--append-note", "y"]) != nil)
        expectTrue(usageError(["archive", "a", "--older-than", "3d"]) != nil)
        expectTrue(usageError(["list", "--json", "--tsv"]) != nil)
        expectTrue(usageError(["init", "--sample", "--boards", "A"]) != nil)
        expectEqual(usageError(["list", "--color", "sometimes"])?.contains("auto, always or never"), true)
        expectEqual(usageError(["move", "a", "--to", "A", "--to", "B"])?.contains("twice"), true)
    }

    func helpForAnUnknownTopicSuggests() throws {
        #expect(throws: CLIError.self) { try Help.text(for: ["mvoe"]) }
        do {
            _ = try Help.text(for: ["mvoe"])
        } catch {
            expectTrue(error.message.contains("did you mean 'move'?"))
        }
    }
}

@Suite struct HelpText {
    /// The cases of ``each(_:)``, one `@Test` for them all (README: Development).
    enum Check: CaseIterable {
        case optionsSpeakOfTheirCommand
        case theOverviewListsEveryCommand
        case everyOptionAnyCommandTakesIsKnownToTheTokenizer
        case helpForAnUnknownBoardSubcommandComparesTheSubcommand
    }

    @Test(arguments: Check.allCases)
    func each(_ check: Check) throws {
        switch check {
        case .optionsSpeakOfTheirCommand: try optionsSpeakOfTheirCommand()
        case .theOverviewListsEveryCommand: try theOverviewListsEveryCommand()
        case .everyOptionAnyCommandTakesIsKnownToTheTokenizer: everyOptionAnyCommandTakesIsKnownToTheTokenizer()
        case .helpForAnUnknownBoardSubcommandComparesTheSubcommand:
            helpForAnUnknownBoardSubcommandComparesTheSubcommand()
        }
    }

    @Test(arguments: Commands.all.map(\.name))
    func everyCommandHasHelpListingItsOptions(_ name: String) throws {
        let spec = try require(Commands.named(name))
        let text = try Help.text(for: name.split(separator: " ").map(String.init))
        expectTrue(text.hasPrefix("Usage: kanban \(name)\(spec.synopsis.isEmpty ? "" : " ")"))
        expectTrue(!text.split(separator: "\n")[0].hasSuffix(" "), "a trailing space: \(text)")
        for option in spec.options {
            expectTrue(text.contains(option.spec.name), "help for \(name) lacks \(option.spec.name)")
            expectTrue(text.contains(option.help), "help for \(name) lacks what \(option.spec.name) means")
        }
        for option in Options.global {
            expectTrue(text.contains(option.spec.name))
        }
    }

    func optionsSpeakOfTheirCommand() throws {
        let add = try Help.text(for: ["add"])
        expectTrue(add.contains("WIP limit"))
        expectTrue(!add.contains("remove the board"))
        let boardAdd = try Help.text(for: ["board", "add"])
        let at = try require(
            boardAdd.split(separator: "\n").first { $0.contains("--at N") && !$0.hasPrefix("Usage:") })
        expectTrue(at.contains("index of the new board"))
        expectTrue(!at.contains("card"))
        let boardRemove = try Help.text(for: ["board", "remove"])
        expectTrue(boardRemove.contains("remove the board even if it holds cards"))
    }

    func theOverviewListsEveryCommand() throws {
        let text = try Help.text(for: [])
        for spec in Commands.all {
            expectTrue(text.contains("  \(spec.name) "), "overview lacks \(spec.name)")
        }
    }

    func everyOptionAnyCommandTakesIsKnownToTheTokenizer() {
        for spec in Commands.all {
            for option in spec.options {
                expectEqual(Options.named(option.spec.name), option.spec, "\(spec.name): \(option.spec.name)")
            }
        }
    }

    func helpForAnUnknownBoardSubcommandComparesTheSubcommand() {
        do {
            _ = try Help.text(for: ["board", "frob"])
            Issue.record("expected an error")
        } catch {
            expectTrue(!error.message.contains("did you mean"))
            expectTrue(error.message.contains("board subcommands"))
        }
        do {
            _ = try Help.text(for: ["board", "ad"])
            Issue.record("expected an error")
        } catch {
            expectTrue(error.message.contains("did you mean 'board add'?"))
        }
    }
}

/// An operation's command line, as the history records it for `kanban ui` and `batch` reads
/// it, parses back to the same operation: every case, every option, words that start with
/// `-`, contain spaces, quotes or newlines (README: History: log, undo, redo; Batch).
@Suite struct OperationCommandLines {
    @Test func everyOperationParsesBackFromItsCommandLine() throws {
        let seed: UInt64 = 20_261_127_01
        print("everyOperationParsesBackFromItsCommandLine: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let words = ["Todo", "Todo:0", "k3f9p2", "-x", "--to", "a b", "it's \"quoted\"", "é漢🙂", "-1", "0", "none"]
        let titles = try ["Write docs", "-dash", "--to", "a 'b' \"c\"", "Ünïcödé 🙂", "x"].map { text throws in try Title(text) }
        let notes = ["", "line one\nline two", "--note", " spaced ", "tab\there"]
        let labelSets: [[String]] = [[], ["bug"], ["Bug", "p1"], ["a", "b", "c"]]
        let dues: [DueInput?] = [nil, .date(Day(year: 2026, month: 12, day: 24)!), .inDays(3), .inDays(0), DueInput.none]
        let positions: [Position?] = [nil, .at(0), .at(-1), .at(7), .top, .bottom, .before("-x"), .after("Todo:1")]
        func word() -> String { words.randomElement(using: &random)! }
        func some(_ count: ClosedRange<Int> = 1...3) -> [String] { (0..<Int.random(in: count, using: &random)).map { _ in word() } }
        func maybe(_ value: String) -> String? { Bool.random(using: &random) ? value : nil }
        func bool() -> Bool { Bool.random(using: &random) }
        func title() -> Title { titles.randomElement(using: &random)! }
        var made = Set<String>()
        for _ in 0..<600 {
            let labels = labelSets.randomElement(using: &random)!
            let operation: Operation
            switch Int.random(in: 0..<18, using: &random) {
            case 0:
                operation = .add(
                    titles: (0..<Int.random(in: 1...3, using: &random)).map { _ in title() }, to: maybe(word()),
                    position: positions.randomElement(using: &random)!,
                    content: NewCardContent(
                        labels: try Labels(validating: labels),
                        // (An empty note given to `add` is no note: the parser says `nil`.)
                        due: dues.randomElement(using: &random)!, note: maybe(notes.dropFirst().randomElement(using: &random)!)),
                    force: bool())
            case 1:
                operation = .move(
                    items: some(), to: word(), from: maybe(word()), position: positions.randomElement(using: &random)!,
                    force: bool())
            case 2:
                operation = .copy(
                    items: some(), to: word(), from: maybe(word()), position: positions.randomElement(using: &random)!,
                    force: bool())
            case 3: operation = .remove(items: some(), from: maybe(word()))
            case 4: operation = .rename(item: word(), title: title(), from: maybe(word()))
            case 5:
                var edits = EditInput()
                repeat {
                    edits.title = bool() ? title() : nil
                    let note = notes.randomElement(using: &random)!
                    edits.note = [nil, NoteEdit.set(note), NoteEdit.append(note)].randomElement(using: &random)!
                    edits[words: "labels"].add = bool() ? labels : []
                    edits[words: "labels"].remove = bool() ? ["old", "-"].filter { _ in bool() } : []
                    edits.due = dues.randomElement(using: &random)!
                } while edits.isEmpty
                operation = .edit(item: word(), from: maybe(word()), edits: edits)
            case 6: operation = .archive(items: some(), from: maybe(word()))
            case 7: operation = .archiveBoard(board: word(), olderThan: bool() ? try Age("3d") : nil)
            case 8: operation = .restore(items: some(), to: maybe(word()), force: bool())
            case 9:
                operation = .boardAdd(
                    title: title(), at: bool() ? Int.random(in: 0...5, using: &random) : nil,
                    limit: bool() ? Int.random(in: 0...9, using: &random) : nil)
            case 10: operation = .boardRename(board: word(), title: title())
            case 11: operation = .boardMove(board: word(), at: Int.random(in: 0...5, using: &random))
            case 12: operation = .boardLimit(board: word(), limit: bool() ? Int.random(in: 0...9, using: &random) : nil)
            case 13: operation = .boardRemove(board: word(), force: bool())
            case 14:
                operation = .resolve(
                    reference: word(), side: bool() ? .ours : .theirs,
                    fields: ConflictField.allCases.filter { _ in bool() })
            case 15: operation = .move(items: ["-x", "--"], to: "-y", position: .before("--at"))
            case 16: operation = .boardRole(board: word(), role: (BoardRole.allCases + [nil]).randomElement(using: &random)!)
            default: operation = .add(titles: [try Title("--")], to: "--", position: .at(-2))
            }
            made.insert(operation.name)
            let line = operation.commandLine
            let invocation = try Parser.parse(line)
            expectEqual(invocation.command, .change(.operation(operation), dryRun: false), "\(line)")
        }
        expectEqual(made.count, 15, "every kind of operation was made: \(made.sorted())")
    }
}
