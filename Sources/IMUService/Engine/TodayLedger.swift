import Foundation
import IMUServiceClient
import Pedometer

/// Today's totals without a database query per batch: the day's committed totals (read back after
/// each commit) plus what the pedometer counted since that read. After a failed commit (full disk)
/// the part since the read simply grows, so the totals stay right while nothing is written.
struct TodayLedger {
    /// Everything counted since the daemon started (survives pedometer restarts).
    private(set) var session = StepTotals(start: .distantPast, end: .distantPast)
    private var sessionAtBase = StepTotals(start: .distantPast, end: .distantPast)
    private var base: StepTotals?
    private var lastSnapshot = PedometerSnapshot()

    /// Adds one batch's events and the snapshot after it. `restarted` = a new pedometer whose
    /// counters start again from zero.
    mutating func add(_ events: [PedometerEvent], snapshot: PedometerSnapshot, restarted: Bool = false) {
        if restarted { lastSnapshot = PedometerSnapshot() }
        for e in events {
            switch e {
            case .step: session.steps += 1
            case let .floor(_, d): if d == .up { session.floorsAscended += 1 } else { session.floorsDescended += 1 }
            default: break
            }
        }
        session.distanceMeters += max(0, snapshot.distanceMeters - lastSnapshot.distanceMeters)
        session.activeSeconds += max(0, snapshot.activeDuration - lastSnapshot.activeDuration)
        lastSnapshot = snapshot
    }

    /// The pedometer was replaced: its next snapshot starts from zero.
    mutating func pedometerReplaced() { lastSnapshot = PedometerSnapshot() }

    /// The day's totals as stored, read right after a commit.
    mutating func rebase(_ stored: StepTotals) {
        base = stored
        sessionAtBase = session
    }

    var day: DateInterval? { base.map { DateInterval(start: $0.start, end: $0.end) } }

    /// Today = stored + counted since the read.
    var today: StepTotals {
        var t = base ?? StepTotals(start: .distantPast, end: .distantPast)
        t.steps += session.steps - sessionAtBase.steps
        t.distanceMeters += session.distanceMeters - sessionAtBase.distanceMeters
        t.floorsAscended += session.floorsAscended - sessionAtBase.floorsAscended
        t.floorsDescended += session.floorsDescended - sessionAtBase.floorsDescended
        t.activeSeconds += session.activeSeconds - sessionAtBase.activeSeconds
        return t
    }
}
