import CSystemd
import Foundation
import IMUServiceClient
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per state directory: an exclusive flock(2) on STATE/imu-stepd.lock, held for the
/// process's life (the kernel drops it when the process dies, also on SIGKILL). The file holds
/// the owner's PID so that the second daemon can name it.
public final class InstanceLock: Sendable {
    private let fd: Int32
    public let path: String

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let e = errno
            throw ServiceError.lock(path: path, reason: Errno.text(e),
                                    fix: e == EACCES ? "run as the imu-stepd user (systemctl start imu-stepd) or as root" : "check that \(URL(fileURLWithPath: path).deletingLastPathComponent().path) exists and is writable")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            var owner = ""
            var buf = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buf, 31, 0)
            if n > 0, let pid = Int(String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) { owner = " (PID \(pid))" }
            close(fd)
            if e == EWOULDBLOCK {
                throw ServiceError.alreadyRunning(path: path, owner: owner)
            }
            throw ServiceError.lock(path: path, reason: Errno.text(e), fix: "check the file system holding \(path)")
        }
        let text = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
        self.fd = fd
    }

    /// Unlocks before closing: the lock belongs to the open file description, which a child being
    /// spawned at this moment (by another thread, between its fork and its exec) holds a copy of,
    /// so a close alone would leave the file locked until that child execs. LOCK_UN through any
    /// copy releases it for all of them (flock(2)).
    deinit {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
