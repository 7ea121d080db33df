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

    private let continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation
    private let losses: LossCounter

    /// The stream for the consumer and the channel for the capture thread, apart: `onStop` runs
    /// once when the consumer goes away (cancelled, or done with the stream), which Swift tells
    /// only when nothing else holds the stream. A channel that kept the stream too (as it did)
    /// kept it alive on the capture thread, so a consumer that stopped reading never stopped the
    /// capture, and a tool exited with the kernel's IIO buffer still enabled.
    public static func make(capacity: Int = BatchChannel.defaultCapacity, losses: LossCounter,
                            onStop: @escaping @Sendable () -> Void) -> (stream: AsyncThrowingStream<[MotionSample], any Error>, channel: BatchChannel) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [MotionSample].self,
                                                                    bufferingPolicy: .bufferingNewest(max(1, capacity)))
        continuation.onTermination = { _ in onStop() }
        return (stream, BatchChannel(continuation: continuation, losses: losses))
    }

    private init(continuation: AsyncThrowingStream<[MotionSample], any Error>.Continuation, losses: LossCounter) {
        self.continuation = continuation
        self.losses = losses
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
