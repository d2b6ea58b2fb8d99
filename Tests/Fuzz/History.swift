// libFuzzer target: the history reader and writer (HistoryFile) and the undo and redo of
// the records it reads. Built by Tests/Fuzz/run, never by `swift build`: an input is the
// bytes of a history file; any that breaks a property of HistoryFuzzProperties.violation
// traps, and libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = HistoryFuzzProperties.violation(bytes) {
        fatalError("history: \(violation)")
    }
    return 0
}
