import CSystemd
import Foundation
import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, and whether it can be trusted to put minutes on dates.
public protocol WallClock: Sendable {
    func now() -> Date
    /// False while a Raspberry Pi without RTC waits for NTP after boot.
    func isSynchronized() -> Bool
}

/// The machine's clock. Synchronised when the kernel says so (adjtimex(2) without STA_UNSYNC, as
/// NTP daemons leave it), when systemd-timesyncd has marked /run/systemd/timesync/synchronized, or
/// when an RTC (/dev/rtc0) kept the time over the power-off; and never before 2025-01-01 (a clock
/// that reads earlier was reset: a Pi boots at its last saved time or at 1970).
public struct SystemWallClock: WallClock {
    /// 2025-01-01T00:00:00Z, before this code was written: no correct clock reads earlier.
    static let earliestPlausible = Date(timeIntervalSince1970: 1_735_689_600)
    let trust: Bool

    public init(trust: Bool) { self.trust = trust }

    public func now() -> Date { Date() }

    public func isSynchronized() -> Bool {
        guard Date() >= Self.earliestPlausible else { return false }
        if trust { return true }
        var tx = timex()
        let state = adjtimex(&tx)
        // STA_UNSYNC (0x0040, <sys/timex.h>) is set until an NTP daemon disciplines the clock.
        if state != TIME_ERROR && (tx.status & 0x0040) == 0 { return true }
        return FileManager.default.fileExists(atPath: "/run/systemd/timesync/synchronized")
            || FileManager.default.fileExists(atPath: "/dev/rtc0")
    }
}
