// libFuzzer target: the argument parser (Parser.parse) and its usage errors. The input is
// argv without the program name, arguments separated by NUL bytes. Built by Tests/Fuzz/run,
// never by `swift build`: any input that breaks a property of
// FuzzProperties.argumentsViolation traps, and libFuzzer keeps it.

import kanban

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.argumentsViolation(FuzzProperties.arguments(from: bytes)) {
        fatalError("argument parser: \(violation)")
    }
    return 0
}
