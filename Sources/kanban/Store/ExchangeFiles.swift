import Glibc
import KanbanCore

// Files that are not the kanban file: what `import` reads and what `export -o` writes.

/// A file read whole, for import.
enum InputFile {
    /// Reads `path` (`-`: standard input); returns the name to use in messages and the bytes.
    ///
    /// A FIFO (`kanban import <(curl …)`) is read as it comes, as `cat` reads one, before the
    /// kanban is locked; nothing larger than a kanban file may be (``Store/maximumFileSize``),
    /// so `kanban import /dev/zero` ends at that bound.
    ///
    /// - Throws: ``CLIError/noFile(_:)`` when there is no such file, ``CLIError/io(_:)`` when
    ///   it cannot be read (or is a directory, or is too large).
    static func read(_ path: String) throws(CLIError) -> (name: String, bytes: [UInt8]) {
        if path == "-" { return ("standard input", try StandardInput.read()) }
        let limit = Store.maximumFileSize
        let tooLarge = CLIError.io(
            "cannot read \(q(path)): it is larger than \(byteCount(limit)), the most kanban reads; nothing was imported")
        do throws(POSIX.Failure) {
            let fd = try POSIX.open(path, O_RDONLY)
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw POSIX.Failure() }
            guard info.st_mode & S_IFMT != S_IFDIR else { throw POSIX.Failure(EISDIR) }
            guard info.st_size <= limit else { throw POSIX.Failure(EFBIG) }
            return (q(path), try POSIX.readAll(fd, sizeHint: Int(info.st_size), limit: limit))
        } catch {
            if error.code == ENOENT { throw .noFile("no file \(q(path)) to import") }
            if error.code == EFBIG { throw tooLarge }
            throw .io("cannot read \(q(path)): \(error.reason)")
        }
    }
}

/// A file written whole and atomically, for export.
enum OutputFile {
    /// Writes `bytes` to `path` through a temporary file in the same directory, flushed and
    /// then linked (or, when replacing, renamed) into place, so that a reader of `path` sees
    /// the whole old file or the whole new one, and a failure leaves nothing behind.
    ///
    /// - Parameters:
    ///   - replacing: replace an existing regular file (keeping its permissions); otherwise
    ///     an existing file is refused. A symbolic link is always refused: one planted in
    ///     place of the file would have kanban write wherever it points (README: Reliability).
    ///   - kanbanFile: the kanban file, which is never replaced this way: it has its lock.
    /// - Throws: ``CLIError/outputExists(path:)`` (73), ``CLIError/cannotCreate(_:)`` (73).
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool, notOver kanbanFile: String) throws(CLIError) {
        try refuseSymlink(path)
        let target = path
        var mode: mode_t = 0o666
        if let existing = POSIX.status(path) {
            if let kanban = POSIX.status(kanbanFile), kanban.st_dev == existing.st_dev, kanban.st_ino == existing.st_ino
            {
                throw .cannotCreate(
                    "\(q(path)) is the kanban file; export writes another file (change the kanban with kanban commands)"
                )
            }
            guard replacing else { throw .outputExists(path: path) }
            guard existing.st_mode & S_IFMT == S_IFREG else {
                throw .cannotCreate("cannot write \(q(path)): it is not a regular file")
            }
            mode = existing.st_mode & 0o7777
        }
        let directory = Path.directory(of: target)
        var template = Array(
            Surroundings.current.resolve(Path.join(directory, ".\(Path.name(of: target)).XXXXXX")).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .cannotCreate("cannot create \(q(path)): \(POSIX.Failure().reason) (in \(q(directory)))")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(POSIX.Failure) {
            defer { close(fd) }
            if replacing {
                guard fchmod(fd, mode) == 0 else { throw POSIX.Failure() }
            } else {
                // mkostemp makes the file 0600; an export is an ordinary file.
                let mask = POSIX.fileCreationMask()
                guard fchmod(fd, 0o666 & ~mask) == 0 else { throw POSIX.Failure() }
            }
            try POSIX.writeAll(fd, bytes)
            guard fsync(fd) == 0 else { throw POSIX.Failure() }
            if replacing {
                guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
            } else {
                // link(2) refuses a name that exists, even one made meanwhile.
                if link(temporary, target) != 0 {
                    let failure = POSIX.Failure()
                    // A file system without hard links: check, then rename.
                    guard [EPERM, ENOTSUP, EOPNOTSUPP].contains(failure.code) else { throw failure }
                    guard POSIX.lstat(target) == nil else { throw POSIX.Failure(EEXIST) }
                    guard rename(temporary, target) == 0 else { throw POSIX.Failure() }
                }
                unlink(temporary)
            }
        } catch {
            unlink(temporary)
            if error.code == EEXIST { throw .outputExists(path: path) }
            throw .cannotCreate("cannot write \(q(path)): \(error.reason); nothing was written")
        }
        POSIX.syncDirectory(directory)
    }

    /// Refuses a symbolic link at `path`: kanban writes no file but the kanban file through one.
    ///
    /// - Throws: ``CLIError/cannotCreate(_:)`` (73).
    static func refuseSymlink(_ path: String) throws(CLIError) {
        guard let info = POSIX.lstat(path), info.st_mode & S_IFMT == S_IFLNK else { return }
        throw .cannotCreate(
            "\(q(path)) is a symbolic link; kanban writes no file but the kanban file through one "
                + "(name the file it points to, or remove the link); nothing was written")
    }
}
