import CLibIIO
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Captures the IMU through the kernel buffer (/dev/iio:deviceN): every scan the trigger produced
/// becomes one sample, with the kernel's own timestamp (`KernelStampClock` brings it to
/// CLOCK_BOOTTIME; when no stamp can be used, `ArrivalSpacing` spreads each block over the time
/// it took to arrive, and `ScanStamps` says so on standard error, once per run: `RecurringWarning`). Nothing is dropped between
/// blocks: libiio hands over whole blocks and `IIOScanLayout` decodes each scan in them.
///
/// A trigger the reader attached (`?trigger=`) is detached again when it stops, so the device is
/// left as it was found: a later capture without `?trigger=` is not silently buffered on it, and
/// another program finds `current_trigger` empty as before.
///
/// A block holds one hand-over of scans (`HandOver`), and the refill returns once the block is
/// complete. Waiting inside the refill on `local:` wakes the thread once per scan: Linux wakes a
/// buffer's readers at every scan it stores, whatever `buffer/watermark` says
/// (`iio_push_to_buffers`, 6.1), and libiio's refill polls again each time (docs/power.md, "The
/// buffered capture on `local:`"). So with kernel stamps on `local:`, the capture sleeps until the block is due first
/// (`wakeNanoseconds`, `BlockWake`) and the refill finds it complete.
/// Scans the kernel had to drop because its buffer was full (a reader stalled longer than the
/// buffer lasts), and periods a starved timer trigger skipped, show as gaps in the kernel's
/// timestamps: counted as `SampleLosses.periodsWithoutScan`, what the stamps measure.
///
/// Not `Sendable`: it lives on the source's capture thread.
final class IIOBufferedReader {
    let context: IIOContext
    let sensors: IIOSensorSet
    let layout: IIOScanLayout
    let device: String
    /// The device's id in its context ("iio:device3"), for finding it again in `stop()`.
    private let deviceID: String
    /// Positions in `layout.elements` of accel x, y, z; gyro x, y, z; timestamp.
    private let accelAt: [Int]
    private let gyroAt: [Int]
    private let timestampAt: Int?
    private let accelMatrix: MountMatrix
    private let gyroMatrix: MountMatrix
    /// Where the scans' times come from: the kernel's clock (boottime when current_timestamp_clock
    /// accepted it), or their blocks' arrival, and why.
    let stamps: ScanStamps
    /// Times for scans without a usable kernel stamp: the rate the buffer delivers.
    private var arrival: ArrivalSpacing
    private var rateCheck: TriggerRateCheck?
    /// Warnings that may recur when `?resume` reopens the capture: said once per run, then counted.
    private let warnings: RecurringWarning
    private var buffer: OpaquePointer?
    /// True when this reader attached the trigger (the device had none): `stop()` detaches it.
    private let attachedTrigger: Bool
    private let losses: LossCounter
    private var gaps = ScanGapCounter()
    /// When to sleep before a refill; nil (wait inside the refill) through iiod, with arrival
    /// times, or with a kernel buffer too short for the sleep.
    private let wake: BlockWake?
    private let rateHz: Double
    /// The kernel's stamp (ns, CLOCK_BOOTTIME) of the latest block's last scan.
    private var lastScanNs: Int64?
    /// Sets the device up and starts its buffer. The order matters: the timestamp clock and the
    /// sampling frequency first (the kernel answers EBUSY to current_timestamp_clock once the
    /// buffer runs), then the trigger, then the channels, then the buffer.
    init(context: IIOContext, description d: IIODeviceDescription, sensors: IIOSensorSet, trigger: String?,
         rateHz: Double, mountOverride: MountMatrix?, losses: LossCounter, warnings: RecurringWarning) throws {
        self.losses = losses
        self.warnings = warnings
        self.context = context
        self.sensors = sensors
        self.rateHz = rateHz
        arrival = ArrivalSpacing(nominalPeriodSeconds: 1 / rateHz)
        device = d.name
        deviceID = d.id
        accelMatrix = mountOverride ?? sensors.accelerometer?.mountMatrix ?? .identity
        gyroMatrix = mountOverride ?? sensors.gyroscope?.mountMatrix ?? .identity
        var wanted = (sensors.accelerometer?.channels ?? []).map(\.channel) + (sensors.gyroscope?.channels ?? []).map(\.channel)
        if d.channel("timestamp")?.scanType != nil { wanted.append("timestamp") }
        var scan: [(channel: String, index: Int, type: IIOScanType)] = []
        for id in wanted {
            guard let c = d.channel(id), let i = c.scanIndex, let t = c.scanType else {
                throw IIOError.badScan(device: d.name, detail: "channel \(id) is not a scan element")
            }
            scan.append((id, i, t))
        }
        let layout = IIOScanLayout(channels: scan)
        self.layout = layout
        accelAt = (sensors.accelerometer?.channels ?? []).compactMap { layout.position(of: $0.channel) }
        gyroAt = (sensors.gyroscope?.channels ?? []).compactMap { layout.position(of: $0.channel) }
        timestampAt = layout.position(of: "timestamp")

        // Block size: one hand-over of scans (`HandOver`, at least 4), so a block arrives once per hand-over.
        let blockScans = max(4, HandOver.samples(atHz: rateHz))
        let name = d.name, id = d.id
        let rate = rateHz
        let hasStamp = layout.position(of: "timestamp") != nil
        let triggerName = d.currentTrigger ?? trigger
        let attach = d.currentTrigger == nil && trigger != nil
        let isLocal = context.uri.hasPrefix("local:")
        let (buf, stamps, deviceHz, kernelScans): (OpaquePointer, ScanStamps, Double?, Int?) = try context.withContext("starting the buffer of \(name)") { ctx in
            guard let dev = iio_context_find_device(ctx, id) ?? iio_context_find_device(ctx, name) else {
                throw IIOError.noDevice(uri: context.uri, name: name, found: [])
            }
            // Before any write: taking a buffer another reader holds would stop its capture.
            if IIOBufferOwner.heldByAnotherReader(id: id, uri: context.uri) == true { throw IIOBufferOwner.busy(name) }
            let clockAttribute = d.attributes["current_timestamp_clock"] != nil
            var readBack: Result<String, IIOContext.Errno>?
            if hasStamp, clockAttribute {
                _ = iio_device_attr_write(dev, "current_timestamp_clock", "boottime")
                readBack = IIOContext.readDeviceAttribute(dev, "current_timestamp_clock")
            }
            let stamps = ScanStamps.choose(timestampChannel: hasStamp, clockAttribute: clockAttribute, readBack: readBack)
            IIORateSetting.apply(dev, hz: rate, channels: wanted)
            if attach, let trigger {
                guard let trig = iio_context_find_device(ctx, trigger), iio_device_is_trigger(trig) else {
                    throw IIOError.noDevice(uri: context.uri, name: trigger, found: [])
                }
                let r = iio_device_set_trigger(dev, trig)
                if r < 0 { throw IIOContext.error(-r, device: name, what: "setting trigger \(trigger)", uri: context.uri) }
            }
            if let triggerName, let trig = iio_context_find_device(ctx, triggerName),
               iio_device_find_attr(trig, "sampling_frequency") != nil {
                // A timer trigger (iio-trig-hrtimer) runs at its own rate: the one asked for.
                _ = iio_device_attr_write(trig, "sampling_frequency", IIORateSetting.text(rate))
            }
            for i in 0..<iio_device_get_channels_count(dev) {
                if let chn = iio_device_get_channel(dev, i) { iio_channel_disable(chn) }
            }
            for cid in wanted {
                if let chn = iio_device_find_channel(dev, cid, false) { iio_channel_enable(chn) }
            }
            let size = iio_device_get_sample_size(dev)
            if size != layout.scanBytes {
                throw IIOError.badScan(device: name, detail: "libiio scan size \(size) bytes, scan types give \(layout.scanBytes)")
            }
            errno = 0
            guard let b = iio_device_create_buffer(dev, blockScans, false) else {
                let e = errno == 0 ? EIO : errno
                if attach { _ = iio_device_set_trigger(dev, nil) }
                throw IIOContext.error(e, device: name, what: "enabling the buffer", uri: context.uri)
            }
            // The kernel buffer's length in scans (libiio sets it to a few blocks), for `BlockWake`'s check.
            var length: Int64 = 0
            let lengthRead = isLocal && iio_device_buffer_attr_read_longlong(dev, "length", &length) == 0
            return (b, stamps, IIORateSetting.current(dev, channels: wanted), lengthRead ? Int(length) : nil)
        }
        buffer = buf
        wake = stamps.clock == nil ? nil : BlockWake(rateHz: rateHz, blockScans: blockScans, kernelBufferScans: kernelScans)
        attachedTrigger = attach
        self.stamps = stamps
        if let warning = stamps.warning(device: name) {
            warnings.meet(warning, full: warning, again: { stamps.recurrence(device: name, times: $0) ?? warning })
        }
        rateCheck = triggerName.map { TriggerRateCheck(trigger: $0, deviceHz: deviceHz ?? rateHz, askedHz: rateHz) }
    }

    deinit { stop() }

    /// Disables the buffer, then detaches the trigger this reader attached (the kernel refuses a
    /// new `current_trigger` while the buffer runs; through iiod, until iiod's thread lets go of
    /// it: `TriggerDetach` tries again on EBUSY for up to 2 s). A device gone meanwhile has nothing to detach;
    /// any other refusal is said on standard error, since the trigger then stays attached.
    func stop() {
        guard let b = buffer else { return }
        buffer = nil
        let id = deviceID, name = device, detach = attachedTrigger
        _ = try? context.withContext("stopping the buffer") { _ in iio_buffer_destroy(b) }
        guard detach else { return }
        let refused = TriggerDetach.run {
            try? context.withContext("detaching the trigger") { ctx -> Int32 in
                guard let dev = iio_context_find_device(ctx, id) ?? iio_context_find_device(ctx, name) else { return 0 }
                return iio_device_set_trigger(dev, nil)
            }
        }
        if let r = refused, r < 0, !IIOError.meansDeviceGone(-r) {
            CaptureWarning.standardError("\(name.escapedOnOneLine): the trigger attached for this capture could not be detached "
                + "(errno \(-r)); write an empty line to its trigger/current_trigger to detach it")
        }
    }

    /// When the capture thread should wake to read the next block (ns, CLOCK_BOOTTIME), or nil to
    /// call `readBlock` at once (the first block, or no `BlockWake` plan).
    func wakeNanoseconds() -> Int64? {
        guard let wake, let lastScanNs else { return nil }
        return wake.wakeNanoseconds(lastScanNs: lastScanNs, periodSeconds: gaps.periodSeconds ?? 1 / rateHz,
                                    nowNs: BootClock.nowNanoseconds())
    }

    /// Waits for the next block and returns one sample per scan in it.
    func readBlock() throws -> [MotionSample] {
        guard let b = buffer else { return [] }
        let name = device
        let bytes: [UInt8] = try context.withContext("reading the buffer of \(name)") { _ in
            let n = iio_buffer_refill(b)
            if n < 0 { throw IIOContext.error(Int32(-n), device: name, what: "reading the buffer", uri: self.context.uri) }
            guard let start = iio_buffer_start(b) else { return [] }
            return Array(UnsafeRawBufferPointer(start: start, count: n))
        }
        let received = BootClock.nowSeconds()
        let offset = timestampAt == nil ? nil : stamps.clock?.bootTimeOffsetNanoseconds()
        var samples: [MotionSample] = []
        samples.reserveCapacity(bytes.count / max(1, layout.scanBytes))
        let a = sensors.accelerometer, g = sensors.gyroscope
        _ = bytes.withUnsafeBytes { raw in
            layout.demux(raw) { v in
                var s = MotionSample(time: 0)
                if let a, accelAt.count == 3 {
                    s.acceleration = accelMatrix.apply(Vector3(a.channels[0].convert(Double(v[accelAt[0]])),
                                                               a.channels[1].convert(Double(v[accelAt[1]])),
                                                               a.channels[2].convert(Double(v[accelAt[2]]))))
                }
                if let g, gyroAt.count == 3 {
                    s.rotationRate = gyroMatrix.apply(Vector3(g.channels[0].convert(Double(v[gyroAt[0]])),
                                                              g.channels[1].convert(Double(v[gyroAt[1]])),
                                                              g.channels[2].convert(Double(v[gyroAt[2]]))))
                }
                if let offset, let t = timestampAt { s.time = BootClock.seconds(fromNanoseconds: v[t] &+ offset) }
                samples.append(s)
            }
        }
        if offset == nil {
            for (i, t) in arrival.times(count: samples.count, arrivalSeconds: received).enumerated() { samples[i].time = t }
        } else {
            losses.add(periodsWithoutScan: gaps.missing(in: samples.map(\.time)))
            if let last = samples.last { lastScanNs = Int64(Units.nanoseconds(fromSeconds: last.time)) }
        }
        rateCheck?.report(deliveredPeriodSeconds: offset == nil ? arrival.periodSeconds : gaps.periodSeconds, to: warnings)
        return samples
    }

}
