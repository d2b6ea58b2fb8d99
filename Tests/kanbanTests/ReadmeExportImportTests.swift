import Foundation
import Testing

// README's examples for export, import and shell completion run as written: every line of
// every plain code block in those two sections, in order, in a kanban with the sample
// boards and a Trello export named as README names it, with HOME in the sandbox.

@Suite("README: export, import and completion examples")
struct ReadmeExportImportTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The lines of the code blocks (not the ```markdown ones) of the section `heading`.
    static func commands(in heading: String) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "## \(heading)") else { return [] }
        var commands: [String] = []
        var inBlock = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") && !inBlock { break }
            if line == "```" {
                inBlock.toggle()
            } else if inBlock, !line.isEmpty {
                commands.append(line)
            }
        }
        return commands
    }

    @Test(arguments: ["Export and import", "Shell completion"])
    func theExamplesRunAsWritten(section: String) throws {
        let commands = try Self.commands(in: section)
        #expect(commands.count >= 3, "\(section): no examples found")
        let here = try CompletionSandbox()
        try here.sandbox.write(
            try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.trello))), to: "trello-board.json")
        for command in commands {
            let result = try here.run("/bin/bash", ["-e", "-c", command])
            #expect(result.status == 0, "\(command): \(result)")
        }
    }
}
