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

    /// Reads the whole of `fd`, but never more than `limit` bytes: past it, fails with
    /// `EFBIG` after reading at most one byte more. `sizeHint` (the file size, if known)
    /// saves regrowing; it is only a hint, as a file may grow or lie about its size.
    static func readAll(_ fd: Int32, sizeHint: Int = 0, limit: Int = .max) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        // One byte more than expected, to see the end in the first pass.
        var capacity = max(min(sizeHint, limit) + 1, 4096)
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
            if bytes.count > limit { throw Failure(EFBIG) }
            capacity = capacity > limit / 2 ? limit + 1 : capacity * 2
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

    /// Writes a string to standard output or standard error (``Surroundings/current``'s).
    static func print(_ text: String, to fd: Int32 = Surroundings.current.stdout) {
        var text = text
        text.withUTF8 { buffer in
            _ = try? writeAll(fd, buffer)
        }
    }

    /// `open(2)`, retried on `EINTR`.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) throws(Failure) -> Int32 {
        while true {
            let fd = Glibc.open(Surroundings.current.resolve(path), flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure() }
        }
    }

    /// `lstat(2)`: information about the path itself, not a symlink's target.
    static func lstat(_ path: String) -> stat? {
        try? lstatus(path)
    }

    /// `lstat(2)`, with the reason when it fails.
    static func lstatus(_ path: String) throws(Failure) -> stat {
        var info = stat()
        guard Glibc.lstat(Surroundings.current.resolve(path), &info) == 0 else { throw Failure() }
        return info
    }

    /// `fstat(2)`.
    static func fstatus(_ fd: Int32) throws(Failure) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure() }
        return info
    }

    /// `stat(2)`: information about the file a path leads to.
    static func status(_ path: String) -> stat? {
        try? statusOrFailure(path)
    }

    /// `stat(2)`, with the reason when it fails.
    static func statusOrFailure(_ path: String) throws(Failure) -> stat {
        var info = stat()
        guard fstatat(AT_FDCWD, Surroundings.current.resolve(path), &info, 0) == 0 else { throw Failure() }
        return info
    }

    /// `FS_APPEND_FL`, `FS_IMMUTABLE_FL` of `linux/fs.h`.
    static let appendOnlyFlag: Int32 = 0x20
    static let immutableFlag: Int32 = 0x10

    /// The inode flags of `chattr(1)` (`FS_IOC_GETFLAGS`), or nil where the file system
    /// keeps none or the path cannot be opened without blocking.
    static func attributeFlags(_ path: String) -> Int32? {
        guard let fd = try? open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW) else { return nil }
        defer { close(fd) }
        return attributeFlags(of: fd)
    }

    /// The inode flags of `chattr(1)` of an open file, or nil.
    static func attributeFlags(of fd: Int32) -> Int32? {
        var flags: Int32 = 0
        let getFlags: UInt = 0x8008_6601  // FS_IOC_GETFLAGS: _IOR('f', 1, long) on 64-bit Linux
        return ioctl(fd, getFlags, &flags) == 0 ? flags : nil
    }

    /// The canonical absolute path, symlinks resolved.
    static func realpath(_ path: String) throws(Failure) -> String {
        guard let resolved = Glibc.realpath(Surroundings.current.resolve(path), nil) else { throw Failure() }
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

    /// An environment variable of the run (``Surroundings/current``).
    static func environment(_ name: String) -> String? {
        Surroundings.current.environment(name)
    }

    /// Seconds on a clock that never jumps: for deadlines.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps for `seconds` (a signal may cut it short, which callers tolerate).
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        _ = nanosleep(&pause, nil)
    }
}

extension stat {
    /// Whether this and `other` are the same file: same device, same inode.
    func isSameFile(as other: stat) -> Bool {
        st_dev == other.st_dev && st_ino == other.st_ino
    }

    var isRegularFile: Bool { st_mode & S_IFMT == S_IFREG }

    /// What kind of file this is, for messages: `a directory`, `a FIFO`, ….
    var kind: String {
        switch st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }
}

/// A byte count as people read it: `512 bytes`, `1.5 KiB`, `30 GiB`.
func byteCount(_ count: Int) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    guard count >= 1024 else { return "\(count) byte\(count == 1 ? "" : "s")" }
    var value = Double(count) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    let tenths = (value * 10).rounded() / 10
    return (tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)) + " " + units[unit]
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
