import Glibc
import Testing
@testable import IMUSensors

/// The detach after a buffered capture (`TriggerDetach`, `RetryPolicy.repeating`): EBUSY while
/// iiod's thread still holds the buffer is tried again with doubling waits, within 2 s in all.
@Suite struct TriggerDetachTests {
    func policy(_ waits: WaitRecorder) -> RetryPolicy {
        var p = TriggerDetach.policy
        p.sleep = waits.sleep
        return p
    }

    /// Busy three times, then taken: four calls, waits 31.25, 62.5, 125 ms (doubling).
    @Test func busyIsTriedAgainWithDoublingWaits() {
        let waits = WaitRecorder()
        var answers: [Int32?] = [-EBUSY, -EBUSY, -EBUSY, 0, 0]
        var calls = 0
        let r = TriggerDetach.run(policy: policy(waits)) { calls += 1; return answers.removeFirst() }
        #expect(r == 0)
        #expect(calls == 4)
        #expect(waits.waits == [0.03125, 0.0625, 0.125])
    }

    /// Busy for good: given up after the policy's attempts, having waited under the 2 s bound
    /// (and more than 1 s, so a slow iiod is given the time the first fix gave it), and the
    /// EBUSY is returned for the caller's warning.
    @Test func busyForGoodEndsWithinTwoSeconds() {
        let waits = WaitRecorder()
        var calls = 0
        let r = TriggerDetach.run(policy: policy(waits)) { calls += 1; return -EBUSY }
        #expect(r == -EBUSY)
        #expect(calls == TriggerDetach.policy.attempts)
        let total = waits.waits.reduce(0, +)
        // Six waits doubling from 31.25 ms: 31.25 ms × (2⁶ − 1) = 1.96875 s, exact in binary.
        #expect(total == 0.03125 * 63)
        #expect(total > 1 && total <= 2, "\(total) s")
    }

    /// Any other answer ends it at once: another errno (reported), a failed call (nil), success.
    @Test func otherAnswersAreNotRetried() {
        for answer: Int32? in [-EINVAL, -ENODEV, nil, 0] {
            let waits = WaitRecorder()
            var calls = 0
            let r = TriggerDetach.run(policy: policy(waits)) { calls += 1; return answer }
            #expect(r == answer && calls == 1 && waits.waits.isEmpty, "\(String(describing: answer))")
        }
    }
}
