import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The thread a source captures on (docs/ARCHITECTURE.md, "Capture"): one per source, owning
/// its chip drivers or IIO readers (or a paced recording or simulation, `PacedStream`), so their
/// blocking calls (ioctls, sysfs and file reads, buffer refills, retry and pacing waits) never
/// run on the Swift concurrency pool.
///
/// The body is `sending`: the driver state it captures moves to the new thread and no other
/// thread can reach it, which the compiler checks.
package enum CaptureThread {
    /// Starts `body` on a new detached thread named "imukit-capture" (`OwnThread`). Throws when
    /// the system gives no thread; `body` is then never run.
    package static func start(source: String, _ body: sending @escaping () -> Void) throws(OwnThreadError) {
        running.add(1, ordering: .acquiringAndReleasing)
        do {
            try OwnThread.start(name: "imukit-capture") {
                body()
                running.subtract(1, ordering: .acquiringAndReleasing)
            }
        } catch {
            running.subtract(1, ordering: .acquiringAndReleasing)
            throw OwnThreadError(name: "capture (\(source))", errno: error.errno)
        }
    }

    /// Capture threads of this process whose body has not returned: each still holds what it
    /// opened (an IIO buffer is destroyed before its body returns). A consumer that cancels its
    /// stream does not wait for that, so a new capture of the same device waits for this to
    /// reach 0 (`imu-stepd` after Reset).
    package static var runningCount: Int { running.load(ordering: .acquiring) }
    private static let running = Atomic<Int>(0)

    /// The longest a tool waits at exit for its capture threads (s): the longest one blocking call
    /// of theirs may take, the IIO call bound (libiio's 5 s timeout and the gate's 1 s margin,
    /// `IIOContext`). A buffered IIO capture is woken only by its next block (one hand-over of
    /// scans, 1 s at the rate asked for), and only then stops its buffer and detaches its trigger.
    package static let exitWaitSeconds = 6.0

    /// How often `drained` looks at the count again, s. No source gives it; what it trades: a
    /// tool's exit is late by at most this much after its last capture thread ends (10 ms,
    /// well under the tens of milliseconds a tool takes to start), and the wait costs at most
    /// `exitWaitSeconds` / 10 ms = 600 wake-ups of a sleeping task, no thread held.
    package static let drainPollSeconds = 0.01

    /// Waits, sleeping on the clock rather than blocking a thread, until every capture thread's
    /// body returned or `seconds` passed; true when they all did. A tool that exited while its
    /// capture thread still waited for a block left the kernel's buffer enabled and its trigger
    /// attached (found in the test ring: the next capture's `current_timestamp_clock` write was
    /// refused with EBUSY).
    package static func drained(within seconds: Double = exitWaitSeconds) async -> Bool {
        let deadline = BootClock.nowSeconds() + seconds
        while runningCount > 0 {
            if BootClock.nowSeconds() >= deadline { return false }
            try? await Task.sleep(for: .seconds(drainPollSeconds))
        }
        return true
    }
}

/// Tells a capture thread to stop and wakes it from its sleep at once (a socket pair it polls).
package final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// The socket pair's read and write ends, or −1 when none could be made (then sleeps run to their end).
    /// Internal, not private: the tests look for them in a spawned child.
    let readEnd: Int32
    let writeEnd: Int32

    package init() {
        var fds: [Int32] = [-1, -1]
        // A socket pair, close-on-exec from its creation (SOCK_CLOEXEC): a pipe(2) then fcntl(2)
        // left a moment in which a child another thread spawned inherited both ends, and Glibc's
        // Swift module has no pipe2(2).
        _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        readEnd = fds[0]
        writeEnd = fds[1]
    }
    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    package var isSet: Bool { stopped.load(ordering: .acquiring) }

    package func set() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing), writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)   // never read back: the read end stays readable once stopped
    }

    /// Sleeps until `deadlineNs` on the boot clock, or until `set()`; one wake-up either way.
    package func sleep(untilNs deadlineNs: Int64) {
        while !isSet {
            let left = deadlineNs - BootClock.nowNanoseconds()
            guard left > 0 else { return }
            if readEnd < 0 {
                var ts = timespec(tv_sec: Int(left / Units.nanosecondsPerSecond), tv_nsec: Int(left % Units.nanosecondsPerSecond))
                _ = nanosleep(&ts, nil)
                continue
            }
            // poll(2) counts whole milliseconds: round up, so a wake-up is never early.
            var pfd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32(min((left + Units.nanosecondsPerMillisecond - 1) / Units.nanosecondsPerMillisecond, Int64(Int32.max))))
        }
    }

    /// Sleeps `seconds`, or until `set()`.
    package func sleep(seconds: Double) {
        sleep(untilNs: BootClock.nowNanoseconds() + Int64(Units.nanoseconds(fromSeconds: max(0, seconds))))
    }
}
