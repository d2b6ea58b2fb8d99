import Glibc

/// A file opened to be read whole, but never past a bound: how kanban reads a file that
/// someone else may have put in its place (README: Security, Reliability), be it the text
/// back from the editor, a file to import, or the kanban file. What it must not read it
/// refuses with a ``Refusal``, which each reader says in its own words.
struct BoundedFile {
    /// What a file must be to be read.
    struct Rules {
        /// Only a regular file, opened without blocking, so that a FIFO is refused rather
        /// than waited on; otherwise anything but a directory (a FIFO is read as it comes,
        /// as `cat` reads one).
        var regularOnly = true
        /// Whether a symbolic link at the path is followed; if not, it is refused.
        var followingLinks = true
        /// The user the file must belong to, if any.
        var owner: uid_t?
    }

    /// Why a file was not read.
    enum Refusal: Error {
        /// `open(2)` failed: no such file, no permission, ….
        case cannotOpen(POSIX.Failure)
        /// The path is a symbolic link, and the rules follow none.
        case symbolicLink
        /// The file is of a kind the rules do not read (its status says which).
        case kind(stat)
        /// The file belongs to another user than the rules ask for.
        case otherOwner(uid_t)
        /// Its status says it is larger than the limit (the size): nothing was read.
        case tooLarge(Int)
        /// It went on past the limit while being read: it grew, or it is a stream that
        /// does not end.
        case grewTooLarge
        /// `fstat(2)` or `read(2)` failed.
        case cannotRead(POSIX.Failure)
    }

    private(set) var fd: Int32
    /// Its status when opened: its identity, size, kind, mode and owner.
    let info: stat

    /// Opens `path` and checks it against `rules`, before anything is read.
    init(_ path: String, rules: Rules) throws(Refusal) {
        var flags = O_RDONLY
        if rules.regularOnly { flags |= O_NONBLOCK }
        if !rules.followingLinks { flags |= O_NOFOLLOW }
        do {
            fd = try POSIX.open(path, flags)
        } catch {
            if !rules.followingLinks, let info = POSIX.lstat(path), info.st_mode & S_IFMT == S_IFLNK {
                throw .symbolicLink
            }
            throw .cannotOpen(error)
        }
        do {
            info = try POSIX.fstatus(fd)
        } catch {
            Glibc.close(fd)
            throw .cannotRead(error)
        }
        let kind = info.st_mode & S_IFMT
        if rules.regularOnly ? kind != S_IFREG : kind == S_IFDIR {
            Glibc.close(fd)
            throw .kind(info)
        }
        if let owner = rules.owner, info.st_uid != owner {
            Glibc.close(fd)
            throw .otherOwner(info.st_uid)
        }
    }

    /// Reads the whole file, of at most `limit` bytes: one whose status says it is larger
    /// is refused before anything is allocated for it (a sparse file may claim gigabytes).
    func read(limit: Int) throws(Refusal) -> [UInt8] {
        guard info.st_size <= limit else { throw .tooLarge(Int(info.st_size)) }
        do {
            // The size is only a hint: the read itself stops past the limit.
            return try POSIX.readAll(fd, sizeHint: Int(info.st_size), limit: limit)
        } catch {
            if error.code == EFBIG { throw .grewTooLarge }
            throw .cannotRead(error)
        }
    }

    /// Opens, checks and reads `path` whole, then closes it.
    static func read(_ path: String, limit: Int, rules: Rules) throws(Refusal) -> [UInt8] {
        var file = try BoundedFile(path, rules: rules)
        defer { file.close() }
        return try file.read(limit: limit)
    }

    /// Closes it, and so drops any lock on it; closing twice does nothing.
    mutating func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
