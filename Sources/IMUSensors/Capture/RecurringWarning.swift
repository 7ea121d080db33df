import Synchronization

/// A warning that may come again within one run: a capture reopened on `?resume` meets the same
/// cause each time (the kernel's stamps unusable, for one). It is said in full the first time;
/// each later time is counted, and said in one short line at the 2nd, 4th, 8th … time, so a
/// device that comes and goes all day leaves a few lines, each with the count so far.
public final class RecurringWarning: Sendable {
    private let times = Mutex<[String: Int]>([:])
    private let emit: @Sendable (String) -> Void

    public init(emit: @escaping @Sendable (String) -> Void = CaptureWarning.standardError) {
        self.emit = emit
    }

    /// How often the warning `key` was met so far in this run (said or not).
    public func count(_ key: String) -> Int { times.withLock { $0[key, default: 0] } }

    /// Meets the warning `key` once more: says `full` the first time, `again(n)` at the n-th time
    /// when n is a power of two, nothing otherwise.
    public func meet(_ key: String, full: String, again: (Int) -> String) {
        let n = times.withLock { t in
            t[key, default: 0] += 1
            return t[key]!
        }
        if n == 1 { emit(full) } else if n & (n - 1) == 0 { emit(again(n)) }
    }
}
