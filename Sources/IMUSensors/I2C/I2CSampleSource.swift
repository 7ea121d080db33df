import Synchronization

/// Samples from chips on /dev/i2c-N: an IMU, a barometer, or both merged into one stream.
///
/// The configured `I2CPoller` (and with it every chip driver) waits here until `batches()` moves
/// it to a capture thread of its own (`CaptureThread`); batches reach the pipeline through a
/// `BatchChannel`. A source streams once: a second `batches()` fails.
public final class I2CSampleSource: SampleSource {
    public let info: SourceInfo
    /// The chip-to-device axis mapping in use.
    public let mount: MountMatrix
    /// Batches the hand-over holds for a consumer that is behind.
    public let channelCapacity: Int
    private let counter: LossCounter
    /// How the capture thread times its samples (a FIFO, or direct reads once a silent FIFO is given up).
    private let timingNote = TimingNote()
    private let waiting: Mutex<I2CPoller?>

    /// `poller` must be configured already (so open errors surface at open, not mid-stream).
    public init(poller: sending I2CPoller, channelCapacity: Int = BatchChannel.defaultCapacity) {
        let chips = [poller.imu, poller.barometer].compactMap { $0 }
        let names = chips.map(\.model.name).joined(separator: " + ")
        let bus = chips.first?.device.bus.path ?? "?"
        let addresses = chips.map { I2CAddress.hex($0.device.address) }.joined(separator: ",")
        var caps = SensorCapabilities(accelerometer: false)
        for c in chips {
            caps.accelerometer = caps.accelerometer || c.model.capabilities.accelerometer
            caps.gyroscope = caps.gyroscope || c.model.capabilities.gyroscope
            caps.barometer = caps.barometer || c.model.capabilities.barometer
            caps.thermometer = caps.thermometer || c.model.capabilities.thermometer
        }
        let key = chips.first.map(Self.calibrationKey) ?? "i2c"
        info = SourceInfo(name: "\(names) on \(bus) @\(addresses)", calibrationKey: key, capabilities: caps,
                          nominalRateHz: (poller.imu ?? poller.barometer)?.outputRateHz)
        mount = poller.mount
        counter = poller.losses
        self.channelCapacity = channelCapacity
        waiting = Mutex(poller)
    }

    /// "i2c-1-0x68-mpu6050": bus, address and chip of the source's first chip; also the key
    /// `mount.conf` is looked up by.
    public static func calibrationKey(_ chip: any ChipDriver) -> String {
        "i2c-\(I2CAddress.busNumber(chip.device.bus.path) ?? 0)-\(I2CAddress.hex(chip.device.address))-\(chip.model.name)"
    }

    public var losses: SampleLosses { counter.snapshot }
    public var timing: SampleTiming? { timingNote.current }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let stop = StopSignal()
        let (stream, channel) = BatchChannel.make(capacity: channelCapacity, losses: counter, onStop: { stop.set() })
        guard let poller = waiting.withLock({ $0.take() }) else {
            channel.finish(throwing: I2CSourceError(.lost, "\(info.name) is already being read",
                                                    fix: "open the source again for a second stream"))
            return stream
        }
        do {
            try CaptureThread.start(source: info.name) { [timingNote] in
                Self.capture(poller, into: channel, timing: timingNote, stop: stop)
            }
        } catch {
            channel.finish(throwing: error)
        }
        return stream
    }

    /// The capture thread's loop: read what is due, sleep until the next read, and hand the
    /// samples over once per `HandOver.seconds`: reads gathered from a FIFO drained more often
    /// (a small FIFO's watermark) or from a chip without one go over together, when the next
    /// read would make the hand-over longer than that. Judged on the reads' schedule, not on
    /// when the thread happened to wake, so a late wake-up does not hold a hand-over back.
    private static func capture(_ poller: I2CPoller, into channel: BatchChannel, timing: TimingNote, stop: StopSignal) {
        let handOverNs = Int64(Units.nanoseconds(fromSeconds: HandOver.seconds))
        var pending: [MotionSample] = []
        var gatheredSinceNs: Int64?
        do {
            while !stop.isSet {
                let scheduledNs = poller.nextDueNs
                let samples = try poller.step(nowNs: BootClock.nowNanoseconds())
                if !samples.isEmpty {
                    if gatheredSinceNs == nil { gatheredSinceNs = scheduledNs }
                    pending += samples
                }
                if let since = gatheredSinceNs, poller.nextDueNs - since >= handOverNs {
                    timing.set(poller.sampleTiming)
                    channel.send(pending)
                    pending.removeAll(keepingCapacity: true)
                    gatheredSinceNs = nil
                }
                stop.sleep(untilNs: poller.nextDueNs)
            }
            timing.set(poller.sampleTiming)
            channel.send(pending)
            channel.finish()
        } catch {
            timing.set(poller.sampleTiming)
            channel.send(pending)
            channel.finish(throwing: error)
        }
    }
}
