import IMUPublish
#if canImport(Glibc)
import Glibc
#endif

/// The user imu-stepd runs as: `User=imu-stepd` in data/imu-stepd.service, created by
/// data/imu-stepd.sysusers.conf. Files only the service may read (the MQTT credentials) must be
/// this user's, also when root reads the config to try it (`sudo imu-stepd --config …`):
/// root could read a file of any owner, but the service could not.
public enum ServiceUser {
    /// The account name in the unit's `User=` and the sysusers line.
    public static let name = "imu-stepd"

    /// Who must own the credentials file. As root, with the service user installed: that user,
    /// whose file the installed service reads (a root-owned file passes a root trial, then fails
    /// at the real start). Otherwise this process's user: the service itself, or a developer
    /// running a config of their own (no service user installed).
    public static func credentialsOwner(effectiveUID: uid_t = geteuid(),
                                        installedUID: uid_t? = CredentialsOwner.uid(ofAccount: name)) -> CredentialsOwner {
        if effectiveUID == 0, let installedUID, installedUID != 0 {
            return CredentialsOwner(uid: installedUID, name: name,
                                    reason: "the user the installed service runs as (User=\(name) in imu-stepd.service; "
                                        + "run as root, the file is checked as the service will read it)")
        }
        return CredentialsOwner(uid: effectiveUID, name: CredentialsOwner.accountName(effectiveUID), reason: "the user imu-stepd runs as here")
    }
}
