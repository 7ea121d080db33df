/// Samples from chips on /dev/i2c-N: an IMU, a barometer, or both merged into one stream.
public final class I2CSampleSource: SampleSource, @unchecked Sendable {
    public let info: SourceInfo
    public let poller: I2CPoller

    /// `poller` must be configured already (so open errors surface at open, not mid-stream).
    public init(poller: I2CPoller) {
        self.poller = poller
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
    }

    /// "i2c-1-0x68-mpu6050": bus, address and chip of the source's first chip; also the key
    /// `mount.conf` is looked up by.
    public static func calibrationKey(_ chip: any ChipDriver) -> String {
        "i2c-\(I2CAddress.busNumber(chip.device.bus.path) ?? 0)-\(I2CAddress.hex(chip.device.address))-\(chip.model.name)"
    }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        let poller = self.poller
        return AsyncThrowingStream { continuation in
            let task = Task.detached {
                do {
                    while !Task.isCancelled {
                        let samples = try poller.step(nowNs: BootClock.nowNanoseconds())
                        if !samples.isEmpty { continuation.yield(samples) }
                        let wait = poller.nextDueNs - BootClock.nowNanoseconds()
                        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait)) }
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
