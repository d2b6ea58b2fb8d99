import Foundation
import Glibc
import KanbanCore
import Testing

@testable import kanban

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
    /// The tests below run once per seed: this one makes sure they do not pass for want of
    /// seeds, and that the file seeds hold both kanbans the reader takes (in every format
    /// version) and documents it refuses.
    @Test func theSeedsCoverWhatTheReaderTakesAndRefuses() {
        let files = FuzzCorpus.inputs("file")
        expectTrue(files.count >= 10, "seeds in \(FuzzCorpus.directory)/corpus-file")
        var formats: Set<String> = []
        var refused = 0
        for input in files {
            if let format = try? KanbanFile.decode(input.bytes).format {
                formats.insert("\(format)")
            } else {
                refused += 1
            }
        }
        expectEqual(formats, ["current", "version1", "legacy"], "\(formats)")
        expectTrue(refused >= 1)
        let arguments = FuzzCorpus.inputs("args").map { FuzzProperties.arguments(from: $0.bytes) }
        expectTrue(arguments.count >= 10, "seeds in \(FuzzCorpus.directory)/corpus-args")
        expectTrue(arguments.contains { (try? Parser.parse($0)) != nil } && arguments.contains { (try? Parser.parse($0)) == nil })
    }

    private func expectNone(_ violation: String?, _ context: String) {
        expectTrue(violation == nil, "\(context)")
    }

    @Test(arguments: FuzzCorpus.inputs("file"))
    func fileReaderKeepsItsProperties(_ input: FuzzInput) throws {
        expectNone(FuzzProperties.fileReaderViolation(input.bytes), input.name)

        // And the binary, on the input as kanban.json.
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try sandbox.write(input.bytes)
        let before = try sandbox.snapshot()
        for arguments in [["list"], ["list", "--json"], ["board", "add", "Fuzz", "--dry-run"]] {
            let result = try sandbox.run(arguments)
            expectTrue(result.status == 0 || result.status == 65, "\(arguments): \(result)")
            expectTrue(
                rawControls(in: result.stdout).isEmpty && rawControls(in: result.stderr).isEmpty, "\(result)")
        }
        try expectEqual(sandbox.snapshot(), before)
    }

    @Test(arguments: FuzzCorpus.inputs("args"))
    func argumentParserKeepsItsProperties(_ input: FuzzInput) throws {
        let arguments = FuzzProperties.arguments(from: input.bytes)
        let violation = FuzzProperties.argumentsViolation(arguments)
        expectNone(violation, "\(arguments)")

        // And the binary, with these arguments, where there is no kanban file (NUL-free ones only).
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        let result = try sandbox.run(arguments, environment: ["KANBAN_LOCK_TIMEOUT": "1"])
        expectTrue(result.signal == nil, "\(result)")
        expectTrue([0, 1, 64, 65, 66, 73, 74].contains(result.status ?? -1), "\(result)")
        expectTrue(rawControls(in: result.stderr).isEmpty, "\(result.err)")
    }

    @Test(arguments: FuzzCorpus.inputs("batch"))
    func batchScriptReaderKeepsItsProperties(_ input: FuzzInput) throws {
        expectNone(FuzzProperties.batchViolation(input.bytes), input.name)

        // And the binary, on the script, against the sample board: all of it or nothing.
        let sandbox = try KanbanSandbox(inProcess: true)
        defer { sandbox.remove() }
        try expectEqual(sandbox.run(["init", "--sample", "-q"]).status, 0)
        let before = try sandbox.snapshot()
        let script = sandbox.path("script")
        try Data(input.bytes).write(to: URL(fileURLWithPath: script))
        let result = try sandbox.run(["batch", script])
        expectTrue([0, 1, 64, 65].contains(result.status ?? -1), "\(result)")
        expectTrue(rawControls(in: result.stderr).isEmpty, "\(result.err)")
        if result.status != 0 { expectTrue(try sandbox.snapshot() == before, "\(result)") }
    }

    @Test func theBatchSeedsHoldScriptsThatRunAndScriptsThatAreRefused() throws {
        let scripts = FuzzCorpus.inputs("batch")
        expectTrue(scripts.count >= 8, "seeds in \(FuzzCorpus.directory)/corpus-batch")
        let read = scripts.filter { (try? App.operations(inScript: $0.bytes, named: "seed")) != nil }
        expectTrue(read.count >= 2 && read.count < scripts.count, "\(read.map(\.name))")
    }
}
