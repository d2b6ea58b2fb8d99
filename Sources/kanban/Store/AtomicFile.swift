import Glibc

/// The one way kanban puts a whole file in place: the kanban file, an export, a merge's
/// output, `.gitattributes` and `.gitignore`, a rewritten history. A reader of the target
/// sees the whole old file or the whole new one, and a failure leaves the target as it was
/// and nothing behind (README: Reliability).
///
/// The bytes go to a new temporary file of this writer's own next to the target, created
/// with `O_EXCL | O_NOFOLLOW` (never another's, never through a planted symlink), flushed
/// unless told not to, then put in place by `commit`: by default renamed over the target,
/// or with ``createNew(_:at:)`` linked to a name that must not exist. The directory is then
/// flushed. The temporary file is removed on every failure.
enum AtomicFile {
    /// Writes a file at `target`: `write` gets the temporary file's descriptor, then
    /// `commit` puts the written file (its path) in place: ``replace(_:at:)``,
    /// ``createNew(_:at:)``, or the caller's own (the kanban file: its history record goes
    /// between).
    ///
    /// - Parameters:
    ///   - mode: the new file's permissions, whatever the umask; nil for a new ordinary file
    ///     (read and write for all, less the umask).
    ///   - owner: the user and group it gets, where the system allows (the group at least,
    ///     for a member of it).
    ///   - temporary: the temporary file's path; a new one of this process's own when nil
    ///     (see ``TemporaryFile``).
    ///   - flush: whether the file and its directory are flushed to disk (the history is not:
    ///     a power cut may lose its newest entries, never the kanban file).
    /// - Throws: the first failure, the temporary file removed.
    static func write(
        to target: String, mode: mode_t?, owner: (uid_t, gid_t)? = nil, temporary: String? = nil,
        flush: Bool = true, write: (Int32) throws(POSIX.Failure) -> Void,
        commit: (String) throws(POSIX.Failure) -> Void
    ) throws(POSIX.Failure) {
        let temporary = temporary ?? TemporaryFile.newPath(for: target)
        let directory = Path.directory(of: target)
        do throws(POSIX.Failure) {
            let fd: Int32
            do {
                fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666)
            } catch where error.code == EACCES || error.code == EROFS {
                throw POSIX.Failure(
                    error.code,
                    reason: "\(error.reason) in \(q(directory)); kanban writes a new file next to the old one and "
                        + "renames it, so the directory must be writable")
            }
            do throws(POSIX.Failure) {
                if let mode { guard fchmod(fd, mode) == 0 else { throw POSIX.Failure() } }
                if let (uid, gid) = owner, uid != geteuid() || gid != getegid(), fchown(fd, uid, gid) != 0 {
                    // Only root gives a file away; anyone may keep its group, if they are in it.
                    _ = fchown(fd, uid_t.max, gid)
                }
                try write(fd)
                if flush { guard fsync(fd) == 0 else { throw POSIX.Failure() } }
            } catch {
                close(fd)
                throw error
            }
            guard close(fd) == 0 else { throw POSIX.Failure() }
            try commit(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        if flush { POSIX.syncDirectory(directory) }
    }

    /// Renames `temporary` over `target`.
    static func replace(_ temporary: String, at target: String) throws(POSIX.Failure) {
        guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
    }

    /// Puts `temporary` at `target`, which must not exist: `link(2)` refuses a name that
    /// exists, even one a program that takes no lock made meanwhile; on a file system
    /// without hard links, checked, then renamed. `EEXIST` when it exists.
    static func createNew(_ temporary: String, at target: String) throws(POSIX.Failure) {
        if link(temporary, target) != 0 {
            let failure = POSIX.Failure()
            guard [EPERM, ENOTSUP, EOPNOTSUPP].contains(failure.code) else { throw failure }
            guard POSIX.lstat(target) == nil else { throw POSIX.Failure(EEXIST) }
            guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
        }
        unlink(temporary)
    }
}
