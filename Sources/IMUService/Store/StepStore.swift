import Foundation
import IMUHistory
import IMUServiceClient
import Pedometer

/// What the engine needs from the history: HistoryStepStore (IMUHistory, SQLite) in the daemon, a
/// failing or memory double in unit tests. Not Sendable: the engine thread owns it.
public protocol StepStore: AnyObject {
    /// Buffers what the pedometer emitted since the last call. `mapping` nil = wall clock not
    /// synchronised yet (minutes are held by boot time and placed once a mapping arrives).
    func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot, mapping: BootTimeMapping?)
    func recordPause(bootSeconds: Double)
    func recordResume(bootSeconds: Double)
    /// Writes the buffer in one transaction; on a full disk throws and keeps the buffer.
    func commit() throws
    func totals(from: Date, to: Date) throws -> StepTotals
    func days(from: Date, to: Date, timeZone: TimeZone) throws -> [StepTotals]
    func activities(from: Date, to: Date) throws -> [StepActivity]
    /// What the store found that loses nothing now but needs a person, once each (minutes that
    /// cannot be placed on a date), for the journal.
    func takeNotices() -> [String]
}

extension StepStore {
    public func takeNotices() -> [String] { [] }
}

/// Is this storage error a full disk (HistoryError.diskFull: ENOSPC or SQLITE_FULL)?
enum StorageTrouble {
    static func isDiskFull(_ error: any Error) -> Bool {
        if case .diskFull? = error as? HistoryError { return true }
        return false
    }
}
