import Testing
@testable import IMUSensors

/// A polled reader under load (issue 11's capture model; the kernel ring's loaded-host failures):
/// reads that come back late must neither drift the schedule nor lose samples silently.
@Suite("poll schedule: late reads are skipped and counted, jitter is not a loss")
struct PollScheduleTests {
    /// Reads that take `durations[i]` seconds each, started at the schedule's deadline or at once
    /// when it has passed; returns the read times and the periods counted as missed.
    static func run(_ durations: [Double], period: Double = 0.01) -> (reads: [Double], missed: Int) {
        var schedule = PollSchedule(period: period, start: 100)
        var now = 100.0, missed = 0, reads: [Double] = []
        for d in durations {
            now = max(now, schedule.next)
            reads.append(now)
            now += d
            missed += schedule.advance(now: now)
        }
        return (reads, missed)
    }

    @Test("reads jittered by up to 0.9 of a period keep the grid: nothing is missed, nothing drifts")
    func jitterIsNoLoss() {
        // Read times between 0.1 and 0.9 of the 10 ms period, in a fixed pseudo-random order.
        let durations = (0..<1000).map { 0.001 + 0.008 * Double(($0 * 7919) % 101) / 100 }
        let (reads, missed) = Self.run(durations)
        #expect(missed == 0)
        // 1000 reads on a 10 ms grid: the last starts at 9.99 s, not later (a schedule that
        // restarts from the late read's end drifts by the mean read time per period).
        #expect(abs(reads[999] - (100 + 9.99)) < 1e-6, "\(reads[999])")
    }

    @Test("a read that stalls for 0.5 s misses the 49 periods it spanned; the next read comes at once, no burst")
    func stallIsCounted() {
        var durations = Array(repeating: 0.002, count: 100)
        durations[50] = 0.505
        let (reads, missed) = Self.run(durations)
        // The truth: periods between the reads' own times beyond the one each read serves.
        let truth = zip(reads, reads.dropFirst()).map { a, b in max(0, Int((b - a) / 0.01 + 1e-6) - 1) }.reduce(0, +)
        #expect(missed == truth && missed == 49, "missed \(missed), the read times say \(truth)")
        // After the stall reads are one period apart again (no catch-up burst of back-to-back reads).
        let after = zip(reads[51...], reads[52...]).map { $1 - $0 }
        #expect(after.allSatisfy { $0 >= 0.004 }, "\(after.prefix(5))")
    }

    @Test("reads that all take 2.5 periods (a starved guest): 2 samples in 5 are read and 3 in 5 are counted missed")
    func slowReadsAreCounted() {
        let (reads, missed) = Self.run(Array(repeating: 0.0251, count: 300))
        let periods = Int(((reads[299] - reads[0]) / 0.01).rounded()) + 1
        // Every period of the span is either read or counted, give or take the last one.
        #expect(abs(reads.count + missed - periods) <= 2, "read \(reads.count) + missed \(missed) vs \(periods) periods")
        // Each read spans 2.51 periods, of which it serves one: 1.51 missed per read.
        #expect(abs(Double(missed) - 1.51 * 300) <= 2, "missed \(missed)")
    }
}
