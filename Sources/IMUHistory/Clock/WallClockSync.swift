import CClock
import FoundationEssentials

/// Whether the wall clock can be trusted yet, for `HistoryStore.record(_:snapshot:mapping:)`.
///
/// A Raspberry Pi has no real-time clock: it boots at 1970, or at the time fake-hwclock saved at
/// the last shutdown, until an NTP client (systemd-timesyncd, chrony, ntpd) sets the clock. The
/// kernel keeps the answer in the NTP status word: `STA_UNSYNC` is set at boot and whenever the
/// clock is set by hand, and an NTP client clears it once it disciplines the clock (adjtimex(2);
/// `adjtimex` then returns `TIME_ERROR` while unsynchronised). Reading it (modes = 0) needs no
/// privilege and works inside systemd's sandbox. `timedatectl`'s "System clock synchronized"
/// reads the same bit.
///
/// A board with a battery-backed RTC (the PinePhone) has a right clock from boot on: the kernel
/// copied it from the RTC (`/sys/class/rtc/rtcN/hctosys` reads 1), and that also counts as
/// synchronised, so an offline phone still files its minutes under the right day.
public enum WallClockSync {
    public enum State: String, Sendable {
        /// An NTP client disciplines the clock (STA_UNSYNC clear).
        case ntp
        /// The kernel set the clock from a battery-backed RTC at boot.
        case rtc
        /// Neither: the wall clock may be 1970 or yesterday.
        case unsynchronised
    }

    /// The state now.
    public static func state(rtcDirectory: String = "/sys/class/rtc") -> State {
        var status = timex()
        let result = adjtimex(&status)
        if result >= 0 && result != TIME_ERROR && (status.status & STA_UNSYNC) == 0 { return .ntp }
        if clockWasSetFromRTC(rtcDirectory) { return .rtc }
        return .unsynchronised
    }

    /// The boot-to-wall mapping when the wall clock is synchronised, else nil: what
    /// `HistoryStore.record` expects.
    public static func mapping() -> BootTimeMapping? {
        state() == .unsynchronised ? nil : BootTimeMapping.current()
    }

    /// True when a `hctosys` attribute under `directory` reads 1 (rtc(4), sysfs-class-rtc ABI).
    static func clockWasSetFromRTC(_ directory: String) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.contains { name in
            let text = try? String(contentsOfFile: "\(directory)/\(name)/hctosys", encoding: .utf8)
            return text?.split(whereSeparator: \.isWhitespace) == ["1"]
        }
    }
}
