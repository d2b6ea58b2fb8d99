import Glibc
import KanbanCore

/// Hooks that let the crash and reliability tests stop a writer at an exact instant or
/// shrink a limit. Debug builds only: in a release build every hook does nothing and reads
/// no environment variable.
enum TestHooks {
    /// The instants of a transaction where a writer can be stopped.
    enum StopPoint: String {
        /// The locks are taken; nothing is read or written yet.
        case locked
        /// The temporary file exists and holds part of the new kanban (the first chunk).
        case writing
        /// The temporary file is complete and flushed; it is not in place yet.
        case beforeCommit = "before-commit"
        /// The change is recorded in the history; the new file is not in place yet.
        case recorded
        /// The new file is in place; the directory is not flushed and the locks are held.
        case committed
    }

    /// With `KANBAN_TEST_STOP_AT` naming `point` (or, for ``StopPoint/beforeCommit``, with
    /// `KANBAN_TEST_STOP_BEFORE_COMMIT` set), the process stops itself with SIGSTOP there,
    /// so that a test can look at the directory and kill it at exactly that instant.
    static func stop(at point: StopPoint) {
        #if DEBUG
            let named = POSIX.environment("KANBAN_TEST_STOP_AT") == point.rawValue
            if named || (point == .beforeCommit && POSIX.environment("KANBAN_TEST_STOP_BEFORE_COMMIT") != nil) {
                raise(SIGSTOP)
            }
        #endif
    }

    /// With `KANBAN_TEST_WAITING_FILE` naming a file, a writer that finds a lock held
    /// appends `what` (`lock file` or `kanban file`) and a newline to it before it starts
    /// to wait, so that a test can release the lock once the wait has surely begun, and
    /// know that it did.
    static func announceWait(for what: String) {
        #if DEBUG
            guard let path = POSIX.environment("KANBAN_TEST_WAITING_FILE") else { return }
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return }
            let line = Array((what + "\n").utf8)
            _ = line.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        #endif
    }

    /// `KANBAN_TEST_MAX_FILE_SIZE` in bytes, if set: the tests check the size limits with
    /// small files instead of gigabytes.
    static var maximumFileSize: Int? {
        #if DEBUG
            return POSIX.environment("KANBAN_TEST_MAX_FILE_SIZE").flatMap { Int($0) }
        #else
            return nil
        #endif
    }

    /// `KANBAN_TEST_TEMPORARY_SUFFIX`, if set: the name a writer gives its temporary file
    /// after `.NAME.tmp.`, in place of its process id and a random number, so that a test
    /// can name the file to strace before it exists.
    static var temporarySuffix: String? {
        #if DEBUG
            return POSIX.environment("KANBAN_TEST_TEMPORARY_SUFFIX")
        #else
            return nil
        #endif
    }
}

/// Where new ids come from: the system's random numbers or, in a debug build with
/// `KANBAN_TEST_SEED` set to a number, a generator seeded with it, so that a test can run
/// one command twice (spawned and in-process, README: Development) and get the same ids.
struct IDSource: RandomNumberGenerator {
    private var seeded: SeededGenerator?
    private var system = SystemRandomNumberGenerator()

    init() {
        #if DEBUG
            seeded = POSIX.environment("KANBAN_TEST_SEED").flatMap { UInt64($0) }.map { SeededGenerator(seed: $0) }
        #endif
    }

    mutating func next() -> UInt64 {
        if seeded != nil { return seeded!.next() }
        return system.next()
    }
}
