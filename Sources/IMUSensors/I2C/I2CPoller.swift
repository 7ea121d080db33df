/// Reads an IMU and/or a barometer and merges them into samples: the synchronous core of
/// `I2CSampleSource`, driven by a clock the caller passes in (tests step it).
///
/// It is not `Sendable`: it and its chip drivers live on one capture thread (`CaptureThread`),
/// so the compiler rules out any other thread touching the drivers' state.
///
/// Schedule: an IMU with a FIFO is drained when its FIFO is at most half full ("software
/// watermark": i2c-dev gives user space no interrupt line to wait on), and at least every
/// `batchSeconds`; the barometer is read on the same wake-up when its period has passed, so the
/// thread wakes about once a second at 100 Hz. Without a FIFO every sample is a wake-up.
///
/// Pressure is put only on the sample where it was read (the IMU sample of the same step), never
/// repeated; a reading outside `BarometerRange` is left out and counted in `losses`. A chip that
/// stops answering is reconfigured after its bus-level retries fail; when that fails too, a lost
/// IMU (or a lone barometer) throws `I2CSourceError(.lost)` (exit 1),
/// while a lost barometer beside an IMU only ends pressure: floors stop and are reported in
/// `losses.lostSensors`, steps go on.
public final class I2CPoller {
    public let imu: (any ChipDriver)?
    public let barometer: (any ChipDriver)?
    public let mount: MountMatrix
    /// Longest wait between two drains, in s: one hand-over (`HandOver.seconds`, 100 sets at
    /// 100 Hz), so a FIFO that holds that much is read once per hand-over.
    public var batchSeconds = HandOver.seconds
    /// Share of the FIFO that may fill before it is drained: half leaves the other half as margin
    /// for a late wake-up (scheduling delay, a retried transfer) before anything is overwritten.
    public var watermarkFraction = 0.5
    /// Reconfiguration attempts after a chip stops answering, and the wait before the first
    /// (doubled each time), s: `defaultRecoveryAttempts`, `defaultRecoveryBackoffSeconds`.
    public var recoveryAttempts = I2CPoller.defaultRecoveryAttempts
    public var recoveryBackoffSeconds = I2CPoller.defaultRecoveryBackoffSeconds
    /// The first wait before reconfiguring a chip that stopped answering, s: twice the longest
    /// power-up of the chips driven here (MPU-6050/6500: 100 ms after DEVICE_RESET,
    /// `InvenSenseMPU.resetSeconds`, the kernel's INV_MPU6050_POWER_UP_TIME), so a chip that
    /// browned out and reset itself is up by the first attempt. No datasheet gives the backoff.
    public static let defaultRecoveryBackoffSeconds = 0.2
    /// Reconfiguration attempts before the chip is reported lost. No datasheet gives it; what it
    /// trades: three attempts wait 0.2 + 0.4 + 0.8 = 1.4 s in all, riding out a supply dip or a
    /// bus held by another master for about a second and a half, while a chip that is gone (a
    /// loose wire, an unplugged board) is named within 1.5 s plus the failed reads (about three
    /// steps at a walk's 2 steps/s) instead of being retried while steps go uncounted.
    public static let defaultRecoveryAttempts = 3
    public var sleep: @Sendable (Double) -> Void = RetryPolicy.realSleep
    /// Called with a one-line message the first time each axis saturates, the first time a
    /// barometer reading is out of range, and when a sensor is lost.
    public var warn: @Sendable (String) -> Void = CaptureWarning.standardError
    /// Losses counted here: FIFO overflows and lost optional sensors.
    public let losses: LossCounter

    /// Samples with at least one axis at full scale (the value is kept and flagged, not clipped silently).
    public private(set) var saturatedSamples = 0
    /// Times a chip was reconfigured after it stopped answering and came back.
    public private(set) var recoveries = 0
    /// Axes reported as saturated so far, e.g. ["az"].
    public private(set) var saturatedAxes: Set<String> = []
    /// True once the barometer beside the IMU was given up (floors stop, steps go on).
    public private(set) var barometerLost = false

    /// A FIFO that stays empty this long (s) while the chip should be producing is abandoned for
    /// direct reads (a clone chip without a working FIFO, or a plain register file such as i2c-stub).
    public var fifoSilenceSeconds = 1.0
    private var fifoSilentSinceNs: Int64?

    private var imuDueNs: Int64 = 0
    private var baroDueNs: Int64 = 0
    /// Whether the data registers have been read once (the grid of `PollSchedule` starts there).
    private var imuPolled = false
    private var timestamper: FIFOTimestamper?
    private var pendingBarometer: ChipReading?
    private var lastTime = -Double.infinity
    /// When the FIFO was last drained, and the driver's overflow count then.
    private var lastDrainNs: Int64?
    private var overflowsSeen = 0

    public init(imu: (any ChipDriver)?, barometer: (any ChipDriver)?, mount: MountMatrix = .identity,
                losses: LossCounter = LossCounter()) {
        self.imu = imu
        self.barometer = barometer
        self.mount = mount
        self.losses = losses
    }

    /// Resets and configures the chips. IMUs default to 100 Hz, barometers to 10 Hz (floors need
    /// a few hertz; faster only adds noise the IIR filter removes).
    public func configure(imuRateHz: Double = 100, barometerRateHz: Double = 10, useFIFO: Bool = true) throws(I2CError) {
        if let imu {
            try imu.configure(rateHz: imuRateHz, useFIFO: useFIFO && imu.model.hasFIFO)
            timestamper = imu.usesFIFO ? FIFOTimestamper(nominalRateHz: imu.outputRateHz) : nil
            overflowsSeen = imu.fifoOverflows
            lastDrainNs = nil
        }
        try barometer?.configure(rateHz: barometerRateHz, useFIFO: false)
    }

    /// Seconds between IMU reads: the FIFO's watermark time capped at `batchSeconds`, or one
    /// output period without a FIFO.
    public var imuPeriodSeconds: Double {
        guard let imu else { return .infinity }
        guard imu.usesFIFO else { return 1 / imu.outputRateHz }
        let watermark = watermarkFraction * Double(imu.fifoCapacitySets) / imu.outputRateHz
        return max(1 / imu.outputRateHz, min(batchSeconds, watermark))
    }
    /// How the samples are timed now: through the IMU's FIFO, or by direct reads (no FIFO, a
    /// barometer alone, or a FIFO given up after `fifoSilenceSeconds`).
    public var sampleTiming: SampleTiming { imu?.usesFIFO == true ? .fifo : .polled }
    private var imuPeriodNs: Int64 { Int64(Units.nanoseconds(fromSeconds: imuPeriodSeconds)) }
    private var baroPeriodNs: Int64 { barometer.map { Int64(Units.nanoseconds(fromSeconds: 1) / $0.outputRateHz) } ?? .max }

    /// When the next read is due, ns on the boot clock. Beside an IMU the barometer is read on
    /// the IMU's wake-ups, so it adds none of its own.
    public var nextDueNs: Int64 {
        if imu != nil { return imuDueNs }
        return barometer == nil || barometerLost ? .max : baroDueNs
    }

    /// Reads whatever is due at `nowNs` (boot clock) and returns the new samples, oldest first.
    public func step(nowNs: Int64) throws -> [MotionSample] {
        var samples: [MotionSample] = []
        if let imu, nowNs >= imuDueNs {
            var readings = try recovering(imu) { () throws(I2CError) in try imu.readBatch() }
            if imu.usesFIFO {
                countOverflow(imu, returned: readings.count, nowNs: nowNs)
                readings = try watchFIFO(imu, readings: readings, nowNs: nowNs)
            }
            let times: [Double]
            if timestamper != nil {
                times = timestamper!.times(count: readings.count, readNs: nowNs)
            } else {
                times = readings.map { _ in BootClock.seconds(fromNanoseconds: nowNs) }
            }
            for (r, t) in zip(readings, times) {
                samples.append(MotionSample(time: t, acceleration: r.acceleration.map(mount.apply),
                                            rotationRate: r.rotationRate.map(mount.apply), temperature: r.temperature))
                note(saturation: r.saturatedAxes, chip: imu)
            }
            if imu.usesFIFO {
                imuDueNs = advance(imuDueNs, period: imuPeriodNs, now: nowNs)
            } else if imuPolled {
                // The data registers hold one sample: the periods passed without a read are lost
                // and counted (a FIFO keeps them, and counts its own overflow above).
                var schedule = PollSchedule(period: Units.seconds(fromNanoseconds: imuPeriodNs), start: Units.seconds(fromNanoseconds: imuDueNs))
                losses.add(missedPolls: schedule.advance(now: Units.seconds(fromNanoseconds: nowNs)))
                imuDueNs = Int64(Units.nanoseconds(fromSeconds: schedule.next).rounded())
            } else {
                // The first read starts the grid: nothing was due before it.
                imuPolled = true
                imuDueNs = nowNs + imuPeriodNs
            }
        }
        if let barometer, !barometerLost, nowNs >= baroDueNs {
            do {
                let readings = try recovering(barometer) { () throws(I2CError) in try barometer.readBatch() }
                // Out of range: left out and counted, the sample goes without pressure (BarometerRange).
                let usable = BarometerRange.screen(readings, pressure: \.pressure, temperature: \.temperature,
                                                   chip: "\(barometer.model.name) on \(barometer.device.location)", losses: losses, warn: warn)
                if let r = usable.last { pendingBarometer = r }
            } catch let error as I2CSourceError where imu != nil {
                // Optional beside an IMU: floors stop, steps go on.
                barometerLost = true
                pendingBarometer = nil
                losses.lost(sensor: "barometer " + error.message)
                warn("\(error.message); floors are no longer counted, steps go on")
            }
            baroDueNs = advance(baroDueNs, period: baroPeriodNs, now: nowNs)
        }
        if let p = pendingBarometer {
            if imu == nil {
                samples.append(MotionSample(time: BootClock.seconds(fromNanoseconds: nowNs), pressure: p.pressure, temperature: p.temperature))
                pendingBarometer = nil
            } else if !samples.isEmpty {
                samples[samples.count - 1].pressure = p.pressure
                if samples[samples.count - 1].temperature == nil { samples[samples.count - 1].temperature = p.temperature }
                pendingBarometer = nil
            }
        }
        // Strictly increasing time (CONTRACTS §2), even if two reads land in the same nanosecond.
        for i in samples.indices {
            if samples[i].time <= lastTime { samples[i].time = lastTime + FIFOTimestamper.minimumStepSeconds }
            lastTime = samples[i].time
        }
        return samples
    }

    /// Counts the sets a FIFO lost when the driver saw it overflow: the output rate times the
    /// time since the last drain, less what the drain returned (the chip does not say how many
    /// it overwrote).
    private func countOverflow(_ imu: any ChipDriver, returned: Int, nowNs: Int64) {
        defer { lastDrainNs = nowNs }
        guard imu.fifoOverflows > overflowsSeen else { return }
        overflowsSeen = imu.fifoOverflows
        guard let last = lastDrainNs else { return }
        let produced = (Units.seconds(fromNanoseconds: nowNs - last) * imu.outputRateHz).rounded()
        losses.add(bufferOverflow: max(0, Int(produced) - returned))
    }

    /// Falls back to direct reads when the FIFO has stayed empty for `fifoSilenceSeconds`.
    private func watchFIFO(_ imu: any ChipDriver, readings: [ChipReading], nowNs: Int64) throws -> [ChipReading] {
        guard readings.isEmpty else { fifoSilentSinceNs = nil; return readings }
        guard let since = fifoSilentSinceNs else { fifoSilentSinceNs = nowNs; return readings }
        guard Units.seconds(fromNanoseconds: nowNs - since) >= fifoSilenceSeconds else { return readings }
        warn("\(imu.model.name) on \(imu.device.location): FIFO stayed empty for \(fifoSilenceSeconds) s; reading the data registers instead")
        fifoSilentSinceNs = nil
        _ = try recovering(imu) { () throws(I2CError) in try imu.configure(rateHz: imu.outputRateHz, useFIFO: false); return [] }
        timestamper = nil
        imuDueNs = nowNs
        return try recovering(imu) { () throws(I2CError) in try imu.readBatch() }
    }

    private func advance(_ due: Int64, period: Int64, now: Int64) -> Int64 {
        let next = due + period
        return next <= now ? now + period : next   // fell behind: skip, don't burst
    }

    private func note(saturation axes: [String], chip: any ChipDriver) {
        guard !axes.isEmpty else { return }
        saturatedSamples += 1
        let new = axes.filter { !saturatedAxes.contains($0) }
        guard !new.isEmpty else { return }
        saturatedAxes.formUnion(new)
        warn("\(chip.model.name) on \(chip.device.location): \(new.joined(separator: ",")) at full scale; readings there are clipped by the chip")
    }

    /// Runs a read; when it fails after the bus-level retries, reconfigures the chip (it may have
    /// power-cycled) with backoff, and reads again.
    private func recovering(_ chip: any ChipDriver, _ read: () throws(I2CError) -> [ChipReading]) throws -> [ChipReading] {
        let first: I2CError
        do { return try read() } catch { first = error }
        guard ![.adapterGone, .noSuchAdapter, .permissionDenied].contains(first.kind) else { throw lost(chip, first, attempts: 0) }
        var backoff = recoveryBackoffSeconds
        var last = first
        for _ in 0..<recoveryAttempts {
            sleep(backoff)
            backoff *= 2
            do {
                try chip.configure(rateHz: chip.outputRateHz, useFIFO: chip.usesFIFO)
                if chip === imu, chip.usesFIFO {
                    timestamper = FIFOTimestamper(nominalRateHz: chip.outputRateHz)
                    overflowsSeen = chip.fifoOverflows
                }
                let readings = try read()
                recoveries += 1
                return readings
            } catch {
                last = error
                if error.kind == .adapterGone { break }
            }
        }
        throw lost(chip, last, attempts: recoveryAttempts)
    }

    private func lost(_ chip: any ChipDriver, _ error: I2CError, attempts: Int) -> I2CSourceError {
        let tries = attempts > 0 ? " after \(attempts) reconfiguration attempts" : ""
        let what = error.kind == .badResponse ? "keeps returning impossible data" : "stopped answering"
        return I2CSourceError(.lost, "\(chip.model.name) on \(chip.device.location) \(what)\(tries): \(error)", fix: error.fix)
    }
}
