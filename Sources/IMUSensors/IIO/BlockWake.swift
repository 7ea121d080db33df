/// When the capture thread of a buffered `local:` capture wakes for its next block: it sleeps until
/// the block's last scan is due, so the refill that follows finds the block complete and returns
/// without waiting. Linux 6.1 wakes a blocked reader at every scan it stores, whatever the buffer's
/// watermark (docs/power.md, "The buffered capture on `local:`"), so waiting inside the refill costs a wake-up per scan; the
/// sleep costs one per block.
///
/// The due time comes from the kernel's stamp of the previous block's last scan, never from when the
/// thread woke, so a late wake-up does not push the next one later: the backlog stays one slack.
/// Only with kernel timestamps: blocks stamped by their arrival need the refill to return as the
/// last scan lands (`ArrivalSpacing`), so they keep waiting inside it.
struct BlockWake {
    /// Scans the trigger may run late, or a wake-up be early, before a refill finds its block one
    /// or two scans short and waits for them (s, in scan periods): an hrtimer or data-ready line
    /// jitters well below a period (`ScanGapCounter.gapPeriods`); two leave room for a loaded core.
    static let slackPeriods = 2.0
    /// How many times over the kernel buffer must hold the scans that arrive during one sleep (the
    /// block and its slack): a thread woken a whole sleep late (a loaded machine) still loses nothing.
    static let bufferMargin = 2.0

    /// Scans in one block (the refill's size).
    let blockScans: Int
    /// The longest sleep (ns): one block and its slack at the asked rate.
    let longestNanoseconds: Int64

    /// A plan when the kernel buffer (`kernelBufferScans`, its `buffer/length`) holds `bufferMargin`
    /// sleeps' scans at `rateHz`; nil when it is too short (or unknown), and the refill waits as before.
    init?(rateHz: Double, blockScans: Int, kernelBufferScans: Int?) {
        guard rateHz > 0, blockScans > 0, let kernelBufferScans else { return nil }
        let sleepScans = Double(blockScans) + Self.slackPeriods
        guard Double(kernelBufferScans) >= Self.bufferMargin * sleepScans else { return nil }
        self.blockScans = blockScans
        longestNanoseconds = Int64(Units.nanoseconds(fromSeconds: sleepScans / rateHz))
    }

    /// When to wake (ns, CLOCK_BOOTTIME) for the block after the one whose last scan the kernel
    /// stamped at `lastScanNs`, scans `periodSeconds` apart (the delivered period; nil before it is
    /// known: `rateHz`'s). Never later than one longest sleep from `nowNs`, so a stamp far off
    /// cannot stall the capture; a time already past means no sleep.
    func wakeNanoseconds(lastScanNs: Int64, periodSeconds: Double, nowNs: Int64) -> Int64 {
        let dueNs = lastScanNs + Int64(Units.nanoseconds(fromSeconds: (Double(blockScans) + Self.slackPeriods) * periodSeconds))
        return min(dueNs, nowNs + longestNanoseconds)
    }
}
