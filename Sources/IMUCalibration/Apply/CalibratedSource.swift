/// A source whose samples pass through a calibration: what every tool reads once a sensor has
/// been calibrated. Cancelling the consumer cancels the wrapped source.
///
/// The stream pulls one batch from the wrapped source each time the consumer asks for one, so it
/// holds no buffer of its own: the wrapped source's bound (a capture `BatchChannel`) stays the
/// only one, and what it drops is counted there.
public struct CalibratedSource: SampleSource {
    public let base: any SampleSource
    public let calibration: Calibration
    public var info: SourceInfo { base.info }
    public var losses: SampleLosses { base.losses }
    public var timing: SampleTiming? { base.timing }

    public init(_ base: any SampleSource, calibration: Calibration) {
        self.base = base
        self.calibration = calibration
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let upstream = Upstream(base.batches())
        let calibration = self.calibration
        return AsyncThrowingStream(unfolding: {
            try await upstream.next().map { $0.map(calibration.apply) }
        })
    }

    /// The wrapped stream's iterator, advanced by one consumer at a time.
    private actor Upstream {
        private var iterator: AsyncThrowingStream<[MotionSample], any Error>.Iterator
        init(_ stream: AsyncThrowingStream<[MotionSample], any Error>) { iterator = stream.makeAsyncIterator() }
        func next() async throws -> [MotionSample]? {
            // The iterator is a reference to the stream's storage: a copy advances the same stream.
            var it = iterator
            defer { iterator = it }
            return try await it.next(isolation: self)
        }
    }
}
