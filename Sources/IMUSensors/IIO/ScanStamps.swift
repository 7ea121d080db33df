/// How the scans of a buffered capture get their times: the kernel's own stamp (brought to
/// CLOCK_BOOTTIME by `KernelStampClock`), or, when that cannot be used, `ArrivalSpacing` over each
/// block's arrival. The fallback loses each scan's own time (a block's scans come out evenly
/// spaced), so the reader says on standard error that it took it and why: once per run, however
/// often `?resume` reopens the capture (`RecurringWarning`; later times only counted).
enum ScanStamps: Equatable {
    case kernel(KernelStampClock)
    case arrival(reason: String)

    /// The choice from what the device offers: whether the scan holds a timestamp channel, whether
    /// the device has `current_timestamp_clock` (Linux 4.10 and later), and what that attribute
    /// read back after the reader wrote `boottime` (the text, or the errno of the failed read).
    static func choose(timestampChannel: Bool, clockAttribute: Bool, readBack: Result<String, IIOContext.Errno>?) -> ScanStamps {
        guard timestampChannel else { return .arrival(reason: "the device has no timestamp channel in its scan") }
        guard clockAttribute else {
            return .arrival(reason: "the device has no current_timestamp_clock to say which clock its stamps are on")
        }
        switch readBack {
        case nil:
            return .arrival(reason: "current_timestamp_clock was not read back")
        case let .failure(e):
            return .arrival(reason: "current_timestamp_clock could not be read back (errno \(e.code))")
        case let .success(text):
            guard let clock = KernelStampClock(kernelName: text) else {
                return .arrival(reason: "current_timestamp_clock names '\(text.escapedValue)', a clock this reader cannot map to CLOCK_BOOTTIME")
            }
            return .kernel(clock)
        }
    }

    /// What a recording's `clock:` line says about these times.
    var timing: SampleTiming {
        switch self {
        case let .kernel(clock): .kernelStamps(clock: clock.name)
        case let .arrival(reason): .blockArrival(reason: reason)
        }
    }

    var clock: KernelStampClock? {
        if case let .kernel(c) = self { return c }
        return nil
    }

    /// The one-line warning for the fallback (nil for kernel stamps), naming the device, why, and
    /// what the times are instead.
    func warning(device: String) -> String? {
        guard case let .arrival(reason) = self else { return nil }
        return "\(device.escapedOnOneLine): scans are timed by when each block arrived, not by the kernel's stamps: "
            + "\(reason); a block's scans are spread evenly over the time since the block before "
            + "(each scan's own time within a block is lost)"
    }

    /// The short line for the `times`-th time in one run (nil for kernel stamps): the reason was
    /// said in full the first time.
    func recurrence(device: String, times: Int) -> String? {
        guard case .arrival = self else { return nil }
        return "\(device.escapedOnOneLine): scans again timed by when each block arrived, for the reason said above "
            + "(\(times) captures this run)"
    }
}
