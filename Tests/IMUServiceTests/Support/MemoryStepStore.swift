import Foundation
import IMUHistory
import IMUService
import IMUServiceClient
import Pedometer
import Synchronization

/// A test double for the engine's unit tests: minutes in memory, and a switch that makes commits
/// fail like a full disk. The daemon's history is IMUHistory (HistoryStepStore).
final class MemoryStepStore: StepStore {
    struct Minute { var steps = 0, distance = 0.0, up = 0, down = 0, active = 0.0 }
    private var minutes: [Int64: Minute] = [:]
    private var segments: [StepActivity] = []
    private var held: [PedometerEvent] = []
    private var lastSnapshot = PedometerSnapshot()
    let faults: StoreFaults

    init(faults: StoreFaults = StoreFaults()) { self.faults = faults }

    func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot, mapping: BootTimeMapping?) {
        held += events
        let distance = max(0, snapshot.distanceMeters - lastSnapshot.distanceMeters)
        let active = max(0, snapshot.activeDuration - lastSnapshot.activeDuration)
        lastSnapshot = snapshot
        guard let mapping else { return }
        let key = { (t: Double) in Int64((mapping.date(bootSeconds: t).timeIntervalSince1970 / 60).rounded(.down)) }
        for e in held {
            switch e {
            case let .step(t): minutes[key(t), default: Minute()].steps += 1
            case let .floor(t, d):
                if d == .up { minutes[key(t), default: Minute()].up += 1 } else { minutes[key(t), default: Minute()].down += 1 }
            case let .activity(s):
                segments.append(StepActivity(start: mapping.date(bootSeconds: s.start), end: mapping.date(bootSeconds: s.end),
                                             activity: s.activity, confidence: s.confidence))
            default: break
            }
        }
        held.removeAll()
        minutes[key(snapshot.time), default: Minute()].distance += distance
        minutes[key(snapshot.time), default: Minute()].active += active
    }

    func recordPause(bootSeconds: Double) {}
    func recordResume(bootSeconds: Double) {}

    func commit() throws {
        if faults.diskFull.withLock({ $0 }) { throw HistoryError.diskFull(path: "/test/history.sqlite", bufferedMinutes: minutes.count) }
        faults.commits.withLock { $0 += 1 }
    }

    func totals(from: Date, to: Date) throws -> StepTotals {
        let stall = faults.stallQueriesSeconds.withLock { $0 }
        if stall > 0 { Thread.sleep(forTimeInterval: stall) }
        var t = StepTotals(start: from, end: to)
        let lo = Int64((from.timeIntervalSince1970 / 60).rounded(.down)), hi = Int64((to.timeIntervalSince1970 / 60).rounded(.up))
        for (k, m) in minutes where k >= lo && k < hi {
            t.steps += m.steps; t.distanceMeters += m.distance; t.floorsAscended += m.up; t.floorsDescended += m.down
            t.activeSeconds += m.active
        }
        return t
    }

    func days(from: Date, to: Date, timeZone: TimeZone) throws -> [StepTotals] {
        var out: [StepTotals] = []
        var day = LocalDay.interval(containing: from, in: timeZone)
        while day.start < to {
            out.append(try totals(from: day.start, to: day.end))
            day = LocalDay.interval(containing: day.end, in: timeZone)
        }
        return out
    }

    func activities(from: Date, to: Date) throws -> [StepActivity] {
        segments.filter { $0.end > from && $0.start < to }
    }
}

/// Switches a test flips from its own thread while the engine thread owns the store.
final class StoreFaults: Sendable {
    let diskFull = Mutex(false)
    let commits = Mutex(0)
    /// Queries sleep this long (a stuck disk).
    let stallQueriesSeconds = Mutex(0.0)
}
