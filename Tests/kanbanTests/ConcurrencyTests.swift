import Foundation
import Glibc
import Testing



// What the stress and crash suites do not cover: several `init`s racing for one file.
// (Parallel writers are StressTests' job, kills at every instant CrashTests'.)
@Suite("Racing inits", .serialized)
struct ConcurrencyTests {
    @Test func racingInitsCreateTheFileOnceAndNeverOverwriteIt() throws {
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let processes = try (0..<10).map {
            try sandbox.start(
                ["init", "--boards", "Board \($0)", "--json"], environment: ["KANBAN_LOCK_TIMEOUT": "60"])
        }
        let results = try processes.map { try $0.wait(timeout: 120) }
        let winners = results.indices.filter { results[$0].status == 0 }
        try require(winners.count == 1, "exactly one init succeeds: \(results.map(\.description))")
        for (index, result) in results.enumerated() where index != winners[0] {
            try expectJSONError(result, exit: 73, code: "exists")
        }
        try expectEqual(sandbox.fileBoards().layout, [BoardColumn("Board \(winners[0])", [])])
        expectTrue(try sandbox.temporaryFiles().isEmpty)
    }
}
