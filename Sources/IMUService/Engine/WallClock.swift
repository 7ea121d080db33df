import Foundation
import IMUHistory

/// The wall clock, and whether it can be trusted to put minutes on dates.
public protocol WallClock: Sendable {
    func now() -> Date
    /// False while a Raspberry Pi without RTC waits for NTP after boot.
    func isSynchronized() -> Bool
}

/// The machine's clock, synchronised as IMUHistory's `WallClockSync` judges it (NTP through
/// adjtimex, or set from a battery-backed RTC at boot), or always with `clock = trust`; never
/// before `HistoryStore.earliestPlausibleDate` (a clock that reads earlier was never set).
public struct SystemWallClock: WallClock {
    let trust: Bool

    public init(trust: Bool) { self.trust = trust }

    public func now() -> Date { Date() }

    public func isSynchronized() -> Bool {
        guard Date() >= HistoryStore.earliestPlausibleDate else { return false }
        return trust || WallClockSync.state() != .unsynchronised
    }
}
