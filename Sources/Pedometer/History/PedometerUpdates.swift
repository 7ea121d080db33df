#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Cumulative totals since a start date, as an `AsyncSequence` with an explicit buffering policy,
/// like `CMPedometer.startUpdates(from:)`.
///
/// The producer side (`PedometerUpdates.Feeder`) is handed the history and the live snapshot
/// after each batch of samples; every update carries the totals from the start date to the
/// latest sample (a start date in the past is served from the history), plus the live cadence
/// and pace. With `.bufferingNewest(n)` a slow consumer
/// skips intermediate totals but always sees the newest ones: totals are cumulative, so nothing
/// is lost by skipping.
public struct PedometerUpdates: AsyncSequence, Sendable {
    public typealias Element = PedometerData
    public typealias AsyncIterator = AsyncStream<PedometerData>.Iterator

    private let stream: AsyncStream<PedometerData>

    /// Creates the sequence and its feeder. `bufferingPolicy` is explicit on purpose: the
    /// default of `AsyncStream` (unbounded) would grow without limit behind a stalled consumer.
    public static func make(from startDate: Date,
                            bufferingPolicy: AsyncStream<PedometerData>.Continuation.BufferingPolicy)
        -> (updates: PedometerUpdates, feeder: Feeder) {
        let (stream, continuation) = AsyncStream<PedometerData>.makeStream(bufferingPolicy: bufferingPolicy)
        return (PedometerUpdates(stream: stream), Feeder(startDate: startDate, continuation: continuation))
    }

    public func makeAsyncIterator() -> AsyncIterator { stream.makeAsyncIterator() }

    /// The producing end. Thread-safe: it may be called from any task.
    public final class Feeder: Sendable {
        public let startDate: Date
        let continuation: AsyncStream<PedometerData>.Continuation
        private let baseline = Mutex<Baseline?>(nil)

        struct Baseline {
            var snapshot: PedometerSnapshot
            var before: PedometerData
        }

        init(startDate: Date, continuation: AsyncStream<PedometerData>.Continuation) {
            self.startDate = startDate
            self.continuation = continuation
        }

        /// Publishes the totals since `startDate` up to the snapshot's time: what the history
        /// holds from `startDate` to the first published snapshot, plus everything the live
        /// pedometer counted since then.
        @discardableResult
        public func publish(history: PedometerHistory, snapshot: PedometerSnapshot) -> PedometerData {
            let now = history.mapping.date(bootSeconds: snapshot.time)
            let base = baseline.withLock { stored -> Baseline in
                if let stored { return stored }
                let before = now > startDate ? history.query(from: startDate, to: now)
                                             : PedometerData(startDate: startDate, endDate: startDate)
                let made = Baseline(snapshot: snapshot, before: before)
                stored = made
                return made
            }
            let caps = history.capabilities
            let steps = base.before.numberOfSteps + snapshot.steps - base.snapshot.steps
            let distance = (base.before.distance ?? 0) + snapshot.distanceMeters - base.snapshot.distanceMeters
            var data = PedometerData(startDate: startDate, endDate: Swift.max(now, startDate), numberOfSteps: steps)
            if caps.isDistanceAvailable { data.distance = distance }
            if caps.isFloorCountingAvailable {
                data.floorsAscended = (base.before.floorsAscended ?? 0) + snapshot.floorsAscended - base.snapshot.floorsAscended
                data.floorsDescended = (base.before.floorsDescended ?? 0) + snapshot.floorsDescended - base.snapshot.floorsDescended
            }
            data.currentCadence = snapshot.currentCadence
            data.currentPace = snapshot.currentPace
            data.averageActivePace = snapshot.averageActivePace
            continuation.yield(data)
            return data
        }

        /// Ends the sequence (the source stopped).
        public func finish() { continuation.finish() }
    }
}
