import Foundation

/// Files named in the config file (`replay`, `state_directory`, `database`, `mqtt_credentials`,
/// `mqtt_ca_file`): a relative one is taken relative to the directory of the config file itself,
/// wherever that file is. Relative to the daemon's working directory (`/` under systemd) it named
/// a file the user never meant, and only `--config` run by hand from the right directory found it
/// (docs/service.md, "Paths in the config file").
struct ConfigPaths {
    /// The absolute directory holding the config file (`stepd.conf` alone: the working directory).
    let directory: String

    init(configPath: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        let absolute = configPath.hasPrefix("/") ? configPath : workingDirectory + "/" + configPath
        let parent = absolute.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        directory = Self.tidy(parent.joined(separator: "/"))
    }

    /// `value` as an absolute path: unchanged when it is absolute (or "-", standard input), else
    /// appended to `directory`. "." components and doubled slashes go; ".." stays, for the kernel
    /// to follow through any symbolic link as it would.
    func resolve(_ value: String) -> String {
        guard !value.hasPrefix("/"), value != "-" else { return value }
        return Self.tidy(directory + "/" + value)
    }

    private static func tidy(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
