import Foundation

/// A sample source on an IIO context: buffered where a trigger exists, polled otherwise.
///
/// Faults: a lost device ends the stream with `IIOError.deviceLost` (the consumer keeps whatever
/// totals it has). With `?resume=SECONDS` the source first retries, reopening the context with
/// backoff (0.5 s doubling to 4 s) and finding the devices again by name, and carries on when they
/// return; a broken `ip:` link (`IIOError.linkLost`) is retried the same way. A call that hangs
/// past its bound ends the stream with `IIOError.timedOut`: the stuck call still owns the
/// context, so nothing is retried on it.
public final class IIOSource: SampleSource, @unchecked Sendable {
    public let info: SourceInfo
    public let spec: IIOSourceSpec
    public let mode: IIOCaptureMode
    let options: SourceOptions
    /// Channels a buffered capture enables, and the bytes per scan they take (nil when polled).
    public let scanChannels: [String]
    public let scanBytes: Int?
    private let names: [String]
    private var opened: (IIOContext, [IIODeviceDescription], IIOSensorSet)?
    /// Nominal rate of the IMU in Hz (SourceOptions.rateHz, default 100).
    let rateHz: Double
    /// Barometer and thermometer poll rate in Hz: pressure changes slowly, and every read costs an
    /// I²C transfer (or an iiod round trip); 10 Hz resolves a floor in well under a second.
    static let slowRateHz = 10.0
    /// Default IMU rate in Hz (SourceOptions: "100 Hz for IMUs").
    static let defaultRateHz = 100.0

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
        opened = (context, devices, set)
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
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[MotionSample], any Error>.makeStream()
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.set() }
        let thread = Thread { [self] in
            do {
                try self.run(continuation, stop)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "imukit-iio"
        thread.start()
        return stream
    }

    /// Capture loop with loss detection and resume.
    private func run(_ out: AsyncThrowingStream<[MotionSample], any Error>.Continuation, _ stop: StopFlag) throws {
        var delivered = 0
        var lastTime = -Double.infinity
        while !stop.isSet {
            let (context, devices, set) = try takeOrReopen(delivered: delivered, stop: stop)
            do {
                try capture(context, devices, set, stop) { batch in
                    // Strictly increasing times across blocks and reopenings.
                    let fresh = batch.filter { $0.time > lastTime }
                    guard !fresh.isEmpty else { return }
                    lastTime = fresh[fresh.count - 1].time
                    delivered += fresh.count
                    out.yield(fresh)
                }
                return
            } catch let e as IIOError {
                let gone: Bool
                switch e {
                case let .ioFailed(_, _, code): gone = IIOError.meansDeviceGone(code)
                case .noDevice, .linkLost: gone = true
                default: gone = false
                }
                guard gone else { throw e }
                if spec.resumeSeconds <= 0 {
                    if case .linkLost = e { throw e }
                    throw lost(delivered, waited: 0)
                }
                // Fall through: the next turn reopens and waits for the devices to return.
            }
        }
    }

    private func lost(_ delivered: Int, waited: Double) -> IIOError {
        .deviceLost(device: names.joined(separator: "+"), samplesDelivered: delivered, waitedSeconds: waited)
    }

    /// The context opened at init the first time; later, a fresh one with the same devices, retried
    /// with backoff for up to `spec.resumeSeconds`.
    private func takeOrReopen(delivered: Int, stop: StopFlag) throws -> (IIOContext, [IIODeviceDescription], IIOSensorSet) {
        if let o = opened { opened = nil; return o }
        let start = BootClock.nowSeconds()
        var wait = 0.5  // first retry after half a second, doubling to 4 s
        while true {
            if stop.isSet { throw CancellationError() }
            if let context = try? IIOContext(uri: spec.uri), let devices = try? context.describe() {
                let set = IIODiscovery.select(from: devices, names: names)
                if set.deviceNames.sorted() == names.sorted() { return (context, devices, set) }
            }
            let waited = BootClock.nowSeconds() - start
            if waited >= spec.resumeSeconds { throw lost(delivered, waited: spec.resumeSeconds) }
            Thread.sleep(forTimeInterval: min(wait, spec.resumeSeconds - waited))
            wait = min(wait * 2, 4)
        }
    }

    private func capture(_ context: IIOContext, _ devices: [IIODeviceDescription], _ set: IIOSensorSet,
                         _ stop: StopFlag, _ emit: ([MotionSample]) -> Void) throws {
        let slowSet = IIOSensorSet(barometer: set.barometer, thermometer: set.thermometer)
        let mode = IIOCaptureMode.choose(set, devices: devices, spec: spec)
        if mode.kind == .buffered, let imu = set.accelerometer ?? set.gyroscope,
           let d = devices.first(where: { $0.id == imu.deviceID }) {
            let imuOnly = IIOSensorSet(accelerometer: set.accelerometer, gyroscope: set.gyroscope)
            let reader = try IIOBufferedReader(context: context, description: d, sensors: imuOnly, trigger: mode.attachTrigger,
                                               rateHz: rateHz, mountOverride: options.mountMatrix)
            defer { reader.stop() }
            let slow = slowSet.isEmpty ? nil : try IIOPolledReader(context: context, sensors: slowSet, mountOverride: nil)
            var nextSlow = 0.0
            while !stop.isSet {
                var block = try reader.readBlock()
                if let slow, !block.isEmpty, BootClock.nowSeconds() >= nextSlow {
                    // Pressure and temperature ride on the block's last scan (one reading per block).
                    let s = try slow.read(slow: true)
                    block[block.count - 1].pressure = s.pressure
                    block[block.count - 1].temperature = s.temperature
                    nextSlow = BootClock.nowSeconds() + 1 / Self.slowRateHz
                }
                if !block.isEmpty { emit(block) }
            }
            return
        }
        let reader = try IIOPolledReader(context: context, sensors: set, mountOverride: options.mountMatrix, rateHz: rateHz)
        try poll(reader, hasIMU: set.accelerometer != nil || set.gyroscope != nil, stop, emit)
    }

    /// Reads at `rateHz` on absolute deadlines; when reads are slower than the period, as fast as
    /// they go (no burst to catch up). Batches of about 50 ms go out together.
    private func poll(_ reader: IIOPolledReader, hasIMU: Bool, _ stop: StopFlag, _ emit: ([MotionSample]) -> Void) throws {
        let rate = hasIMU ? rateHz : Self.slowRateHz
        let period = 1 / rate
        let batchSize = max(1, Int(rate / 20))  // 20 batches a second
        var batch: [MotionSample] = []
        var next = BootClock.nowSeconds()
        var nextSlow = next
        while !stop.isSet {
            let now = BootClock.nowSeconds()
            if next > now { Thread.sleep(forTimeInterval: next - now) }
            let slow = BootClock.nowSeconds() >= nextSlow
            if slow { nextSlow += 1 / Self.slowRateHz; nextSlow = max(nextSlow, BootClock.nowSeconds()) }
            batch.append(try reader.read(slow: slow))
            if batch.count >= batchSize { emit(batch); batch.removeAll(keepingCapacity: true) }
            next += period
            if next < BootClock.nowSeconds() - period { next = BootClock.nowSeconds() }
        }
        if !batch.isEmpty { emit(batch) }
    }
}

/// Set once by the consumer's cancellation; read by the capture thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
