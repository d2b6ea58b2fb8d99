// libFuzzer target: the Trello import reader, then Markdown and CSV exports of what it read.
// Built by Tests/Fuzz/run, never by `swift build`: any input that breaks a property of
// FuzzProperties.importViolation traps, and libFuzzer keeps it.

import KanbanCore
import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrelloReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.importViolation(.trello, bytes) {
        fatalError("trello reader: \(violation)")
    }
    return 0
}
