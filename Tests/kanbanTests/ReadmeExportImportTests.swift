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

    /// The ```sh blocks of the section `heading`, each as one script.
    static func commands(in heading: String) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "## \(heading)") else { return [] }
        var blocks: [String] = []
        var fence: String?  // the open block's info string
        for line in lines[(start + 1)...] {
            if fence == nil && line.hasPrefix("## ") { break }
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)) : nil
                if fence == "sh" { blocks.append("") }
            } else if fence == "sh", !line.isEmpty {
                blocks[blocks.count - 1] += line + "\n"
            }
        }
        return blocks
    }

    @Test(arguments: ["Export and import", "Shell completion"])
    func theExamplesRunAsWritten(section: String) throws {
        let blocks = try Self.commands(in: section)
        expectTrue(blocks.joined().split(separator: "\n").count >= 3, "\(section): no examples found")
        let here = try CompletionSandbox()
        // Each block runs as one script (a here-document spans lines), stopping at the first
        // command that fails; README's examples run anywhere, so nothing is rewritten.
        for block in blocks {
            let result = try here.run("/bin/bash", ["-e", "-c", block])
            expectEqual(result.status, 0, "\(block): \(result)")
        }
    }
}
