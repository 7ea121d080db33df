#if canImport(Glibc)
import Glibc
#endif

/// Detaching the trigger a buffered capture attached, once its buffer is destroyed. Locally the
/// kernel takes the detach at once. Through iiod the buffer is disabled by iiod's own thread after
/// the client lets go, so a detach sent at once can meet EBUSY (the clean-clone CI's kernel ring,
/// test_03c; 3 of 4 runs under 6 busy loops before any retry): only EBUSY is tried again.
enum TriggerDetach {
    /// 7 attempts, 31.25 ms doubling to 1 s: 1.97 s of waits in all (31.25 ms × (2⁶ − 1)), the
    /// 2 s bound of the first fix, far above iiod's hand-over of one block; the early retries
    /// come soon, for the usual case of a buffer disabled within a few tens of milliseconds.
    static let policy = RetryPolicy(attempts: 7, initialBackoffSeconds: 0.03125, sleep: RetryPolicy.realSleep)

    /// Runs `detach` (the result of `iio_device_set_trigger(dev, nil)`: 0 or a negative errno;
    /// nil when the call itself failed) under `policy`, again while it answers −EBUSY; returns
    /// the last answer.
    static func run(policy: RetryPolicy = policy, _ detach: () -> Int32?) -> Int32? {
        policy.repeating(detach, while: { $0 == -EBUSY })
    }
}
