// libFuzzer target: the kanban file reader (KanbanFile.decode) and writer. Built by
// Tests/Fuzz/run, never by `swift build`: any input that breaks a property of
// FuzzProperties.fileReaderViolation traps, and libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFileReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.fileReaderViolation(bytes) {
        fatalError("file reader: \(violation)")
    }
    return 0
}
