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
        do {
            let rules = BoundedFile.Rules(regularOnly: false, followingLinks: true)
            return (q(path), try BoundedFile.read(path, limit: limit, rules: rules))
        } catch {
            switch error {
            case .cannotOpen(let failure) where failure.code == ENOENT: throw .noFile("no file \(q(path)) to import")
            case .tooLarge, .grewTooLarge: throw tooLarge
            case .kind: throw .io("cannot read \(q(path)): \(POSIX.Failure(EISDIR).reason)")
            case .cannotOpen(let failure), .cannotRead(let failure):
                throw .io("cannot read \(q(path)): \(failure.reason)")
            case .symbolicLink, .otherOwner: preconditionFailure("refused by rules import does not set: \(error)")
            }
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
        var mode: mode_t?
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
        do throws(POSIX.Failure) {
            try AtomicFile.write(to: path, mode: mode) { (fd: Int32) throws(POSIX.Failure) in
                try POSIX.writeAll(fd, bytes)
            } commit: { (temporary: String) throws(POSIX.Failure) in
                if replacing {
                    try AtomicFile.replace(temporary, at: path)
                } else {
                    try AtomicFile.createNew(temporary, at: path)
                }
            }
        } catch {
            if error.code == EEXIST { throw .outputExists(path: path) }
            throw .cannotCreate("cannot write \(q(path)): \(error.reason); nothing was written")
        }
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
