import Foundation
import KanbanCore
import Testing

@testable import kanban

// The import fuzz targets' seeds and every input they once failed on
// (Tests/Fuzz/corpus-{trello,markdown,csv}, regressions-*), checked on every `swift test`
// with the properties the targets check (FuzzImportProperties.swift).

struct ImportFuzzInput: Sendable, CustomTestStringConvertible {
    var format: ImportFormat
    var input: FuzzInput
    var testDescription: String { input.name }
}

@Suite("Import fuzz seeds and regressions")
struct ImportFuzzCorpusTests {
    static let inputs: [ImportFuzzInput] = [ImportFormat.trello, .markdown, .csv].flatMap { format in
        FuzzCorpus.inputs(format.rawValue).map { ImportFuzzInput(format: format, input: $0) }
    }

    @Test func theSeedsAreThere() {
        for format in [ImportFormat.trello, .markdown, .csv] {
            expectTrue(FuzzCorpus.inputs(format.rawValue).count >= 4, "seeds of \(format)")
        }
    }

    @Test(arguments: inputs)
    func theImportReadersKeepTheirProperties(_ input: ImportFuzzInput) {
        let violation = FuzzProperties.importViolation(input.format, input.input.bytes)
        expectTrue(violation == nil, "\(input.input.name)")
    }
}
