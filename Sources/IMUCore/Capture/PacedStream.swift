import Dispatch
import Synchronization

/// A recording or a simulation played in real time, or a recording read as fast as possible, on
/// a thread of its own (`CaptureThread`): the thread makes a batch, sleeps once until it is due on
/// the boot clock, if it has a due time (poll(2) on the stop pipe: one wake-up per batch, and at
/// once when the consumer goes away), hands it over and makes the next. So the file reads and the waits never run on the Swift pool, and pacing costs no
/// timer thread: `Task.sleep` cost libdispatch's timer thread and a pool thread a wake-up each
/// per batch (docs/power.md).
///
/// Unlike a chip's FIFO, a file or a simulation can wait for a slow consumer: the thread stops
/// when `ahead` batches wait untaken (a consumer stuck on a blocked pipe, say), so memory stays
/// bounded and nothing is dropped.
package enum PacedStream {
    /// Batches handed over but not yet taken before the thread waits: enough to ride out a
    /// consumer's hiccup at any playback speed, few enough to be a few kilobytes.
    package static let ahead = 4

    /// Starts the thread. `next` runs on it only, one batch at a time: the batch and when it is
    /// due (boot clock, ns; nil: at once), or nil at the end; what it throws ends the stream after
    /// the batches before it. Dropping or cancelling the consumer stops the thread.
    ///
    /// `gather`: a consumer that has taken every waiting batch is woken when this many wait (or
    /// at the end). 1 (live or paced playback) hands each batch over as soon as it is made. A
    /// recording read from a regular file as fast as possible gives more (`PacedQueue.gathered`):
    /// no one waits for its batches, and a consumer faster than the reader is then woken once per
    /// `gather` batches instead of once per batch; up to `2 × gather` batches wait then.
    package static func make(source: String, gather: Int = 1,
                             _ next: sending @escaping () throws -> (batch: [MotionSample], dueNs: Int64?)?)
        -> AsyncThrowingStream<[MotionSample], any Error> {
        let queue = PacedQueue(capacity: max(ahead, 2 * gather), gather: gather)
        do {
            try CaptureThread.start(source: source) {
                do {
                    while !queue.stop.isSet, let item = try next() {
                        if let due = item.dueNs { queue.stop.sleep(untilNs: due) }
                        guard queue.put(item.batch) else { return }
                    }
                    queue.finish(nil)
                } catch {
                    queue.finish(error)
                }
            }
        } catch {
            queue.finish(error)
        }
        let consumer = PacedConsumer(queue)
        return AsyncThrowingStream(unfolding: { try await consumer.queue.take() })
    }
}

/// Stops the thread when the stream (and with it this) is dropped without being read to its end.
private final class PacedConsumer: Sendable {
    let queue: PacedQueue
    init(_ queue: PacedQueue) { self.queue = queue }
    deinit { queue.cancel() }
}

/// The hand-over between the pacing thread and the consumer: at most `capacity` batches waiting.
private final class PacedQueue: Sendable {
    let stop = StopSignal()
    /// Batches that wait before a waiting consumer is woken (1 ... capacity).
    private let gather: Int
    /// Room for batches: the thread takes one per batch, the consumer gives it back on taking it.
    private let room: DispatchSemaphore
    private struct State: Sendable {
        var batches: [[MotionSample]] = []
        /// How the stream ended (the thread's error, once), nil while it runs.
        var end: Result<Void, any Error>?
        /// The consumer, waiting for the next batch.
        var waiter: CheckedContinuation<[MotionSample]?, any Error>?

        /// What the consumer gets now: the first waiting batch, else the end (an error once,
        /// then nil), nil once `stopped`; nil when it has to wait.
        mutating func ready(stopped: Bool) -> Result<[MotionSample]?, any Error>? {
            if !batches.isEmpty { return .success(batches.removeFirst()) }
            if let end {
                self.end = .success(())   // an error is thrown once; then the stream is over
                return end.map { nil }
            }
            return stopped ? .success(nil) : nil
        }
    }
    private let state = Mutex(State())

    init(capacity: Int, gather: Int) {
        // Made at 0 and signalled up: libdispatch traps when a semaphore is freed below the value
        // it was made with, which a stream dropped with batches in flight would otherwise be.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, capacity) { room.signal() }
        // Never more than can wait: the thread would wait for room, the consumer for batches.
        self.gather = min(max(1, gather), max(1, capacity))
    }

    /// On the thread: waits for room and hands `batch` over; false once the consumer is gone.
    func put(_ batch: [MotionSample]) -> Bool {
        room.wait()
        guard !stop.isSet else { return false }
        let woken = state.withLock { s -> (CheckedContinuation<[MotionSample]?, any Error>, [MotionSample])? in
            s.batches.append(batch)
            guard let w = s.waiter, s.batches.count >= gather else { return nil }
            s.waiter = nil
            return (w, s.batches.removeFirst())
        }
        if let (waiter, first) = woken { waiter.resume(returning: first) }
        return true
    }

    /// On the thread: the end, normal (nil) or with the error that ended it. A waiting consumer
    /// gets the batches still waiting first.
    func finish(_ error: (any Error)?) {
        let woken = state.withLock { s -> (CheckedContinuation<[MotionSample]?, any Error>, [MotionSample]?)? in
            s.end = error.map { .failure($0) } ?? .success(())
            guard let w = s.waiter else { return nil }
            s.waiter = nil
            if !s.batches.isEmpty { return (w, s.batches.removeFirst()) }
            s.end = .success(())   // the error is thrown below, once
            return (w, nil)
        }
        guard let (waiter, first) = woken else { return }
        if first == nil, let error { waiter.resume(throwing: error) } else { waiter.resume(returning: first) }
    }

    /// The consumer: the next batch, nil at the end or once cancelled. A batch that waits is
    /// taken without suspending.
    func take() async throws -> [MotionSample]? {
        if Task.isCancelled { cancel() }   // as the handler below would: the thread stops
        let stopped = stop.isSet
        let batch: [MotionSample]?
        if let ready = state.withLock({ $0.ready(stopped: stopped) }) {
            batch = try ready.get()
        } else {
            batch = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<[MotionSample]?, any Error>) in
                    let ready = state.withLock { s -> Result<[MotionSample]?, any Error>? in
                        if let ready = s.ready(stopped: stop.isSet) { return ready }
                        s.waiter = c
                        return nil
                    }
                    if let ready { c.resume(with: ready) }
                }
            } onCancel: {
                cancel()
            }
        }
        if batch != nil { room.signal() }
        return batch
    }

    /// The consumer went away: stops the thread (also from its sleep or its wait for room) and
    /// ends a pending `take`.
    func cancel() {
        stop.set()
        room.signal()
        let waiter = state.withLock { s -> CheckedContinuation<[MotionSample]?, any Error>? in
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(returning: nil)
    }
}

/// When each batch of a recording or simulation played at `speed` × real time is due: its last
/// sample's time since the first sample, divided by `speed`, after the boot-clock instant of the
/// first batch. `RecordingSource` and `SimulatedSource` hand it to `PacedStream`.
package struct PaceClock: Sendable {
    /// Playback speed (2 = twice as fast); finite and above 0.
    package let speed: Double
    /// The first sample's time (s) and the boot clock (ns) when its batch was made.
    private var start: (time: Double, ns: Int64)?

    package init(speed: Double) { self.speed = speed }

    /// The largest offset from the first batch, in seconds: 10⁹ s (31 years) is 10¹⁸ ns, under
    /// Int64.max (9.2 × 10¹⁸ ns), so a clock gap of centuries in a file cannot overflow the Int64.
    static let offsetCapSeconds = 1e9

    /// Boot-clock ns at which a batch from `first` to `last` (sample times, s) is due; the first
    /// call starts the clock. The offset is capped at `offsetCapSeconds`.
    package mutating func dueNs(first: Double, last: Double) -> Int64 {
        let start = self.start ?? (first, BootClock.nowNanoseconds())
        self.start = start
        return start.ns + Int64(Units.nanoseconds(fromSeconds: min((last - start.time) / speed, Self.offsetCapSeconds)))
    }
}
