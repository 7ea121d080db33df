import Synchronization

/// Where a source's sample times come from: what a recording's `clock:` line states
/// (docs/file-formats.md). Live times are all seconds on CLOCK_BOOTTIME; what differs is the
/// moment each time marks. A live source knows it only once its capture has started (an IIO
/// buffer's timestamp clock is settled when the buffer is set up, a silent chip FIFO is given up
/// for direct reads), so `SampleSource.timing` is nil until then.
public enum SampleTiming: Sendable, Equatable {
    /// The kernel stamped each scan (the IIO buffer's timestamp channel) on `clock`, its
    /// `current_timestamp_clock`, brought to CLOCK_BOOTTIME when it is another clock.
    case kernelStamps(clock: String)
    /// Each IIO buffer block timed by its arrival, its scans spread evenly since the block before,
    /// because the kernel's stamps could not be used (`reason`).
    case blockArrival(reason: String)
    /// The boot clock read just after each reading was polled (sysfs attributes or data registers).
    case polled
    /// A chip FIFO: the newest reading stamped when it was read, the earlier ones one output
    /// period apart before it (`FIFOTimestamper`).
    case fifo
    /// The simulator's own timeline.
    case simulated
    /// A recording replayed: its own times, and its `clock:` line when it has one.
    case recording(clock: String?)

    /// The text after `clock: `, or nil when there is nothing to say (a recording without one).
    public var clockLine: String? {
        let boot = "seconds on CLOCK_BOOTTIME"
        switch self {
        case let .kernelStamps(clock) where clock == "boottime":
            return "\(boot), the kernel's stamp of each scan (IIO timestamp channel, current_timestamp_clock boottime)"
        case let .kernelStamps(clock):
            return "\(boot), the kernel's stamp of each scan (IIO timestamp channel) on its \(clock) clock, shifted to CLOCK_BOOTTIME"
        case let .blockArrival(reason):
            return "\(boot) when each IIO buffer block arrived, its scans spread evenly since the block before (the kernel's stamps unused: \(reason))"
        case .polled:
            return "\(boot) just after each reading was polled"
        case .fifo:
            return "\(boot) when each chip FIFO read ended, earlier readings one output period apart before it"
        case .simulated:
            return "seconds on the simulator's timeline"
        case let .recording(clock):
            return clock
        }
    }
}

/// The timing a capture thread settled on, for the tool to read once batches come (written by the
/// capture thread before it hands over the batch it describes).
public final class TimingNote: Sendable {
    private let state = Mutex<SampleTiming?>(nil)

    public init() {}

    public var current: SampleTiming? { state.withLock { $0 } }
    public func set(_ timing: SampleTiming) { state.withLock { $0 = timing } }
}
