#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a small file whole (a config, a saved calibration, a walker profile), at most `limit`
/// bytes: a path named by mistake (/dev/zero, a huge log) never fills memory, a directory is
/// named as one, and a failure keeps its errno so the message says why (permission, missing).
public enum SmallFile {
    public enum Failure: Error, Equatable {
        /// open(2) or read(2) failed with this errno (EISDIR for a directory).
        case system(Int32)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK for the open only: a FIFO without a writer reads as empty instead of
        // blocking the tool; a pipe with a writer (--config <(…)) is read as usual.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw .system(EISDIR) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, limit + 1 - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= limit else { throw .tooLarge(limit: limit) }
        return Array(bytes[..<count])
    }
}
