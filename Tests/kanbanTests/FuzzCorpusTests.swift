import Foundation
import Glibc
import Testing

// The fuzzers' seeds and every input a fuzzer once found (Tests/Fuzz/regressions-*), checked
// on every `swift test`: the same properties the fuzz targets check (FuzzProperties), and
// the built binary on each input, which must succeed or refuse cleanly.

enum FuzzCorpus {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fuzz").path

    /// The inputs of a target ("file" or "args"): seeds, then regressions, by name.
    static func inputs(_ target: String) -> [FuzzInput] {
        ["corpus-\(target)", "regressions-\(target)"].flatMap { folder in
            let path = directory + "/" + folder
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { FuzzInput(name: folder + "/" + $0, path: path + "/" + $0) }
        }
    }
}

struct FuzzInput: Sendable, CustomTestStringConvertible {
    var name: String
    var path: String
    var testDescription: String { name }
    var bytes: [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
}

@Suite("Fuzz seeds and regressions")
struct FuzzCorpusTests {
    @Test func theSeedsAreThere() {
        #expect(FuzzCorpus.inputs("file").count >= 10, "seeds in \(FuzzCorpus.directory)/corpus-file")
        #expect(FuzzCorpus.inputs("args").count >= 10, "seeds in \(FuzzCorpus.directory)/corpus-args")
    }

    /// Expects no violation, or the known issue it belongs to.
    private func expectNone(_ violation: String?, _ context: String) {
        if let violation, let issue = FuzzProperties.knownIssue(violation) {
            withKnownIssue(Comment(rawValue: issue)) { Issue.record("\(context): \(violation)") }
        } else {
            #expect(violation == nil, "\(context)")
        }
    }

    @Test(arguments: FuzzCorpus.inputs("file"))
    func fileReaderKeepsItsProperties(_ input: FuzzInput) throws {
        expectNone(FuzzProperties.fileReaderViolation(input.bytes), input.name)

        // And the binary, on the input as kanban.json.
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        try sandbox.write(input.bytes)
        let before = try sandbox.snapshot()
        for arguments in [["list"], ["list", "--json"], ["board", "add", "Fuzz", "--dry-run"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 0 || result.status == 65, "\(arguments): \(result)")
            #expect(
                rawControls(in: result.stdout).isEmpty && rawControls(in: result.stderr).isEmpty, "\(result)")
        }
        #expect(try sandbox.snapshot() == before)
    }

    @Test(arguments: FuzzCorpus.inputs("args"))
    func argumentParserKeepsItsProperties(_ input: FuzzInput) throws {
        let arguments = FuzzProperties.arguments(from: input.bytes)
        let violation = FuzzProperties.argumentsViolation(arguments)
        expectNone(violation, "\(arguments)")

        // And the binary, with these arguments, where there is no kanban file (NUL-free ones only).
        let sandbox = try KanbanSandbox()
        defer { sandbox.remove() }
        let result = try sandbox.run(arguments, environment: ["KANBAN_LOCK_TIMEOUT": "1"])
        #expect(result.signal == nil, "\(result)")
        #expect([0, 1, 64, 65, 66, 73, 74].contains(result.status ?? -1), "\(result)")
        let raw = rawControls(in: result.stderr)
        if let issue = violation.flatMap(FuzzProperties.knownIssue), !raw.isEmpty {
            withKnownIssue(Comment(rawValue: issue)) {
                Issue.record("raw control characters on stderr: \(raw)")
            }
        } else {
            #expect(raw.isEmpty, "\(result.err)")
        }
    }
}
