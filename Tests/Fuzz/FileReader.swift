// libFuzzer target: the kanban file reader (KanbanFile.decode) and writer, on files of
// every format (version 2, version 1, the original app's). Built by Tests/Fuzz/run, never
// by `swift build`. The property, FuzzProperties.fileReaderViolation: reading succeeds or
// throws a clean error naming a line of the file; what is read is written, read again (the
// same kanban, in version 2) and written again to the same bytes; an older file read twice
// gets the same ids. Any input that breaks it traps, and libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFileReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.fileReaderViolation(bytes) {
        fatalError("file reader: \(violation)")
    }
    return 0
}
