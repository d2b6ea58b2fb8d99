// libFuzzer target: the Markdown import reader, then Markdown and CSV exports of what it read.
// Built by Tests/Fuzz/run, never by `swift build`: any input that breaks a property of
// FuzzProperties.importViolation traps, and libFuzzer keeps it.

import KanbanCore
import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdownReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.importViolation(.markdown, bytes) {
        fatalError("markdown reader: \(violation)")
    }
    return 0
}
