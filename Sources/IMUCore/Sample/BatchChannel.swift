/// The one hand-over from a capture thread to the pipeline: a bounded buffer of batches that
/// keeps the newest and counts what it drops (`SampleLosses.stalledConsumer`).
///
/// A capture thread cannot wait for a slow consumer: the chip's FIFO or the kernel's buffer would
/// overflow instead, with a loss nobody could count. So the hand-over is bounded and drops the
/// oldest batches when the consumer stalls, counting their samples.
public struct BatchChannel: Sendable {
    /// Batches held for a consumer that is behind: half a minute of hand-overs (`HandOver.seconds`),
    /// about 3 000 samples at 100 Hz or 500 KB; more would only hide a stuck consumer.
    public static let defaultCapacity = max(1, Int((30 / HandOver.seconds).rounded(.up)))

    public let stream: AsyncThrowingStream<[MotionSample], any Error>
    private let continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation
    private let losses: LossCounter

    /// `onStop` runs once when the consumer goes away (cancelled or finished reading).
    public init(capacity: Int = BatchChannel.defaultCapacity, losses: LossCounter,
                onStop: @escaping @Sendable () -> Void) {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: [MotionSample].self,
                                                                 bufferingPolicy: .bufferingNewest(max(1, capacity)))
        self.losses = losses
        continuation.onTermination = { _ in onStop() }
    }

    /// Hands a batch over; when the buffer is full the oldest batch is dropped and counted.
    public func send(_ batch: [MotionSample]) {
        guard !batch.isEmpty else { return }
        if case .dropped(let old) = continuation.yield(batch) { losses.add(stalledConsumer: old.count) }
    }

    /// The end of the stream, normal or with the error that ended it.
    public func finish(throwing error: (any Error)? = nil) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
    }
}
