import Foundation
import Testing

// README's examples for export, import and shell completion run as written: every line of
// every `sh` block in those two sections, in order, in a kanban with the sample boards,
// with HOME in the sandbox. (.ci/readme-examples runs the whole README in order; this
// runs these sections on their own, on a kanban with quoted titles and an archive.)

@Suite("README: export, import and completion examples")
struct ReadmeExportImportTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The lines of the ```sh blocks of the section `heading`.
    static func commands(in heading: String) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "## \(heading)") else { return [] }
        var commands: [String] = []
        var fence: String?  // the open block's info string
        for line in lines[(start + 1)...] {
            if fence == nil && line.hasPrefix("## ") { break }
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)) : nil
            } else if fence == "sh", !line.isEmpty {
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
        // README runs them in a directory of the clone: the fixtures are one level up.
        let fixtures = (ImportFixtures.trello as NSString).deletingLastPathComponent
        for command in commands {
            let line = command.replacing("../Tests/Fixtures/", with: fixtures + "/")
            let result = try here.run("/bin/bash", ["-e", "-c", line])
            #expect(result.status == 0, "\(command): \(result)")
        }
    }
}
