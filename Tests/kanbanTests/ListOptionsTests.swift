import Testing

@testable import kanban

@Suite struct ListOptions {
    @Test func compactAndNoPagerShapeTheTextView() throws {
        try expectEqual(Parser.parse(["list"]).command, .list(ListRequest()))
        expectTrue(
            try Parser.parse(["ls", "Todo", "--compact"]).command
                == .list(ListRequest(boards: ["Todo"], compact: true, pager: true)))
        expectTrue(
            try Parser.parse(["list", "--no-pager", "--compact"]).command
                == .list(ListRequest(compact: true, pager: false)))
    }

    @Test func theyBelongToListOnly() {
        #expect(throws: CLIError.self) { try Parser.parse(["add", "x", "--compact"]) }
        #expect(throws: CLIError.self) { try Parser.parse(["move", "x", "--to", "Done", "--no-pager"]) }
    }
}
