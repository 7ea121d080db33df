#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A problem in a recording file, reported as `FILE:LINE: what is wrong` (docs/CONTRACTS.md §2),
/// or a recording that could not be opened or created (`access`).
public struct RecordingError: DiagnosableError, Equatable {
    /// File name as given by the user.
    public var file: String
    /// 1-based line number; 0 when the problem concerns the whole file (e.g. it cannot be opened).
    public var line: Int
    public var message: String
    /// errno of a file that could not be opened or created (`access`); 0 for a problem in its content.
    public var errorNumber: Int32 = 0
    /// errno of a write or fsync that failed (ENOSPC, EFBIG, EPIPE…: `RecordingWriter`); 0 otherwise.
    public var writeErrorNumber: Int32 = 0
    /// What to do, when the message alone does not say it.
    public var fix: String?

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// The fix of a recording without a usable header line.
    /// Names other programs give the time column (lower-cased), refused with "rename it to t".
    static let timeColumnNames: Set<String> = ["time", "timestamp", "time_s", "seconds", "sec", "secs", "ts", "elapsed", "t_s", "time (s)"]

    static let headerFix = "add a first line naming the columns in the order of the values, e.g. t,ax,ay,az (time in s, acceleration in g; docs/file-formats.md)"

    /// The fix of a malformed line: mend it or delete it. Lines of a CSV are independent samples,
    /// so deleting one loses only that sample; the columns' meanings are in docs/file-formats.md.
    static func mendLine(_ line: Int, of file: String) -> String {
        let shown = file.escapedValue
        // A file name the shell would split or expand is quoted; stdin has no file to edit.
        guard file != RecordingReader.standardInput else {
            return "mend or delete line \(line) of what is piped in (docs/file-formats.md lists the columns and their units)"
        }
        return "mend line \(line) of \(shown) (docs/file-formats.md lists the columns and their units) or delete it: sed -i '\(line)d' \(shellQuoted(file))"
    }

    /// `file` as a shell word, shown safely: quoted when the shell would split or expand it;
    /// control characters shown as \xNN, which bash reads back inside $'…'.
    public static func shellQuoted(_ file: String) -> String {
        let shown = file.escapedValue
        return shown.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) } ? shown
            : shown != file ? "$'" + shown.replacing("'", with: "\\'") + "'"
            : "'" + shown.replacing("'", with: "'\\''") + "'"
    }

    /// The fix of a recording whose columns are separated by `separator` (";" or a tab), not commas.
    static func separatorFix(_ separator: String, file: String) -> String {
        let convert = separator == ";" ? "sed 's/,/./g; s/;/,/g'" : "tr '\\t' ','"
        let how = file == RecordingReader.standardInput ? "pipe it through \(convert) first"
            : "e.g. \(convert) < \(shellQuoted(file)) > fixed.csv"
        return "save it as comma-separated values with a decimal point (docs/file-formats.md): \(how)"
    }

    /// `file` could not be opened for reading, or created (`creating`), with `errno` `code`.
    /// Permission problems exit 3 with the fix (docs/CONTRACTS.md §4); the rest are usage errors.
    public static func access(_ file: String, errno code: Int32, creating: Bool) -> RecordingError {
        let directory = file.lastIndex(of: "/").map { String(file[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let isDirectory = code == EISDIR
        // Shell words: a directory named "my walks" was shown as `mkdir -p my walks` (two directories).
        let (quotedFile, quotedDirectory) = (shellQuoted(file), shellQuoted(directory))
        var error = RecordingError(file: file, line: 0,
                                   message: isDirectory ? "is a directory, not a recording"
                                       : "cannot \(creating ? "create" : "open") recording: \(String(cString: strerror(code)))")
        error.errorNumber = code
        switch code {
        case let c where isPermissionDenied(errno: c):
            error.fix = creating ? "record where you may write, e.g. --out ~/walk.csv (ls -ld \(quotedDirectory) shows who may write there)"
                                 : "give yourself read access (ls -l \(quotedFile) shows its owner and mode), e.g. sudo chmod a+r \(quotedFile)"
        case ENOENT where creating && Self.isDirectory(directory):
            // `-o /proc/x.csv` was told to "mkdir -p /proc": the directory is there, and its file
            // system (procfs, sysfs) makes no files on request.
            error.fix = "\(quotedDirectory) exists but its file system makes no new files (a kernel one such as /proc or /sys): record to another place, e.g. --out ~/walk.csv"
        case ENOENT:
            error.fix = creating ? "create its directory first (mkdir -p \(quotedDirectory)) or choose another place"
                                 : "check the name (ls \(quotedDirectory)); '-' reads standard input"
        case EISDIR:
            error.fix = "name a file inside it, e.g. \(file.hasSuffix("/") ? file : file + "/")walk.csv"
        case ENAMETOOLONG:
            error.fix = "choose a shorter name: \(PathLimits.sentence)"
        case ENOTDIR:
            error.fix = "a part of the path before the file name is a file, not a directory: check it (ls -ld \(quotedDirectory))"
        case EROFS where creating:
            error.fix = "that file system is mounted read-only: record to another place, e.g. --out ~/walk.csv"
        default:
            break
        }
        return error
    }

    /// Whether `path` is a directory (stat(2), through symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
    public var exitStatus: ExitStatus {
        isPermissionDenied(errno: errorNumber) ? .noSensor : .usage
    }
}

extension RecordingError: RetryableError {
    /// Permanent: a problem at a line (the samples before it were delivered, and played again they
    /// would be counted again), a permission, a directory in place of the file. Transient: a file
    /// that is missing or empty (it may be written yet) and other failures to open it.
    public var isPermanent: Bool {
        line > 0 || isPermissionDenied(errno: errorNumber) || errorNumber == EISDIR
    }
}
