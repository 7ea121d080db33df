import FoundationEssentials
import IMUCore

/// The kernel's random id of this boot (proc(5): /proc/sys/kernel/random/boot_id). Boot-clock
/// times mean something only within one boot; the history files minutes that wait for the wall
/// clock under this id.
public enum BootID {
    public static func current() -> String {
        // SmallFile, not String(contentsOfFile:): Foundation opens without O_CLOEXEC, so a child
        // another thread spawns meanwhile would inherit the file. 64 bytes: a UUID's 36 and a newline.
        let bytes = (try? SmallFile.read("/proc/sys/kernel/random/boot_id", limit: 64)) ?? []
        let text = String(decoding: bytes, as: UTF8.self)
        let id = text.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        // Without /proc (a container without it): one id per process start, so nothing from an
        // earlier start is placed with this boot's clock.
        return id.isEmpty ? "process-\(ProcessInfo.processInfo.processIdentifier)-\(Date().timeIntervalSince1970)" : id
    }
}
