#if canImport(Glibc)
import Glibc
#endif

/// Bounded retries with doubling backoff, for every call that may meet a passing refusal: an I²C
/// transfer during a NACK burst (`I2CDevice`), a trigger detach that iiod answers with EBUSY while
/// its own thread still holds the buffer (`TriggerDetach`). What is worth another try is the
/// caller's to say; permission, a vanished adapter and a kernel-owned address are never retried.
public struct RetryPolicy: Sendable {
    /// Attempts in total, including the first.
    public var attempts: Int
    /// Wait before the first retry, in seconds; doubled after each retry.
    public var initialBackoffSeconds: Double
    /// How to wait (tests pass a recorder so no test sleeps).
    public var sleep: @Sendable (Double) -> Void

    /// 4 attempts, 1 ms then 2 ms then 4 ms: long enough for a chip finishing a soft reset
    /// (MPU-6050 ~100 ms needs the driver's own wait; a NACK burst during a write cycle is < 5 ms).
    public static let standard = RetryPolicy(attempts: 4, initialBackoffSeconds: 0.001, sleep: RetryPolicy.realSleep)
    /// No retries (probing: an absent chip must cost one transaction, not four).
    public static let none = RetryPolicy(attempts: 1, initialBackoffSeconds: 0, sleep: { _ in })

    public init(attempts: Int, initialBackoffSeconds: Double, sleep: @escaping @Sendable (Double) -> Void) {
        self.attempts = max(1, attempts)
        self.initialBackoffSeconds = initialBackoffSeconds
        self.sleep = sleep
    }

    public static let realSleep: @Sendable (Double) -> Void = { seconds in
        guard seconds > 0 else { return }
        usleep(useconds_t(seconds * Units.microsecondsPerSecond))
    }

    /// Runs `body` until `again` finds its outcome not worth another try or the attempts are
    /// used up, waiting between tries; returns the last outcome.
    public func repeating<T>(_ body: () -> T, while again: (T) -> Bool) -> T {
        var backoff = initialBackoffSeconds
        var attempt = 1
        while true {
            let outcome = body()
            guard again(outcome), attempt < attempts else { return outcome }
            sleep(backoff)
            backoff *= 2
            attempt += 1
        }
    }

    /// Runs `body`, retrying transient `I2CError`s; the last error is rethrown.
    public func run<T>(_ body: () throws(I2CError) -> T) throws(I2CError) -> T {
        try repeating({ Result(catching: body) }, while: { outcome in
            if case let .failure(error) = outcome { error.isTransient } else { false }
        }).get()
    }
}
