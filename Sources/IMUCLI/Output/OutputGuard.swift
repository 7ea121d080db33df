#if canImport(Glibc)
import Glibc
#endif

/// Refuses to write over the input: imu-record's --out, imu-plot's -o.
public enum OutputGuard {
    /// Are `a` and `b` the same file (same device and inode, through symbolic links)? False when
    /// either does not exist yet.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    /// Is `path` a FIFO, /dev/null or /dev/full (through symbolic links)? Those take a stream
    /// and are written in place, never replaced (`RecordingWriter`), so writing there
    /// overwrites no file. Other devices (a disk, /dev/mem) are not: they still need --force.
    public static func isStreamSink(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        switch st.st_mode & S_IFMT {
        case S_IFIFO: return true
        // Memory devices, major 1: null is minor 3, full is minor 7 (Documentation/admin-guide/devices.txt).
        // glibc's dev_t split (bits/sysmacros.h: major in bits 8–19 and 32–43, minor in 0–7 and 20–31).
        case S_IFCHR:
            let dev = UInt64(st.st_rdev)
            let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
            let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
            return major == 1 && (minor == 3 || minor == 7)
        default: return false
        }
    }

    /// What standard output is when it is no file on disk (`SmallFile.kind(ofMode:)`: "a
    /// character device" for `> /dev/full`), else nil. A write refused there with ENOSPC has
    /// no disk to free space on.
    public static func standardOutputDevice() -> String? {
        var st = stat()
        return fstat(STDOUT_FILENO, &st) == 0 ? SmallFile.kind(ofMode: st.st_mode) : nil
    }

    /// The fix for output that a full device (/dev/full) refused, ending "…: `alternative`".
    public static func fullDeviceFix(_ device: String, alternative: String) -> String {
        "standard output is \(device) (such as /dev/full), not a file on disk: \(alternative)"
    }
}
