import Foundation
import IMUCore

/// The broker's user name and password, read from a file that only the service user may read.
///
/// The file holds two lines, `username=NAME` and `password=SECRET` (`#` starts a comment). It is
/// refused when its group or others have any permission (mode & 0o077), or when another user owns
/// it: a password another account can read is no secret. Secrets never come from the command line
/// (visible in `ps`) or the environment (visible in /proc/PID/environ to the same user).
public struct MQTTCredentials: Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The longest file accepted, bytes: two lines of a few hundred characters (MQTT allows
    /// 65535-byte fields, but no real password is longer than this).
    static let maximumFileSize = 8192

    /// Reads and checks `path`; `owner` is the user the service runs as (default: this process;
    /// imu-stepd run by root passes its service user, `ServiceUser`).
    public static func load(path: String, owner: CredentialsOwner = .thisProcess) throws(PublishError) -> MQTTCredentials {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw .credentials(path: path, problem: "cannot be read (\(String(cString: strerror(code))))",
                               fix: "create it with the two lines username=NAME and password=SECRET, owned by the service user, mode 600",
                               errorNumber: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            // "is not a regular file" named neither what it was nor what the file holds.
            let kind = SmallFile.kind(ofMode: info.st_mode) ?? "a directory"
            throw .credentials(path: path, problem: "is \(kind), not a credentials file",
                               fix: "point mqtt_credentials at a file with the two lines username=NAME and password=SECRET (e.g. /etc/imukit/mqtt-credentials)")
        }
        if info.st_mode & 0o077 != 0 {
            throw .credentials(path: path,
                               problem: "is readable by its group or by others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                               fix: "chmod 600 \(path)")
        }
        if info.st_uid != owner.uid {
            let holder = CredentialsOwner.accountName(info.st_uid)
            throw .credentials(path: path,
                               problem: "belongs to \(holder == "uid \(info.st_uid)" ? holder : "\(holder) (uid \(info.st_uid))"), "
                                   + "not to \(owner.name) (uid \(owner.uid)), \(owner.reason): only that user may own it",
                               fix: "sudo chown \(owner.name == "uid \(owner.uid)" ? "\(owner.uid)" : owner.name) \(path) && sudo chmod 600 \(path)")
        }
        let bytes: [UInt8]
        do { bytes = try SmallFile.read(path, limit: maximumFileSize) } catch {
            switch error {
            case .system(let code):
                // Mode 000 or a directory on the way passed the checks above: it was named "not a small UTF-8 text file".
                throw .credentials(path: path, problem: "cannot be read (\(String(cString: strerror(code))))",
                                   fix: "let the user imu-stepd runs as read it: chown that user \(path), then chmod 600 \(path)",
                                   errorNumber: code)
            case .tooLarge(let limit):
                throw .credentials(path: path, problem: "is larger than \(limit) bytes: no credentials file",
                                   fix: "write the two lines username=NAME and password=SECRET")
            case .notARegularFile(let kind):   // put in its place since the stat above
                throw .credentials(path: path, problem: "is \(kind), not a credentials file",
                                   fix: "point mqtt_credentials at a file with the two lines username=NAME and password=SECRET (e.g. /etc/imukit/mqtt-credentials)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .credentials(path: path, problem: "is not UTF-8 text",
                               fix: "write the two lines username=NAME and password=SECRET")
        }
        var username: String?, password: String?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy(\.isWhitespace) || line.first == "#" { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw .credentials(path: "\(path):\(number + 1)", problem: "is not KEY=VALUE",
                                   fix: "write the two lines username=NAME and password=SECRET")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: equals)...])
            // libmosquitto takes C strings: a NUL ended the value there, and the broker refused a
            // password cut short, with a fix (mend the file) that showed nothing wrong in it.
            if value.contains("\0") {
                throw .credentials(path: "\(path):\(number + 1)", problem: "the \(key.escapedForTerminal) holds a NUL byte, which cannot be sent to a broker (it would end the value there)",
                                   fix: "write the value without NUL bytes (cat -A \(path) shows them as ^@)")
            }
            switch key {
            case "username": username = value
            case "password": password = value
            default:
                throw .credentials(path: "\(path):\(number + 1)", problem: "unknown key \(key.escapedForTerminal)",
                                   fix: "only username= and password= belong in this file")
            }
        }
        guard let username, !username.isEmpty, let password else {
            throw .credentials(path: path, problem: "lacks a username= or password= line",
                               fix: "write the two lines username=NAME and password=SECRET")
        }
        return MQTTCredentials(username: username, password: password)
    }
}
