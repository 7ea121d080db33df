import Testing
@testable import IMUSensors

/// The sleep before a buffered `local:` refill (`BlockWake`): how long, from which stamp, and when the
/// kernel buffer is too short to sleep at all.
@Suite struct BlockWakeTests {
    /// 100 Hz, blocks of 100 scans: 102 scans arrive in one sleep, so the buffer needs 204.
    @Test func bufferMustHoldTwoSleeps() {
        #expect(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: 400) != nil)   // libiio's 4 blocks
        #expect(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: 204) != nil)
        #expect(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: 203) == nil)
        #expect(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: 100) == nil)   // one block: would drop scans
        #expect(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: nil) == nil)
    }

    /// The next block's last scan is due 100 periods after the previous one's, plus 2 periods' slack.
    @Test func wakesAfterTheBlockFromTheKernelStamp() throws {
        let w = try #require(BlockWake(rateHz: 100, blockScans: 100, kernelBufferScans: 400))
        #expect(w.longestNanoseconds == 1_020_000_000)
        let last: Int64 = 50_000_000_000
        // Woken 30 ms after the stamp (the refill's return): the wake stays on the stamp's grid.
        #expect(w.wakeNanoseconds(lastScanNs: last, periodSeconds: 0.01, nowNs: last + 30_000_000) == last + 1_020_000_000)
        // A trigger delivering at 101 Hz: the due time follows the delivered period.
        let at101 = w.wakeNanoseconds(lastScanNs: last, periodSeconds: 1 / 101.0, nowNs: last)
        #expect(abs(Double(at101 - last) / 1e9 - 102 / 101.0) < 1e-6)
    }

    /// A stamp far in the future (a clock stepped) never sleeps longer than one block and its slack.
    @Test func neverSleepsMoreThanOneBlock() throws {
        let w = try #require(BlockWake(rateHz: 50, blockScans: 50, kernelBufferScans: 200))
        let now: Int64 = 7_000_000_000
        #expect(w.wakeNanoseconds(lastScanNs: now + 3_600_000_000_000, periodSeconds: 0.02, nowNs: now) == now + 1_040_000_000)
        // A stamp long past: due already, no sleep.
        #expect(w.wakeNanoseconds(lastScanNs: now - 5_000_000_000, periodSeconds: 0.02, nowNs: now) < now)
    }
}
