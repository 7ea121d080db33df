/// Says once, clearly, when the trigger delivers scans at a rate far from the device's output
/// rate: a timer trigger (hrtimer, the kernel ring's `imukit-tick`) runs at its own rate, which
/// the reader sets only when the trigger has a `sampling_frequency` attribute. Every scan is kept
/// either way; the warning names the trigger, both rates and the fix. Each capture has its own
/// check; a capture reopened on `?resume` meets the same trigger again, so `report` says it in
/// full once per run and counts the later captures (`RecurringWarning`).
struct TriggerRateCheck {
    /// Beyond this ratio (either way) the rates are not the same setting: chips' clocks stray by a
    /// few per cent (datasheet ODR tolerance) and timer jitter averages out in a median period,
    /// while a trigger left at another rate is off by a whole rate step (×2 between neighbouring
    /// output rates of the bmi160, lsm6dsx and lis3dh tables).
    static let mismatchRatio = 1.5
    let trigger: String
    /// The device's output rate (Hz): read back after setting it, else the rate asked for.
    let deviceHz: Double
    /// The rate asked for (Hz).
    let askedHz: Double
    private(set) var done = false

    init(trigger: String, deviceHz: Double, askedHz: Double) {
        self.trigger = trigger
        self.deviceHz = deviceHz
        self.askedHz = askedHz
    }

    /// The warning to print, once, given the delivered period (s), when it is off.
    mutating func check(deliveredPeriodSeconds period: Double?) -> String? {
        guard !done, let period, period > 0 else { return nil }
        done = true
        let delivered = 1 / period
        guard delivered > deviceHz * Self.mismatchRatio || delivered < deviceHz / Self.mismatchRatio else { return nil }
        return "trigger \(trigger) delivers \(Self.text(delivered)) Hz, not the \(Self.text(askedHz)) Hz asked for "
            + "(its rate cannot be set from here); every scan is kept, at \(Self.text(delivered)) Hz: "
            + "set the trigger to \(Self.text(askedHz)) Hz or ask for --rate \(Self.text(delivered.rounded()))"
    }

    /// `check`, said through `warnings`: in full the first time this trigger is off from the rate
    /// asked for in this run, then as a short line with the count at the 2nd, 4th, 8th … capture.
    mutating func report(deliveredPeriodSeconds period: Double?, to warnings: RecurringWarning) {
        guard let full = check(deliveredPeriodSeconds: period) else { return }
        let (trigger, asked) = (self.trigger, Self.text(askedHz))
        warnings.meet("trigger rate \(trigger) for \(asked) Hz", full: full, again: { times in
            "trigger \(trigger) again delivers another rate than the \(asked) Hz asked for, as said above (\(times) captures this run)"
        })
    }

    /// To a tenth of a hertz, as `IIORateSetting` writes rates.
    private static func text(_ hz: Double) -> String { IIORateSetting.text((hz * 10).rounded() / 10) }
}
