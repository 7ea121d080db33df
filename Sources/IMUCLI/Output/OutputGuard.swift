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
}
