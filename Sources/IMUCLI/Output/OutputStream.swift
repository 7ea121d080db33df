import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer on a file descriptor whose `write(2)` calls run on `OutputWriter`'s thread,
/// never on the Swift concurrency pool: a terminal that is
/// paused (Ctrl-S) or a pipe whose reader stalls makes that thread wait, not the tool's tasks
/// (docs/concurrency.md, "Terminal output").
///
/// Text is collected in a 64 KiB buffer, so a replay printing thousands of JSON lines costs no
/// system call per line, and handed to the writer when it fills or on `flush()`. A hand-over
/// costs no wait (`OutputWriter`): a replay as fast as possible wakes the writer at most once per
/// batch that printed, and less often when batches come faster than it writes.
///
/// What has been handed over and not yet written is the backlog. An `async` producer calls
/// `flushed()`, which suspends while the backlog is over `backlogLimit`; a synchronous caller
/// blocks only past `blockingLimit`, so memory stays bounded when the reader never reads.
public final class OutputStream: Sendable {
    private let fd: Int32
    /// Bytes collected before they are handed over (64 KiB: few system calls, still small).
    private let limit = 1 << 16
    /// Capacity reserved past `limit`, bytes: one 4 KiB page, so the append that crosses the limit
    /// (a status or JSON line is far shorter) fits without the buffer growing.
    private static let headroomBytes = 4096
    /// Backlog, bytes, over which `flushed()` suspends: 1 MiB, the largest pipe buffer an
    /// unprivileged process may ask for (/proc/sys/fs/pipe-max-size's default, pipe(7)); more
    /// would only queue in memory what the reader is not reading.
    static let backlogLimit = 1 << 20
    /// Backlog, bytes, over which `write` and `flush` block the calling thread: four times
    /// `backlogLimit`, so the pipeline, which suspends at `backlogLimit` after each batch, never
    /// comes here with a batch's events (one batch prints well under 1 MiB); only a synchronous
    /// writer that goes on printing to a reader that stopped reading does.
    static let blockingLimit = 4 * backlogLimit

    /// Longest a line given to `flushed()` waits before it is handed to the writer, seconds:
    /// 0.1 s, the delay people take as instantaneous (R. B. Miller, "Response time in
    /// man-computer conversational transactions", 1968), and below a step's own detection delay.
    static let latencySeconds = 0.1

    private struct State: ~Copyable {
        /// Bytes collected, not yet handed over.
        var buffer: [UInt8] = []
        /// Bytes handed over to `OutputWriter` and not yet written.
        var backlog = 0
        /// Will `flushed()`'s timer hand the collected bytes over?
        var timerArmed = false
        /// Called on the writer when everything handed over before they came is written.
        var whenWritten: [@Sendable () -> Void] = []
        /// errno of the first write that failed (ENOSPC, EBADF, EPIPE, EIO…); nil while every write succeeded.
        var firstFailure: Int32?
        /// Lines (newlines) written to the descriptor, for "stopped after writing N lines": on a pipe
        /// that is into its buffer, not what its reader read.
        var linesWritten = 0
        /// Called once, on the writer, when the reader goes away (`onReaderGone`).
        var readerGoneHandler: (@Sendable () -> Void)?
    }
    private let state: Mutex<State>
    /// The stream whose collected text is handed over before this one's (standard output, for
    /// standard error): with `2>&1` both reach one pipe, and an error must come after the lines
    /// printed before it (imu-info's "no motion sensor found; each 'problem' line above …" came
    /// first, its problem lines after it).
    private let follows: OutputStream?

    public init(fd: Int32, follows: OutputStream? = nil) {
        self.fd = fd
        self.follows = follows
        var initial = State()
        initial.buffer.reserveCapacity(limit + Self.headroomBytes)
        state = Mutex(initial)
    }

    /// Is this descriptor a terminal?
    public var isTTY: Bool { isatty(fd) == 1 }

    /// May output here redraw in place and use colour? A terminal whose TERM is not "dumb"
    /// (Emacs shell buffers, some serial consoles and CI logs set TERM=dumb: escape sequences
    /// show there as garbage).
    public var acceptsEscapes: Bool { isTTY && Terminal.termAcceptsEscapes }

    /// The terminal's width in columns, asked each time (it changes when the window is resized);
    /// nil when this is not a terminal or the terminal does not say (a pty whose size was never set).
    public var columns: Int? {
        var size = winsize()
        // TIOCGWINSZ = 0x5413 (include/uapi/asm-generic/ioctls.h).
        guard ioctl(fd, UInt(0x5413), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Collects `text`; hands the buffer over when it holds 64 KiB. Never waits unless the
    /// backlog is past `blockingLimit`.
    public func write(_ text: String) {
        let backlog = state.withLock { s -> Int in
            // The reader of a pipe never comes back: what follows is dropped without a system call.
            guard s.firstFailure != EPIPE else { return 0 }
            s.buffer.append(contentsOf: text.utf8)
            if s.buffer.count >= limit { handOver(&s) }
            return s.backlog
        }
        if backlog > Self.blockingLimit { waitUntilWritten() }
    }

    /// Hands what is collected to the writer. Returns at once (the bytes are written shortly,
    /// in order); it blocks only when the backlog is past `blockingLimit`.
    public func flush() {
        let backlog = state.withLock { s in handOver(&s); return s.backlog }
        if backlog > Self.blockingLimit { waitUntilWritten() }
    }

    /// `flush()` for `async` code that prints a lot (the pipeline, once per batch): what is
    /// collected is handed over within `latencySeconds` (a timer on the writer's queue), not at
    /// once, so a replay as fast as possible wakes the writer a few times a second, not once per
    /// batch. Then suspends, holding no thread, while the backlog is past `backlogLimit`, until
    /// it is written. A cancelled task stops waiting (its output stays queued for the writer).
    public func flushed() async {
        let (arm, backlog) = state.withLock { s -> (Bool, Int) in
            let arm = !s.buffer.isEmpty && !s.timerArmed
            if arm { s.timerArmed = true }
            return (arm, s.backlog)
        }
        if arm {
            OutputWriter.shared.after(seconds: Self.latencySeconds) { [self] in
                state.withLock { s in s.timerArmed = false; handOver(&s) }
            }
        }
        if backlog > Self.backlogLimit { await written() }
    }

    /// Hands what is collected over and suspends until all of it is written (or has failed):
    /// `failure`, `readerGone` and `linesWritten` then count it. A cancelled task stops waiting.
    public func written() async {
        let waiter = Waiter()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                waiter.set(c)
                whenWritten { waiter.resume() }
            }
        } onCancel: {
            waiter.resume()
        }
    }

    /// `written()` for a thread that may wait: the exit path, a thread of our own.
    public func waitUntilWritten() {
        let done = DispatchSemaphore(value: 0)
        whenWritten { done.signal() }
        done.wait()
    }

    /// Why output was lost (e.g. "No space left on device"), or nil when nothing was (of what is
    /// written so far: `written()` first). Tools check it before exiting: output that did not
    /// arrive is a failure (exit 1), never a silent success.
    public var failure: String? {
        state.withLock { $0.firstFailure.map { String(cString: strerror($0)) } }
    }

    /// The errno behind `failure` (ENOSPC, EBADF, EIO…), or nil when nothing was lost.
    public var failureCode: Int32? { state.withLock { $0.firstFailure } }

    /// Has the program reading this pipe gone (`| head -1` that has its line, `| false`)? Tools
    /// ignore SIGPIPE (`ToolMain`), so the write failed with EPIPE instead of killing the tool.
    public var readerGone: Bool { state.withLock { $0.firstFailure == EPIPE } }

    /// Lines written to the descriptor so far (a line cut by a failed write is not counted); on a
    /// pipe, into its buffer: whether the reader read them is not known here.
    public var linesWritten: Int { state.withLock { $0.linesWritten } }

    /// Calls `handler` once when the reader goes away or any write fails (at once when one
    /// already has: full disk, closed descriptor), so a tool that would run until stopped stops as
    /// after Ctrl-C (`SignalTrap` registers its stop here). One handler: a later call replaces an earlier one.
    public func onReaderGone(_ handler: @escaping @Sendable () -> Void) {
        let goneAlready = state.withLock { s -> Bool in
            guard s.firstFailure == nil else { return true }
            s.readerGoneHandler = handler
            return false
        }
        if goneAlready { handler() }
    }

    /// Hands the collected bytes to `OutputWriter` (under the lock, so hand-overs keep their order),
    /// after what `follows` has collected. Locks are taken in one order, this stream's then the
    /// one it follows, so two streams never wait for each other.
    private func handOver(_ s: inout State) {
        guard !s.buffer.isEmpty else { return }
        if let follows { follows.state.withLock { follows.handOver(&$0) } }
        s.backlog += s.buffer.count
        OutputWriter.shared.hand(&s.buffer, from: self)
        s.buffer.reserveCapacity(limit + Self.headroomBytes)
    }

    /// Hands the collected bytes over and calls `done` on the writer once they are written, at
    /// once when nothing is left to write.
    private func whenWritten(_ done: @escaping @Sendable () -> Void) {
        let idle = state.withLock { s -> Bool in
            handOver(&s)
            guard s.backlog > 0 else { return true }
            s.whenWritten.append(done)
            return false
        }
        if idle { done() }
    }

    /// On `OutputWriter`'s thread: writes `bytes` handed over earlier, records the outcome, and
    /// calls those waiting once nothing handed over is left.
    func writeOut(_ bytes: [UInt8]) {
        let skip = state.withLock { $0.firstFailure == EPIPE }
        let result = skip ? DescriptorWriter.Result() : DescriptorWriter.write(bytes, to: fd)
        let (gone, done) = state.withLock { s -> ((@Sendable () -> Void)?, [@Sendable () -> Void]) in
            s.backlog -= bytes.count
            s.linesWritten += result.newlines
            var gone: (@Sendable () -> Void)?
            if let failure = result.failure, s.firstFailure == nil {
                s.firstFailure = failure
                // Any lost output stops a tool that would run on (a full disk too: a live
                // `--json > FILE` counted on for hours, writing nothing, until Ctrl-C).
                gone = s.readerGoneHandler
                s.readerGoneHandler = nil
            }
            guard s.backlog == 0 else { return (gone, []) }
            let done = s.whenWritten
            s.whenWritten = []
            return (gone, done)
        }
        gone?()
        for d in done { d() }
    }

    /// One continuation, resumed once: by the writer or by cancellation, whichever comes first.
    private final class Waiter: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, resumed: Bool)>((nil, false))

        func set(_ c: CheckedContinuation<Void, Never>) {
            let resumeNow = state.withLock { s -> Bool in
                if s.resumed { return true }
                s.continuation = c
                return false
            }
            if resumeNow { c.resume() }
        }

        func resume() {
            let c = state.withLock { s -> CheckedContinuation<Void, Never>? in
                s.resumed = true
                defer { s.continuation = nil }
                return s.continuation
            }
            c?.resume()
        }
    }
}
