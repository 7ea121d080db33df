#if canImport(Glibc)
import Glibc
#endif

/// The clock the kernel stamps a device's scans on (its `current_timestamp_clock`), and how to
/// bring those stamps to CLOCK_BOOTTIME. The reader asks for boottime; when the write is refused
/// the kernel keeps its default (realtime), and the stamps are shifted by the offset between the
/// two clocks read beside each block, so every scan keeps its own kernel time.
struct KernelStampClock: Equatable {
    /// The clock's name as the kernel writes it ("boottime", "realtime", …).
    let name: String
    let id: clockid_t

    /// The names `current_timestamp_clock` accepts (drivers/iio/industrialio-core.c) and their
    /// POSIX clocks; nil for anything else.
    init?(kernelName text: String) {
        let name = String(text.filter { !$0.isWhitespace })
        let known: [String: clockid_t] = [
            "boottime": CLOCK_BOOTTIME, "realtime": CLOCK_REALTIME, "monotonic": CLOCK_MONOTONIC,
            "monotonic_raw": CLOCK_MONOTONIC_RAW, "realtime_coarse": CLOCK_REALTIME_COARSE,
            "monotonic_coarse": CLOCK_MONOTONIC_COARSE, "tai": CLOCK_TAI,
        ]
        guard let id = known[name] else { return nil }
        self.name = name
        self.id = id
    }

    var isBootTime: Bool { name == "boottime" }

    /// CLOCK_BOOTTIME − this clock, in nanoseconds, now.
    func bootTimeOffsetNanoseconds() -> Int64 {
        guard !isBootTime else { return 0 }
        var ts = timespec()
        clock_gettime(id, &ts)
        let other = Units.nanoseconds(of: ts)
        return BootClock.nowNanoseconds() - other
    }
}
