import Glibc

/// Why a transaction's locks could not be taken.
enum LockFailure: Error {
    /// Another kanban process held them past the deadline.
    case timedOut
    /// The lock file cannot be used; the reason, for a message.
    case unusable(String)
    /// The kanban file went away or became unreadable while the lock was awaited.
    case file(POSIX.Failure)
}

/// A time limit on the monotonic clock.
struct Deadline {
    private let time: Double

    init(seconds: Double) {
        time = POSIX.monotonicSeconds() + seconds
    }

    /// Seconds left; zero or less once it has passed.
    var remaining: Double { time - POSIX.monotonicSeconds() }
}

/// The locks of one transaction on a kanban file.
///
/// The protocol, for a kanban file at the resolved path `DIR/NAME`:
///
/// 1. Open the sidecar lock file `DIR/.NAME.lock` with `O_NOFOLLOW | O_NONBLOCK`, so that
///    neither a symlink nor a FIFO planted there can redirect or block it, and refuse
///    anything that is not a regular file. A missing one is created with `O_EXCL`, with the
///    kanban file's permissions and group whatever the umask (plus read where it has write):
///    everyone who may write the kanban file must be able to take the lock, an open for
///    reading is all `flock` needs, and no one else may hold it (README: Security). For
///    `init`, it gets the umask's permissions, as the file being created does.
/// 2. Take an exclusive `flock` on it, trying without blocking and sleeping between tries
///    (1 ms, doubling up to 50 ms) until the deadline. No signal is involved, so the wait
///    ends on time whatever the signal mask; an uncontended lock is one `flock` call.
/// 3. Check that the locked file is still the one at the path (device and inode): if the
///    lock file was deleted or replaced meanwhile, the lock protects nothing; start again.
/// 4. Take an exclusive `flock` on the kanban file itself (the descriptor the transaction
///    reads from), and check the same way that it is still the file at the path; if a
///    writer that held the lock before has renamed a new file there, lock that one instead.
///
/// Only a holder of the lock on the kanban file renames a new file over it, so step 4 is
/// what makes a transaction exclusive even when the sidecar lock file is deleted or
/// replaced while held (`git clean -X`, a tidy-up): a second writer that gets a new lock
/// file still waits on the kanban file, and then reads what the first one wrote. The
/// sidecar keeps writers from busily retrying on each new kanban file, and serves `init`,
/// which has no kanban file to lock yet.
struct FileLock {
    private let sidecar: Int32

    /// Takes the locks for changing the kanban file at `target`, open as `file`; `file` is
    /// replaced by the file now at `target` if a previous holder replaced it.
    init(updating target: String, file: inout BoundedFile, deadline: Deadline) throws(LockFailure) {
        sidecar = try Self.lockSidecar(Self.sidecarPath(for: target), like: file.info, deadline: deadline)
        do {
            try Self.lockKanbanFile(&file, at: target, deadline: deadline)
        } catch {
            close(sidecar)
            throw error
        }
    }

    /// Takes the sidecar lock for creating the kanban file at `path` (`init`).
    init(creating path: String, deadline: Deadline) throws(LockFailure) {
        sidecar = try Self.lockSidecar(Self.sidecarPath(for: path), like: nil, deadline: deadline)
    }

    /// Releases the sidecar lock; the lock on the kanban file goes with its descriptor.
    func release() {
        close(sidecar)
    }

    /// `DIR/.NAME.lock` for `DIR/NAME`.
    static func sidecarPath(for target: String) -> String {
        Path.join(Path.directory(of: target), "." + Path.name(of: target) + ".lock")
    }

    // MARK: - Steps

    private static func lockSidecar(_ path: String, like kanban: stat?, deadline: Deadline) throws(LockFailure)
        -> Int32
    {
        while true {
            let fd = try openSidecar(path, like: kanban)
            let held: Bool
            do {
                held = try lock(fd, until: deadline, waitingFor: "lock file")
            } catch {
                close(fd)
                throw .unusable("cannot lock its lock file \(q(path)): \(error.reason)")
            }
            guard held else {
                close(fd)
                throw .timedOut
            }
            if let now = POSIX.lstat(path), let locked = try? POSIX.fstatus(fd), now.isSameFile(as: locked) {
                return fd
            }
            // Deleted or replaced while we waited: whoever opens the path now would not wait for us.
            close(fd)
            guard deadline.remaining > 0 else { throw .timedOut }
        }
    }

    /// Opens the lock file, creating it if it is missing, like `kanban` (the kanban file's
    /// status) when there is one; never follows a symlink, never blocks.
    private static func openSidecar(_ path: String, like kanban: stat?) throws(LockFailure) -> Int32 {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK
        while true {
            let fd: Int32
            do {
                fd = try POSIX.open(path, flags)
            } catch  where error.code == ENOENT {
                // The mode must not depend on the umask of whoever happens to write first.
                let mode = kanban.map { $0.st_mode & 0o666 | ($0.st_mode & 0o222) << 1 }
                // The umask is the process's: a run in the tests' process sets the mode afterwards.
                let process = Surroundings.current.isProcess
                let mask = mode == nil || !process ? nil : umask(0)
                do {
                    fd = try POSIX.open(path, flags | O_CREAT | O_EXCL, mode ?? 0o666)
                    if let mask { umask(mask) }
                    if let mode, !process { _ = fchmod(fd, mode) }
                    // Anyone may give a file their own group, and keep it if they are in the file's group.
                    if let kanban, getegid() != kanban.st_gid { _ = fchown(fd, uid_t.max, kanban.st_gid) }
                } catch {
                    if let mask { umask(mask) }
                    // Made by someone else meanwhile (or a dangling symlink, which the next open names).
                    if error.code == EEXIST { continue }
                    throw .unusable(cannotCreate(path, error))
                }
            } catch {
                throw .unusable(cannotOpen(path, error))
            }
            let info: stat
            do {
                info = try POSIX.fstatus(fd)
            } catch {
                close(fd)
                throw .unusable("cannot read its lock file \(q(path)): \(error.reason)")
            }
            guard info.isRegularFile else {
                close(fd)
                throw .unusable(notRegular(path, info))
            }
            return fd
        }
    }

    /// Locks `file` and makes sure it is the file at `target`, reopening it as needed.
    private static func lockKanbanFile(_ file: inout BoundedFile, at target: String, deadline: Deadline)
        throws(LockFailure)
    {
        while true {
            let held: Bool
            do {
                held = try lock(file.fd, until: deadline, waitingFor: "kanban file")
            } catch {
                throw .unusable("cannot lock it: \(error.reason)")
            }
            guard held else { throw .timedOut }
            if let now = POSIX.lstat(target), now.isSameFile(as: file.info) { return }
            // The writer before us renamed its new file into place: that one is the kanban now.
            file.close()
            do {
                file = try BoundedFile(kanbanFile: target)
            } catch {
                throw .file(error)
            }
            guard deadline.remaining > 0 else { throw .timedOut }
        }
    }

    /// Takes an exclusive `flock` on `fd`, trying until `deadline`; `what` names the file
    /// for ``TestHooks/announceWait(for:)``.
    ///
    /// - Returns: false when the deadline passed first.
    private static func lock(_ fd: Int32, until deadline: Deadline, waitingFor what: String) throws(POSIX.Failure)
        -> Bool
    {
        var pause = 0.001
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIX.Failure() }
            let remaining = deadline.remaining
            guard remaining > 0 else { return false }
            if pause == 0.001 { TestHooks.announceWait(for: what) }
            POSIX.sleep(seconds: min(pause, remaining))
            pause = min(pause * 2, 0.05)
        }
    }

    // MARK: - Messages

    private static func notRegular(_ path: String, _ info: stat) -> String {
        "its lock file \(q(path)) is \(info.kind), not a regular file; remove it (kanban creates a new one)"
    }

    private static func cannotOpen(_ path: String, _ error: POSIX.Failure) -> String {
        if let info = POSIX.lstat(path) {
            if info.st_mode & S_IFMT == S_IFLNK {
                return "its lock file \(q(path)) is a symbolic link, which kanban never follows there; "
                    + "remove it (kanban creates a new one)"
            }
            if !info.isRegularFile { return notRegular(path, info) }
            if error.code == EACCES {
                let mode = String(info.st_mode & 0o777, radix: 8)
                return "cannot open its lock file \(q(path)): permission denied (it has mode \(mode) and belongs to "
                    + "user \(info.st_uid)); everyone who writes the kanban file must be able to read it: "
                    + "'chmod a+r' it, or remove it (kanban creates a new one)"
            }
        }
        return "cannot open its lock file \(q(path)): \(error.reason)"
    }

    private static func cannotCreate(_ path: String, _ error: POSIX.Failure) -> String {
        let directory = Path.directory(of: path)
        let hint =
            error.code == EACCES || error.code == EPERM
            ? "; kanban needs to write in \(q(directory)) to change a file there" : ""
        return "cannot create its lock file \(q(path)): \(error.reason)\(hint)"
    }
}
