#if canImport(Glibc)
import Glibc
#endif

/// The user who must own the MQTT credentials file: the user the service runs as, who reads it
/// (`MQTTCredentials.load`). Named in the refusal, so that a run as another user (root trying a
/// config, docs/mqtt.md) says whose file it must be and why.
public struct CredentialsOwner: Sendable, Equatable {
    public var uid: uid_t
    /// The account's name ("imu-stepd"), or "uid N" when the password database has none.
    public var name: String
    /// Why this user: the process's own user, or the service's user as installed.
    public var reason: String

    public init(uid: uid_t, name: String, reason: String) {
        self.uid = uid
        self.name = name
        self.reason = reason
    }

    /// This process's effective user: the service runs as itself.
    public static var thisProcess: CredentialsOwner {
        let uid = geteuid()
        return CredentialsOwner(uid: uid, name: accountName(uid), reason: "the user this runs as")
    }

    /// The account name of `uid` from the password database, or "uid N".
    public static func accountName(_ uid: uid_t) -> String {
        var entry = passwd(), result: UnsafeMutablePointer<passwd>?
        // 4096 bytes: glibc's sysconf(_SC_GETPW_R_SIZE_MAX) on Linux is 1024; a few lines of /etc/passwd fit.
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return "uid \(uid)"
        }
        return String(cString: name)
    }

    /// The uid of the account `name`, or nil when there is none.
    public static func uid(ofAccount name: String) -> uid_t? {
        var entry = passwd(), result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }
}
