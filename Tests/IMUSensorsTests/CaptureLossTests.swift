import Synchronization
import Foundation
import Testing
@testable import IMUSensors
import ChipEmulators

/// Losses are counted where they happen (issue 10 item 11, 12 and 13): a chip FIFO that
/// overflows, a kernel buffer that dropped scans, a consumer that stalls, a barometer that goes.
@Suite("capture losses: FIFO overflow, kernel gaps, stalled consumer, lost barometer")
struct CaptureLossTests {
    /// The samples the chip produced but nobody delivered, from the truth: the gap in the
    /// delivered timestamps times the output rate.
    static func undelivered(_ samples: [MotionSample], rate: Double) -> Int {
        zip(samples, samples.dropFirst()).map { a, b in max(0, Int(((b.time - a.time) * rate).rounded()) - 1) }.reduce(0, +)
    }

    @Test("a FIFO left alone for 3 s overflows: the lost sets are counted, within two of the truth",
          arguments: ["mpu6050", "lis3dh", "adxl345", "icm42688", "bmi160", "lsm9ds1"])
    func fifoOverflowIsCounted(name: String) throws {
        let rig = try PollerRig(imu: name, fifo: true)
        var samples = try rig.run(1)
        #expect(rig.poller.losses.snapshot.bufferOverflow == 0, "\(name): nothing lost while drained in time")
        let capacitySeconds = Double(try #require(rig.poller.imu).fifoCapacitySets) / rig.poller.imu!.outputRateHz
        rig.clock.advance(capacitySeconds + 3)   // the capture thread stalled far past the FIFO's capacity
        samples += try rig.run(1)
        let lost = rig.poller.losses.snapshot.bufferOverflow
        let truth = Self.undelivered(samples, rate: rig.poller.imu!.outputRateHz)
        #expect(lost > 0, "\(name): overflow not counted")
        #expect(abs(lost - truth) <= 2, "\(name): counted \(lost), the timestamps say \(truth) are missing")
    }

    @Test("a barometer that goes away beside an IMU ends pressure only: reported, and steps' samples go on")
    func lostBarometerDegrades() throws {
        let rig = try PollerRig(imu: "mpu6050", barometer: "bmp280")
        let before = try rig.run(1)
        #expect(before.contains { $0.pressure != nil })
        rig.bus.vanish(0x76)
        let after = try rig.run(3)
        #expect(rig.poller.barometerLost)
        #expect(after.count >= 290, "the IMU stopped too: \(after.count) samples in 3 s")
        #expect(after.dropFirst(10).allSatisfy { $0.pressure == nil })
        let lost = rig.poller.losses.snapshot.lostSensors
        #expect(lost.count == 1)
        #expect(lost.first?.contains("bmp280 on /dev/i2c-1 @0x76") == true, "\(lost)")
    }

    @Test("an IMU that goes away still ends the source: steps cannot go on without it")
    func lostIMUEnds() throws {
        let rig = try PollerRig(imu: "mpu6050", barometer: "bmp280")
        _ = try rig.run(0.5)
        rig.bus.vanish(0x68)
        #expect(throws: I2CSourceError.self) { _ = try rig.run(2) }
    }

    @Test("a stalled consumer: the bounded hand-over keeps the newest batches and counts the rest")
    func stalledConsumer() async throws {
        let losses = LossCounter()
        let (stream, channel) = BatchChannel.make(capacity: 2, losses: losses, onStop: {})
        for i in 0..<5 {
            channel.send((0..<10).map { MotionSample(time: Double(i * 10 + $0)) })
        }
        channel.finish()
        var received: [Double] = []
        for try await batch in stream { received += batch.map(\.time) }
        #expect(losses.snapshot.stalledConsumer == 30)
        #expect(received == (30..<50).map(Double.init), "the newest two batches arrive, in order")
        #expect(losses.snapshot.summary == "dropped 30 (stalled consumer 30)")
    }

    /// The capture thread keeps its channel until it returns; a consumer that stops reading must
    /// still stop it, or a tool exits with the kernel's buffer running and its trigger attached
    /// (the test ring found both left behind by `imu-record -d` and `imu-bench-iio --dump`).
    @Test("a consumer that stops reading stops the capture, while the capture still holds its channel")
    func consumerLeaves() async throws {
        final class Flag: Sendable { let value = Atomic<Bool>(false) }
        let stopped = Flag()
        let channel: BatchChannel
        var stream: AsyncThrowingStream<[MotionSample], any Error>?
        (stream, channel) = BatchChannel.make(losses: LossCounter(), onStop: { stopped.value.store(true, ordering: .releasing) })
        channel.send([MotionSample(time: 1)])
        channel.send([MotionSample(time: 2)])
        for try await _ in stream! { break }
        stream = nil   // the consumer is done with it, as a tool's `for try await … in source.batches()` is
        let ran = stopped.value.load(ordering: .acquiring)
        #expect(ran, "onStop ran when the reader left")
        withExtendedLifetime(channel) {}
    }

    @Test("kernel buffer gaps: scans missing between kernel timestamps are counted at the trigger's real rate")
    func kernelGaps() {
        var gaps = ScanGapCounter()
        let period = 0.0098   // a trigger a little faster than the 100 Hz asked for
        let first = (0..<50).map { 100 + Double($0) * period }
        #expect(gaps.missing(in: first) == 0)
        // The reader stalled: 37 scans never made it into the buffer, then the stream goes on.
        let resume = first.last! + 38 * period
        let second = (0..<50).map { resume + Double($0) * period }
        #expect(gaps.missing(in: second) == 37)
        // A gap inside a block counts too; timer jitter (±0.3 ms here) does not.
        let start = second.last!
        var third: [Double] = (0..<50).map { (i: Int) -> Double in
            let jitter: Double = 0.0003 * sin(Double(i) * 2.1)
            return start + Double(i + 1) * period + jitter
        }
        third.removeSubrange(20..<25)
        #expect(gaps.missing(in: third) == 5)
    }

    @Test("a late tick followed by an early one (a starved timer on its grid) is no missing scan")
    func lateTickIsNotALoss() {
        var gaps = ScanGapCounter()
        let period = 0.01
        var times = (0..<60).map { 10 + Double($0) * period }
        for late in [12, 30, 47] { times[late] += 0.006 }   // 16 ms after the one before, 4 ms before the next
        #expect(gaps.missing(in: times) == 0)
    }

    @Test("a gap at the end of a block is judged when the next block brings the scans after it")
    func gapAcrossBlocks() {
        var gaps = ScanGapCounter()
        let period = 0.01
        var times = (0..<40).map { 5 + Double($0) * period }
        times[39] += 0.05   // 5 scans missing before the block's last one
        #expect(gaps.missing(in: times) == 0)
        let next = (1...20).map { times[39] + Double($0) * period }
        #expect(gaps.missing(in: next) == 5)
    }

    @Test("a live I²C source streams from its own thread in batches of at most one hand-over, and stops when the consumer goes")
    func liveSourceBatches() async throws {
        let bus = EmulatedI2CBus(clock: .boot())
        let address = EmulatorCatalog.attach("lsm6ds3", to: bus, motion: Motions.walk)
        let environment = I2CEnvironment(adapters: { ["/dev/i2c-1"] }, adapterName: { _ in nil },
                                         open: { _ throws(I2CError) in bus })
        let backend = I2CBackend(environment: environment, mountConfigPath: "/nonexistent/mount.conf")
        let source = try backend.open(spec: "1@\(I2CAddress.hex(address))", options: SourceOptions(rateHz: 100))
        var batches: [[MotionSample]] = []
        // Judged on sample time, not on when the test's task happens to run (a loaded machine).
        for try await batch in source.batches() {
            batches.append(batch)
            if let first = batches.first?.first, batch.last!.time - first.time >= 2.5 * HandOver.seconds { break }
        }
        let samples = batches.flatMap { $0 }
        let span = samples.last!.time - samples.first!.time
        let losses = source.losses
        // 104 Hz within each batch, handed over in batches of at most one hand-over each.
        for batch in batches.dropFirst() where batch.count >= 10 {
            let rate = Double(batch.count - 1) / (batch.last!.time - batch.first!.time)
            #expect(abs(rate - 104) < 5, "a batch of \(batch.count) samples at \(rate) Hz")
            // One hand-over, and half of one for a wake-up that comes late on a loaded machine.
            #expect(batch.last!.time - batch.first!.time <= 1.5 * HandOver.seconds, "a batch of \(batch.count) samples")
        }
        // Over the whole run every sample arrived or was counted: a consumer starved by a busy
        // machine (parallel tests) makes the bounded hand-over drop batches, and count them.
        #expect(Double(samples.count + losses.stalledConsumer) >= 0.95 * span * 104,
                "\(samples.count) received + \(losses.stalledConsumer) dropped over \(span) s")
        #expect(Double(samples.count) <= 1.05 * span * 104 + 2)
        #expect(losses.bufferOverflow == 0 && losses.nonIncreasingTime == 0)
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.time > a.time) }
    }
}

@Suite("capture losses: a polled chip read late")
struct MissedPollTests {
    @Test("data registers polled without a FIFO, the capture thread stalled for 0.5 s: the samples the chip overwrote are counted, within one of the truth",
          arguments: ["mpu6050", "lis3dh", "bmi160"])
    func lateDirectReadsAreCounted(name: String) throws {
        let rig = try PollerRig(imu: name, fifo: false)
        var samples = try rig.run(1)
        #expect(rig.poller.losses.snapshot.missedPolls == 0, "\(name): nothing missed while read on time")
        rig.clock.advance(0.5)
        samples += try rig.run(1)
        let losses = rig.poller.losses.snapshot
        let truth = CaptureLossTests.undelivered(samples, rate: rig.poller.imu!.outputRateHz)
        #expect(losses.missedPolls > 0, "\(name): the stall was not counted")
        #expect(abs(losses.missedPolls - truth) <= 1, "\(name): counted \(losses.missedPolls), the timestamps say \(truth) are missing")
        #expect(losses.total == losses.missedPolls && losses.summary.contains("missed polls \(losses.missedPolls)"), "\(losses.summary)")
    }
}
