import Glibc

/// Thin wrappers over the system calls the store needs, retrying on `EINTR`.
enum POSIX {
    /// A failed system call: its `errno`.
    struct Failure: Error {
        let code: Int32
        /// A reason to give instead of the system's text for `code`.
        private let customReason: String?

        init(_ code: Int32 = errno, reason: String? = nil) {
            self.code = code
            customReason = reason
        }

        /// `No space left on device`, lowercased after the first letter as messages go.
        var reason: String {
            if let customReason { return customReason }
            let text = String(cString: strerror(code))
            guard let first = text.first else { return "error \(code)" }
            return first.lowercased() + text.dropFirst()
        }
    }

    /// Reads the whole of `fd`; `sizeHint` (the file size, if known) saves regrowing.
    static func readAll(_ fd: Int32, sizeHint: Int = 0) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var capacity = max(sizeHint + 1, 4096)  // one byte more, to see the end in the first pass
        while true {
            var failure: Int32 = 0
            let previous = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = buffer.initialize(from: previous).1
                while count < capacity {
                    let got = Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
                    if got > 0 {
                        count += got
                    } else if got == 0 {
                        return
                    } else if errno != EINTR {
                        failure = errno
                        return
                    }
                }
            }
            if failure != 0 { throw Failure(failure) }
            if bytes.count < capacity { return bytes }
            capacity *= 2
        }
    }

    /// Writes all of `bytes` to `fd`.
    static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(Failure) {
        let result: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if let result {
            if result != 0 { throw Failure(result) }
            return
        }
        try writeAll(fd, Array(bytes))
    }

    /// Writes a string to standard output or standard error.
    static func print(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        var text = text
        text.withUTF8 { buffer in
            _ = try? writeAll(fd, buffer)
        }
    }

    /// `open(2)`, retried on `EINTR`.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(Failure) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure() }
        }
    }

    /// `lstat(2)`: information about the path itself, not a symlink's target.
    static func lstat(_ path: String) -> stat? {
        var info = stat()
        return Glibc.lstat(path, &info) == 0 ? info : nil
    }

    /// `stat(2)`: information about the file a path leads to.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return fstatat(AT_FDCWD, path, &info, 0) == 0 ? info : nil
    }

    /// The canonical absolute path, symlinks resolved.
    static func realpath(_ path: String) throws(Failure) -> String {
        guard let resolved = Glibc.realpath(path, nil) else { throw Failure() }
        defer { free(resolved) }
        // A repaired spelling would name another file.
        guard let text = String(validatingCString: resolved) else {
            throw Failure(EILSEQ, reason: "its real path is not valid UTF-8")
        }
        return text
    }

    /// The current directory's path, as bytes: it need not be UTF-8.
    static func currentDirectory() throws(Failure) -> [UInt8] {
        guard let cwd = getcwd(nil, 0) else { throw Failure() }
        defer { free(cwd) }
        return Array(UnsafeRawBufferPointer(start: cwd, count: strlen(cwd)))
    }

    /// Flushes a directory, so that a rename or link in it survives a power loss.
    static func syncDirectory(_ path: String) {
        guard let fd = try? open(path, O_RDONLY | O_DIRECTORY) else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Splitting paths without Foundation.
enum Path {
    /// The directory part: `a/b` for `a/b/c`, `.` for `c`, `/` for `/c`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component: `c` for `a/b/c`.
    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
