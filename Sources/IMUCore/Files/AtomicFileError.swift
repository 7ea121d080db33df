#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `AtomicFile.write` could not write `path`: which step failed and its errno. Callers that know
/// what the file is for (the calibration store, imu-plot) turn it into their own error with a
/// fix that names their flags; this one's fix is the general one.
public struct AtomicFileError: DiagnosableError, Equatable {
    /// The file to be written (not its temporary name).
    public var path: String
    /// The step that failed: "create" (the temporary file), "write", "fsync" or "rename".
    public var operation: String
    /// errno of the failed call.
    public var errorNumber: Int32

    /// The system's text for `errorNumber`, e.g. "No space left on device".
    public var reason: String { String(cString: strerror(errorNumber)) }

    public var description: String { "cannot \(operation) \(path): \(reason)" }

    /// The directory that must be writable (the temporary file is created there).
    var directory: String {
        let parent = AtomicFile.directory(of: path)
        return parent.isEmpty ? "." : parent
    }

    public var fix: String? {
        if isPermissionDenied(errno: errorNumber) {
            return "make \(directory) writable by you (ls -ld \(directory) shows its owner and mode), or write the file elsewhere"
        }
        if errorNumber == ENOSPC || errorNumber == EDQUOT {
            return "free some space on the file system of \(directory) (df -h \(directory)), or write the file elsewhere"
        }
        return nil
    }

    /// Permission denied exits 3 (docs/CONTRACTS.md §4); other I/O errors 1.
    public var exitStatus: ExitStatus { isPermissionDenied(errno: errorNumber) ? .noSensor : .runtimeFailure }
}
