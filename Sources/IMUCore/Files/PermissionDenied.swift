#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a file call's errno means "not allowed": EACCES and EPERM, and EROFS (a read-only file
/// system refuses a write as firmly). Such a failure exits 3 with a fix (docs/CONTRACTS.md §4); the
/// errors of files that tools open, create and write (recordings, configs, calibrations, plots)
/// all decide it here.
public func isPermissionDenied(errno code: Int32) -> Bool {
    code == EACCES || code == EPERM || code == EROFS
}
