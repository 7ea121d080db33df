import FoundationEssentials

/// The kernel's random id of this boot (proc(5): /proc/sys/kernel/random/boot_id). Boot-clock
/// times mean something only within one boot; the history files minutes that wait for the wall
/// clock under this id.
public enum BootID {
    public static func current() -> String {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        let id = text.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        // Without /proc (a container without it): one id per process start, so nothing from an
        // earlier start is placed with this boot's clock.
        return id.isEmpty ? "process-\(ProcessInfo.processInfo.processIdentifier)-\(Date().timeIntervalSince1970)" : id
    }
}
