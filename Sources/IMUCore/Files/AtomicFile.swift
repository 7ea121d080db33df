#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that readers see the old content or the new, never a mix: write a temporary
/// file in the same directory, fsync it, rename it over the target (rename(2) is atomic within a
/// file system), then fsync the directory so the rename itself survives a crash. A failure
/// removes the temporary file, so nothing half-written is left behind.
/// Used for saved calibrations, walker profiles and plots.
public enum AtomicFile {
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws(AtomicFileError) {
        // A bare file name lives in the current directory ("" would put the temporary file in /).
        let parent = Self.directory(of: path)
        let directory = parent.isEmpty ? "." : parent
        let temporary = directory + "/.\(path.split(separator: "/").last ?? "").tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw AtomicFileError(path: path, operation: "create", errorNumber: errno) }
        if let e = writeAll(Array(text.utf8), to: fd) {
            close(fd); unlink(temporary)
            throw AtomicFileError(path: path, operation: "write", errorNumber: e)
        }
        if fsync(fd) != 0 {
            let e = errno
            close(fd); unlink(temporary)
            throw AtomicFileError(path: path, operation: "fsync", errorNumber: e)
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let e = errno
            unlink(temporary)
            throw AtomicFileError(path: path, operation: "rename", errorNumber: e)
        }
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }

    /// Writes all of `bytes` to `fd` (again after EINTR or a short write); the errno of a
    /// failed write, nil when everything was written.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// The directory part of `path`, as NSString's `deletingLastPathComponent` gives it:
    /// "/a/b/c.json" → "/a/b", "/c.json" → "/", "c.json" → "" (trailing slashes ignored).
    public static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var head = trimmed[..<slash]
        while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
        return String(head)
    }
}
