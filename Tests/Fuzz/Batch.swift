// libFuzzer target: the `kanban batch` script reader (its shell-like word splitter and the
// parser of every line). The input is a script. Built by Tests/Fuzz/run, never by `swift
// build`: any input that breaks a property of FuzzProperties.batchViolation traps, and
// libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.batchViolation(bytes) {
        fatalError("batch script: \(violation)")
    }
    return 0
}
