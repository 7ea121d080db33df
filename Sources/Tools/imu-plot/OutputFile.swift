#if canImport(Glibc)
import Glibc
#endif
import IMUCLI

/// The output file could not be written (exit 1, or 3 when permission is denied; nothing
/// half-written is left behind in a regular file).
struct OutputError: DiagnosableError {
    var path: String
    /// errno of the failing call.
    var errorNumber: Int32
    /// What `path` is when it is a device or FIFO written in place (`SmallFile.kind(ofMode:)`).
    var kind: String? = nil
    /// The temporary file beside `path` could not be created (`AtomicFile.write`).
    var creatingBeside = false
    /// ENOENT creating a file in a directory that exists is a directory that takes no new files
    /// (/proc, /sys): "No such file or directory" for a plot named as an existing file misled.
    var reason: String {
        guard creatingBeside, errorNumber == ENOENT else { return String(cString: strerror(errorNumber)) }
        return "its directory \(AtomicFile.directory(of: path).escapedOnOneLine) takes no new files (a plot is written to a temporary file "
            + "beside the name and renamed over it, so it is never left cut off; creating that file gave 'No such file or directory')"
    }
    var description: String { "cannot write \(path.escapedOnOneLine): \(reason)" }
    /// Permission denied exits 3 (docs/CONTRACTS.md §4); a name too long is a bad -o, 2, as a
    /// directory or a missing directory are (PlotOptions); other I/O errors 1.
    var exitStatus: ExitStatus {
        isPermissionDenied(errno: errorNumber) ? .noSensor : errorNumber == ENAMETOOLONG ? .usage : .runtimeFailure
    }
    /// A full disk needs space, not another place's permissions; a full device (/dev/full)
    /// has no disk to free space on.
    var fix: String? {
        if let kind, [ENOSPC, EDQUOT, EFBIG].contains(errorNumber) {
            return "\(path.escapedOnOneLine) is \(kind), not a file on disk: write the plot to a file with -o, e.g. -o /tmp/plot.svg"
        }
        if errorNumber == ENAMETOOLONG {
            return "give -o a shorter name: \(PathLimits.sentence)"
        }
        return [ENOSPC, EDQUOT, EFBIG].contains(errorNumber) ? "free space on the disk, or write the plot to another one with -o"
            : "choose a writable place with -o, e.g. -o /tmp/plot.svg"
    }
}

enum OutputFile {
    /// Writes `text` whole: to a temporary file beside `path`, renamed over it at the end, so a
    /// failure (full disk, no permission) never leaves an empty or cut-off plot. "-" is stdout.
    /// A device, FIFO or symbolic link that exists is written in place: renaming over it would
    /// replace the node itself (/dev/null, a link to elsewhere).
    /// Returns false when standard output refused the text (full disk, closed): `ToolMain` says
    /// so at exit (exit 1), and the tool must not claim to have written it.
    static func write(_ text: String, to path: String) throws -> Bool {
        if path == "-" {
            Terminal.standardOutput.write(text)
            Terminal.standardOutput.waitUntilWritten()   // on the plot's own thread (RecordingPlot, DayPlot)
            return Terminal.standardOutput.failure == nil
        }
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG else {
            do { try AtomicFile.write(text, to: path) } catch {
                throw OutputError(path: path, errorNumber: error.errorNumber, creatingBeside: error.operation == "create")
            }
            return true
        }
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError(path: path, errorNumber: errno) }
        defer { close(fd) }
        if let e = AtomicFile.writeAll(Array(text.utf8), to: fd) {
            let kind = fstat(fd, &st) == 0 ? SmallFile.kind(ofMode: st.st_mode) : nil
            throw OutputError(path: path, errorNumber: e, kind: kind)
        }
        return true
    }
}
