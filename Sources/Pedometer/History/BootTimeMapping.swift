#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Maps sample times (seconds on CLOCK_BOOTTIME) to wall-clock dates.
///
/// The boot clock counts suspend and never jumps, so it is the right clock for samples; people ask
/// about wall-clock days. The caller supplies the offset once: the wall-clock time at boot time 0.
/// (If the wall clock is later set by NTP, build a new mapping; history already recorded keeps
/// the dates it was given.)
public struct BootTimeMapping: Sendable, Equatable {
    /// Wall-clock date at which CLOCK_BOOTTIME read 0.
    public var wallTimeAtBoot: Date

    public init(wallTimeAtBoot: Date) {
        self.wallTimeAtBoot = wallTimeAtBoot
    }

    /// The mapping for this machine now: wall clock minus the boot clock.
    public static func current() -> BootTimeMapping {
        BootTimeMapping(wallTimeAtBoot: Date().addingTimeInterval(-BootClock.nowSeconds()))
    }

    /// The wall-clock date of boot-clock second `bootSeconds`.
    public func date(bootSeconds: Double) -> Date {
        wallTimeAtBoot.addingTimeInterval(bootSeconds)
    }

    /// The boot-clock second of `date`.
    public func bootSeconds(of date: Date) -> Double {
        date.timeIntervalSince(wallTimeAtBoot)
    }
}
