import Foundation
import Glibc
import Testing

// The history fuzzer's seeds and every input it once failed on (Tests/Fuzz/corpus-history,
// regressions-history): the properties the fuzz target checks, and the built binary with
// the input as the sample's history, where log, undo, redo and a change must succeed or
// refuse cleanly, never crash, and never write an invalid kanban (README: "History: log,
// undo, redo").

@Suite("History fuzz seeds and regressions")
struct HistoryFuzzCorpusTests {
    @Test func theSeedsAreThere() {
        expectTrue(FuzzCorpus.inputs("history").count >= 10, "seeds in \(FuzzCorpus.directory)/corpus-history")
    }

    @Test(arguments: FuzzCorpus.inputs("history"))
    func historyKeepsItsProperties(_ input: FuzzInput) throws {
        let violation = HistoryFuzzProperties.violation(input.bytes)
        expectTrue(violation == nil, "\(input.name): \(violation ?? "")")

        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(HistoryFuzzProperties.kanbanText)
        try sandbox.write(input.bytes, to: ".kanban.json.history")
        for arguments in [["log"], ["undo"], ["redo"], ["undo", "3"], ["add", "after"], ["log"], ["undo"]] {
            let result = try sandbox.run(arguments)
            expectTrue(
                result.signal == nil && [0, 1, 65].contains(result.status ?? -1),
                "\(input.name) \(arguments): \(result)")
            try expectEqual(sandbox.run(["list"]).status, 0, "\(input.name) \(arguments): the file stays valid")
        }
    }
}
