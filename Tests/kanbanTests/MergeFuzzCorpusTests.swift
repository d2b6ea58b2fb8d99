import Foundation
import Glibc
import Testing

// The merge fuzzer's seeds and every input it once failed on (Tests/Fuzz/corpus-merge,
// regressions-merge): the properties the fuzz target checks, and `kanban merge` itself on
// the three documents, which must merge (0, 1) or refuse cleanly (65).

@Suite("Merge fuzz seeds and regressions")
struct MergeFuzzCorpusTests {
    @Test func theSeedsAreThere() {
        expectTrue(FuzzCorpus.inputs("merge").count >= 8, "seeds in \(FuzzCorpus.directory)/corpus-merge")
    }

    @Test(arguments: FuzzCorpus.inputs("merge"))
    func mergeKeepsItsProperties(_ input: FuzzInput) throws {
        let violation = MergeFuzzProperties.violation(input.bytes)
        expectTrue(violation == nil, "\(input.name): \(violation ?? "")")

        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let names = ["base.json", "ours.json", "theirs.json"]
        for (name, bytes) in zip(names, MergeFuzzProperties.documents(input.bytes)) {
            try sandbox.write(bytes, to: name)
        }
        let result = try sandbox.run(["merge", "--git"] + names + ["kanban.json"])
        expectTrue([0, 1, 65].contains(result.status), "\(input.name): \(result)")
        if result.status != 65, case .failure(let failure) = CheckedFile.check(try sandbox.bytes("ours.json")) {
            Issue.record("\(input.name): \(failure)")
        }
    }
}
