import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A sample source on an IIO context: buffered where a trigger exists, polled otherwise.
///
/// Capture runs on a thread of its own (`CaptureThread`) that owns the context and its readers;
/// batches reach the pipeline through a `BatchChannel`. A buffered capture blocks in the kernel
/// until a block of half a second of scans is ready, so the thread wakes about twice a second.
///
/// Faults: a lost IMU ends the stream with `IIOError.deviceLost` (the consumer keeps whatever
/// totals it has). A lost barometer or thermometer beside an IMU only ends what it measured:
/// floors stop and are reported (`losses.lostSensors`), steps go on. With `?resume=SECONDS` the
/// source first retries, reopening the context with backoff (0.5 s doubling to 4 s) and finding
/// the IMU's devices again by name, and carries on when they return; a broken `ip:` link
/// (`IIOError.linkLost`) is retried the same way. A call that hangs past its bound ends the
/// stream with `IIOError.timedOut`: the stuck call still owns the context, so nothing is retried.
public final class IIOSource: SampleSource {
    public let info: SourceInfo
    public let spec: IIOSourceSpec
    public let mode: IIOCaptureMode
    let options: SourceOptions
    /// Channels a buffered capture enables, and the bytes per scan they take (nil when polled).
    public let scanChannels: [String]
    public let scanBytes: Int?
    private let names: [String]
    /// The context opened at init, until `batches()` moves it to the capture thread.
    private let waiting: Mutex<Opened?>
    private let counter = LossCounter()
    /// How the capture thread times its samples, settled as each capture starts.
    private let timingNote = TimingNote()
    /// Warnings a reopened capture would repeat (`?resume`): said once per run, then counted.
    private let warnings = RecurringWarning()
    /// Nominal rate of the IMU in Hz (SourceOptions.rateHz, default 100).
    let rateHz: Double
    /// Barometer and thermometer poll rate in Hz: pressure changes slowly, and every read costs an
    /// I²C transfer (or an iiod round trip); 10 Hz resolves a floor in well under a second.
    static let slowRateHz = 10.0
    /// Default IMU rate in Hz (SourceOptions: "100 Hz for IMUs").
    static let defaultRateHz = 100.0

    typealias Opened = (context: IIOContext, devices: [IIODeviceDescription], set: IIOSensorSet)

    public init(spec: IIOSourceSpec, options: SourceOptions) throws {
        let context = try IIOContext(uri: spec.uri)
        let devices = try context.describe()
        let set = IIODiscovery.select(from: devices, names: spec.devices)
        if set.isEmpty {
            throw IIOError.noDevice(uri: spec.uri, name: spec.devices.isEmpty ? nil : spec.devices.joined(separator: "+"),
                                    found: devices.filter { !$0.isTrigger }.map(\.name))
        }
        self.spec = spec
        self.options = options
        rateHz = options.rateHz ?? Self.defaultRateHz
        mode = IIOCaptureMode.choose(set, devices: devices, spec: spec)
        names = set.deviceNames
        let label = "iio:\(spec.uri)/\(set.deviceNames.joined(separator: "+"))"
        info = SourceInfo(name: label, calibrationKey: "iio:" + set.deviceNames.joined(separator: "+"),
                          capabilities: set.capabilities, nominalRateHz: rateHz)
        var channels = (set.accelerometer?.channels ?? []).map(\.channel) + (set.gyroscope?.channels ?? []).map(\.channel)
        var bytes: Int?
        if mode.kind == .buffered, let imu = set.accelerometer ?? set.gyroscope,
           let d = devices.first(where: { $0.id == imu.deviceID }) {
            if d.channel("timestamp")?.scanType != nil { channels.append("timestamp") }
            bytes = IIOScanLayout(channels: channels.compactMap { id in
                d.channel(id).flatMap { c in c.scanIndex.flatMap { i in c.scanType.map { (id, i, $0) } } }
            }).scanBytes
        }
        scanChannels = channels
        scanBytes = bytes
        waiting = Mutex((context, devices, set))
    }

    public var losses: SampleLosses { counter.snapshot }
    public var timing: SampleTiming? { timingNote.current }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let stop = StopSignal()
        let (stream, channel) = BatchChannel.make(losses: counter, onStop: { stop.set() })
        guard let first = waiting.withLock({ $0.take() }) else {
            channel.finish(throwing: IIOError.ioFailed(device: names.joined(separator: "+"), what: "starting a second stream on one source", errno: EBUSY))
            return stream
        }
        do {
            try CaptureThread.start(source: info.name) { [self] in
                var capture = Capture(source: self, channel: channel, stop: stop, opened: first)
                do {
                    try capture.run()
                    channel.finish()
                } catch {
                    channel.finish(throwing: error)
                }
            }
        } catch {
            channel.finish(throwing: error)
        }
        return stream
    }

    /// The capture thread's state: the open context, what was delivered, what was lost.
    private struct Capture {
        let source: IIOSource
        let channel: BatchChannel
        let stop: StopSignal
        var opened: Opened?
        var delivered = 0
        var lastTime = -Double.infinity
        /// Optional devices (barometer, thermometer) given up so far: not waited for on resume.
        var dropped: Set<String> = []

        init(source: IIOSource, channel: BatchChannel, stop: StopSignal, opened: Opened) {
            self.source = source
            self.channel = channel
            self.stop = stop
            self.opened = opened
        }

        /// Capture loop with loss detection and resume.
        mutating func run() throws {
            while !stop.isSet {
                let (context, devices, set) = try takeOrReopen()
                do {
                    try capture(context, devices, set)
                    return
                } catch let e as IIOError {
                    let gone: Bool
                    switch e {
                    case let .ioFailed(_, _, code): gone = IIOError.meansDeviceGone(code)
                    case .noDevice, .linkLost: gone = true
                    default: gone = false
                    }
                    guard gone else { throw e }
                    if source.spec.resumeSeconds <= 0 {
                        if case .linkLost = e { throw e }
                        throw lost(waited: 0)
                    }
                    // Fall through: the next turn reopens and waits for the devices to return.
                }
            }
        }

        /// Hands a batch over, keeping times strictly increasing across blocks and reopenings.
        mutating func emit(_ batch: [MotionSample]) {
            let fresh = batch.filter { $0.time > lastTime }
            source.counter.add(nonIncreasingTime: batch.count - fresh.count)
            guard !fresh.isEmpty else { return }
            lastTime = fresh[fresh.count - 1].time
            delivered += fresh.count
            channel.send(fresh)
        }

        func lost(waited: Double) -> IIOError {
            .deviceLost(device: source.names.joined(separator: "+"), samplesDelivered: delivered, waitedSeconds: waited)
        }

        /// The devices the source cannot go on without: the IMU's, or the barometer's when alone.
        var required: [String] { source.names.filter { !dropped.contains($0) } }

        /// The context opened at init the first time; later, a fresh one with the required
        /// devices, retried with backoff for up to `spec.resumeSeconds`.
        mutating func takeOrReopen() throws -> Opened {
            if let o = opened.take() { return o }
            let start = BootClock.nowSeconds()
            let resume = source.spec.resumeSeconds
            var wait = Self.firstReopenSeconds
            while true {
                if stop.isSet { throw CancellationError() }
                if let context = try? IIOContext(uri: source.spec.uri), let devices = try? context.describe() {
                    let set = IIODiscovery.select(from: devices, names: required)
                    if set.deviceNames.sorted() == required.sorted() { return (context, devices, set) }
                }
                let waited = BootClock.nowSeconds() - start
                if waited >= resume { throw lost(waited: resume) }
                stop.sleep(seconds: min(wait, resume - waited))
                wait = min(wait * 2, Self.longestReopenSeconds)
            }
        }

        /// `?resume`'s first wait before reopening the context, s, doubled after each failed
        /// reopening up to `longestReopenSeconds`. No datasheet or kernel document gives them;
        /// what they trade: a driver rebound (unbind/bind, a module reload) makes its devices
        /// again within its probe, of which a chip's power-up is the long part (100 ms for the
        /// MPU-6050, `InvenSenseMPU.resetSeconds`), so half a second usually finds them at the
        /// first retry, and a reopening (a libiio context: a scan of sysfs on `local:`, a TCP
        /// connection and the context's XML on `ip:`) is not repeated faster than twice a second.
        static let firstReopenSeconds = 0.5
        /// The longest wait between two reopenings, s: a device that comes back after a long
        /// absence is found within 4 s (about eight steps at a walk's 2 steps/s go uncounted),
        /// at the cost of one reopening every 4 s, 15 a minute, while it stays away.
        static let longestReopenSeconds = 4.0

        /// Gives up an optional device that went away, when an IMU remains: reported, not fatal.
        mutating func dropOptional(_ error: IIOError, from set: inout IIOSensorSet) -> Bool {
            guard case let .ioFailed(device, _, code) = error, IIOError.meansDeviceGone(code) else { return false }
            let imuDevices = [set.accelerometer, set.gyroscope].compactMap { $0?.deviceName }
            guard !imuDevices.isEmpty, !imuDevices.contains(device) else { return false }
            var what: [String] = []
            if set.barometer?.deviceName == device { set.barometer = nil; what.append("barometer") }
            if set.thermometer?.deviceName == device { set.thermometer = nil; what.append("thermometer") }
            guard !what.isEmpty else { return false }
            dropped.insert(device)
            let reason = "\(what.joined(separator: " and ")) \(device) on \(source.spec.uri) went away (errno \(code))"
            source.counter.lost(sensor: reason)
            CaptureWarning.standardError(reason + (what.contains("barometer") ? "; floors are no longer counted, steps go on" : ""))
            return true
        }

        mutating func capture(_ context: IIOContext, _ devices: [IIODeviceDescription], _ chosen: IIOSensorSet) throws {
            var set = chosen
            let mode = IIOCaptureMode.choose(set, devices: devices, spec: source.spec)
            if mode.kind == .buffered, let imu = set.accelerometer ?? set.gyroscope,
               let d = devices.first(where: { $0.id == imu.deviceID }) {
                let imuOnly = IIOSensorSet(accelerometer: set.accelerometer, gyroscope: set.gyroscope)
                let reader = try IIOBufferedReader(context: context, description: d, sensors: imuOnly, trigger: mode.attachTrigger,
                                                   rateHz: source.rateHz, mountOverride: source.options.mountMatrix,
                                                   losses: source.counter, warnings: source.warnings)
                defer { reader.stop() }
                source.timingNote.set(reader.stamps.timing)
                var slowSet = IIOSensorSet(barometer: set.barometer, thermometer: set.thermometer)
                var slow = slowSet.isEmpty ? nil : try IIOPolledReader(context: context, sensors: slowSet, mountOverride: nil, losses: source.counter)
                var nextSlow = 0.0
                while !stop.isSet {
                    if let wakeNs = reader.wakeNanoseconds() {
                        stop.sleep(untilNs: wakeNs)
                        if stop.isSet { break }
                    }
                    var block = try reader.readBlock()
                    if let reader = slow, !block.isEmpty, BootClock.nowSeconds() >= nextSlow {
                        // Pressure and temperature ride on the block's last scan (one reading per block).
                        do {
                            let s = try reader.read(slow: true)
                            block[block.count - 1].pressure = s.pressure
                            block[block.count - 1].temperature = s.temperature
                        } catch let e as IIOError {
                            var both = IIOSensorSet(accelerometer: set.accelerometer, gyroscope: set.gyroscope,
                                                    barometer: slowSet.barometer, thermometer: slowSet.thermometer)
                            guard dropOptional(e, from: &both) else { throw e }
                            slowSet = IIOSensorSet(barometer: both.barometer, thermometer: both.thermometer)
                            slow = slowSet.isEmpty ? nil : try IIOPolledReader(context: context, sensors: slowSet, mountOverride: nil, losses: source.counter)
                        }
                        nextSlow = BootClock.nowSeconds() + 1 / IIOSource.slowRateHz
                    }
                    if !block.isEmpty { emit(block) }
                }
                return
            }
            while true {
                let reader = try IIOPolledReader(context: context, sensors: set, mountOverride: source.options.mountMatrix,
                                                 rateHz: source.rateHz, losses: source.counter)
                source.timingNote.set(.polled)
                do {
                    try poll(reader, hasIMU: set.accelerometer != nil || set.gyroscope != nil)
                    return
                } catch let e as IIOError {
                    guard dropOptional(e, from: &set) else { throw e }
                }
            }
        }

        /// Reads at `rateHz` on absolute deadlines (`PollSchedule`); when reads are slower than the
        /// period, as fast as they go (no burst to catch up), and the periods passed without a read
        /// are counted as `missedPolls`. The samples of `HandOver.seconds` of the schedule go out
        /// together: judged on time, not on a count, so reads slowed to a few a second (a loaded
        /// host, a starved guest) still reach the pedometer within a hand-over instead of once per
        /// `rate` samples, half a minute later, or never when the run stops before the count.
        mutating func poll(_ reader: IIOPolledReader, hasIMU: Bool) throws {
            let rate = hasIMU ? source.rateHz : IIOSource.slowRateHz
            var batch: [MotionSample] = []
            var schedule = PollSchedule(period: 1 / rate, start: BootClock.nowSeconds())
            var gatheredSince: Double?
            var nextSlow = schedule.next
            defer { if !batch.isEmpty { emit(batch) } }
            while !stop.isSet {
                let now = BootClock.nowSeconds()
                if schedule.next > now { stop.sleep(seconds: schedule.next - now) }
                if stop.isSet { break }
                let slow = BootClock.nowSeconds() >= nextSlow
                if slow { nextSlow += 1 / IIOSource.slowRateHz; nextSlow = max(nextSlow, BootClock.nowSeconds()) }
                if gatheredSince == nil { gatheredSince = schedule.next }
                batch.append(try reader.read(slow: slow))
                source.counter.add(missedPolls: schedule.advance(now: BootClock.nowSeconds()))
                // Half a period of slack: the deadlines are sums of periods, not exact multiples.
                if let since = gatheredSince, schedule.next - since >= HandOver.seconds - schedule.period / 2 {
                    emit(batch)
                    batch.removeAll(keepingCapacity: true)
                    gatheredSince = nil
                }
            }
        }
    }
}
