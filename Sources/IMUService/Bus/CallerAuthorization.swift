import CSystemd
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who may Pause, Resume and Reset: root and members of group `imukit` (the D-Bus policy says the
/// same; the daemon checks again so that a looser policy on some bus cannot widen it).
enum CallerAuthorization {
    static let group = "imukit"

    /// Reads the caller's effective UID (and, where the bus gives them, its groups) from sd-bus.
    static func isAllowed(_ m: OpaquePointer) -> Bool {
        var creds: OpaquePointer?
        let mask = UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_SUPPLEMENTARY_GIDS) | UInt64(SD_BUS_CREDS_AUGMENT)
        guard sd_bus_query_sender_creds(m, mask, &creds) >= 0, let creds else { return false }
        defer { sd_bus_creds_unref(creds) }
        var uid: uid_t = 0
        guard sd_bus_creds_get_euid(creds, &uid) >= 0 else { return false }
        if uid == 0 { return true }
        guard let groupID = gid(of: group) else { return false }
        var gids: UnsafePointer<gid_t>?
        let n = sd_bus_creds_get_supplementary_gids(creds, &gids)
        if n > 0, let gids, (0..<Int(n)).contains(where: { gids[$0] == groupID }) { return true }
        return userIsMember(uid: uid, of: group, gid: groupID)
    }

    static func gid(of name: String) -> gid_t? {
        guard let g = getgrnam(name) else { return nil }
        return g.pointee.gr_gid
    }

    /// From the user and group databases: primary group, or listed as a member.
    static func userIsMember(uid: uid_t, of name: String, gid: gid_t) -> Bool {
        guard let pw = getpwuid(uid) else { return false }
        if pw.pointee.pw_gid == gid { return true }
        let user = String(cString: pw.pointee.pw_name)
        guard let g = getgrnam(name), var member = g.pointee.gr_mem else { return false }
        while let p = member.pointee {
            if String(cString: p) == user { return true }
            member += 1
        }
        return false
    }
}
