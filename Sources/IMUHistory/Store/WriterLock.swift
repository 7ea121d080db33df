import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One writer per history: an exclusive `flock(2)` on `PATH.lock`, held while the store is open
/// and released by the kernel when the process ends, also by SIGKILL. A second writer (a second
/// daemon started at once) is refused instead of counting every step twice. Readers take no lock.
///
/// A separate file, not the database: closing any descriptor of the database would drop the
/// POSIX locks SQLite holds on it (fcntl(2), "the locks are released when any file descriptor
/// for that file is closed"). Nothing is written into the lock file.
final class WriterLock {
    private let descriptor: Int32
    let lockPath: String

    init(historyPath path: String) throws(HistoryError) {
        lockPath = path + ".lock"
        let existed = FileManager.default.fileExists(atPath: lockPath)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            // A read-only file system was sent to "check that the directory exists and is writable
            // by this user", which no chmod or user changes.
            if errno == EROFS { throw HistoryError.cannotOpen(path: path, detail: HistoryError.readOnlyFileSystem) }
            throw HistoryError.cannotOpen(path: path, detail: "cannot open its lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if !existed { unlink(lockPath) }
            if code == EWOULDBLOCK { throw HistoryError.inUse(path: path) }
            throw HistoryError.cannotOpen(path: path, detail: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
        descriptor = fd
        createdLockFile = !existed
    }

    /// Whether this lock created the file (so a refused open can take it away again).
    let createdLockFile: Bool

    /// Removes the lock file if this lock created it, for an open that failed after locking.
    func abandon() {
        if createdLockFile { unlink(lockPath) }
    }

    /// Unlocks before closing: a child being spawned at this moment (between its fork and its
    /// exec) holds a copy of the descriptor, and the lock lasts while any copy is open unless
    /// LOCK_UN releases it (flock(2)), so a writer reopening the history could be refused.
    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
