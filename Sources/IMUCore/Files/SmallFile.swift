#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a small file whole (a config, a saved calibration, a walker profile, the MQTT
/// credentials), at most `limit` bytes: a path named by mistake (/dev/zero, a huge log) never
/// fills memory, a directory is named as one, a FIFO, device or socket is refused before it is
/// opened, and a failure keeps its errno so the message says why (permission, missing).
public enum SmallFile {
    public enum Failure: Error, Equatable {
        /// open(2) or read(2) failed with this errno (EISDIR for a directory).
        case system(Int32)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// The path (followed through symbolic links) is `kind` (`kind(ofMode:)`), no regular
        /// file: a FIFO without a writer read as empty (or blocked), /dev/null as an empty file
        /// and /dev/zero as "too large", so a setting silently fell back to its default.
        case notARegularFile(kind: String)
    }

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        // stat(2) never opens the file: a FIFO without a writer cannot block here, and a device
        // is not opened at all (opening some has effects: a tape rewinds, a modem hangs up).
        var st = stat()
        if stat(path, &st) == 0, let kind = kind(ofMode: st.st_mode) { throw .notARegularFile(kind: kind) }
        // O_NONBLOCK for the open only: a FIFO put in the path's place since the stat does not
        // block the tool; the fstat below refuses it.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if fstat(fd, &st) == 0 {
            if let kind = kind(ofMode: st.st_mode) { throw .notARegularFile(kind: kind) }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .system(EISDIR) }
        }
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

    /// What a file of `mode` (stat(2)'s st_mode) is when it is neither a regular file nor a
    /// directory ("a named pipe (FIFO)", "a character device", …), for messages that say
    /// "PATH is …, not a …"; nil for those two (a directory has messages of its own: EISDIR).
    public static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: nil
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }
}
