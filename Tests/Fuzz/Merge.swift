// libFuzzer target: the 3-way merge (Kanban.merge). Built by Tests/Fuzz/run, never by
// `swift build`: an input is three documents separated by NUL bytes; any that breaks a
// property of MergeFuzzProperties.violation traps, and libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMerge(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = MergeFuzzProperties.violation(bytes) {
        fatalError("merge: \(violation)")
    }
    return 0
}
