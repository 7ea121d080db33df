import Foundation

/// The `replay =` recording, checked when the config is read as every other file a setting names:
/// a missing one was found only when the source opened, after READY=1, and reported as a lost
/// sensor and retried, with no line of the config to edit.
enum ConfigReplayFile {
    static let fix = "name a recording that exists and is readable by the service (imu-record -o FILE makes one), "
        + "or remove the replay line to read the sensor"

    /// Why `path` cannot be replayed, with the errno when it cannot be opened (permission denied
    /// exits 3); nil when it is a readable file. A FIFO or device is left to the reader: opening
    /// one here could block. "-" is standard input.
    /// `asWritten` is the setting's text: when it was relative, the message names both it and
    /// `path`, the absolute file it means (`ConfigPaths`).
    static func problem(_ path: String, asWritten: String) -> (message: String, errorNumber: Int32)? {
        guard path != "-" else { return nil }
        let named = asWritten == path ? "'\(path.escapedValue)'" : "'\(asWritten.escapedValue)' (\(path.escapedValue))"
        var st = stat()
        guard stat(path, &st) == 0 else { return cannotOpen(named, errno) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return ("replay = \(named) is a directory, not a recording", 0)
        case S_IFREG:
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return cannotOpen(named, errno) }
            close(fd)
            return nil
        default: return nil
        }
    }

    private static func cannotOpen(_ named: String, _ error: Int32) -> (message: String, errorNumber: Int32) {
        ("replay = \(named) cannot be opened: \(String(cString: strerror(error)))", error)
    }
}
