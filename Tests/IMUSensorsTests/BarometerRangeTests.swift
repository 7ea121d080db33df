import Synchronization
import Testing
@testable import IMUSensors
import ChipEmulators

/// A barometer reading outside 250–1300 hPa (`BarometerRange`): output registers read while the
/// chip updates them (reported for the ST LPS22HB), a failing sensor. It is left out of the sample
/// it would have ridden on and counted (`SampleLosses.outOfRangePressure`), never thrown (the
/// driver used to throw, which reconfigured the chip after backoff sleeps on the capture thread
/// and after three in a row gave the barometer up), never passed on as a pressure.
@Suite("Barometer readings out of range")
struct BarometerRangeTests {
    /// The walk of `Motions.walk`, with the barometer's output registers holding `glitch` hPa
    /// while the emulator's clock is within `windows` (s, the rig's clock starts at 50).
    static func walk(glitch: Double, windows: [Range<Double>]) -> MotionScript {
        { t in
            var truth = Motions.walk(t)
            if windows.contains(where: { $0.contains(t) }) { truth.pressure = glitch }
            return truth
        }
    }

    /// Beside an IMU: steps go on, the pressures that reach samples are the walk's, the readings
    /// in the windows are counted. A window of w seconds holds ⌊w·f⌋ or ⌈w·f⌉ conversions at the
    /// chip's rate f (10 Hz asked: the LPS22HB gives 10, the LPS25H 12.5), each read once (a read
    /// may see the previous conversion: a shift of at most one period, not a change of count).
    @Test("beside an IMU, out-of-range readings are left out and counted; nothing is reconfigured",
          arguments: [("lps22hb", 1900.0), ("lps22hb", -3.0), ("lps25h", 1900.0), ("lps22hb", 0.0)])
    func besideAnIMU(chip: String, glitch: Double) throws {
        let rig = try PollerRig(imu: "mpu6050", barometer: chip,
                                motion: Self.walk(glitch: glitch, windows: [51.0..<51.35, 52.0..<52.25]))
        let samples = try rig.run(3)
        let pressures = samples.compactMap(\.pressure)
        #expect(samples.count >= 290 && samples.allSatisfy { $0.acceleration != nil }, "\(samples.count) samples")
        #expect(pressures.allSatisfy { (1010...1014).contains($0) }, "\(pressures.filter { !(1010...1014).contains($0) })")
        let dropped = rig.poller.losses.snapshot.outOfRangePressure
        let hz = try #require(rig.poller.barometer?.outputRateHz)
        let fewest = Int((0.35 * hz).rounded(.down) + (0.25 * hz).rounded(.down))
        let most = Int((0.35 * hz).rounded(.up) + (0.25 * hz).rounded(.up))
        #expect((fewest...most).contains(dropped), "\(dropped) dropped at \(hz) Hz")
        // 3 s at f: the readings that reached samples and the ones left out, one period either way.
        let reads = pressures.count + dropped
        #expect(abs(Double(reads) - 3 * hz) <= 1, "\(pressures.count) + \(dropped) at \(hz) Hz")
        #expect(rig.poller.recoveries == 0 && !rig.poller.barometerLost)
        #expect(rig.poller.losses.snapshot.total == 0, "no sample is lost: only pressures")
    }

    /// The first reading left out is said at once (a barometer that keeps reading nonsense would
    /// otherwise count no floors without a word until the end), the later ones only counted.
    @Test func theFirstReadingLeftOutIsWarnedOnce() throws {
        let rig = try PollerRig(imu: "mpu6050", barometer: "lps22hb",
                                motion: Self.walk(glitch: 1900, windows: [51.0..<51.35, 52.0..<52.25]))
        let warnings = Mutex<[String]>([])
        rig.poller.warn = { message in warnings.withLock { $0.append(message) } }
        _ = try rig.run(3)
        let said = warnings.withLock { $0 }
        #expect(said.count == 1 && said[0].hasPrefix("lps22hb on /dev/i2c-")
                    && said[0].contains(": pressure 1900.0 hPa is outside 250–1300 hPa: left out"), "\(said)")
        #expect(rig.poller.losses.snapshot.outOfRangePressure > 1)
    }

    /// A lone barometer: no sample for a reading left out (it would hold nothing), no error.
    @Test func aLoneBarometerSkipsTheReadingWithoutAnError() throws {
        let rig = try PollerRig(imu: nil, barometer: "lps22hb", motion: Self.walk(glitch: 1900, windows: [51.0..<51.35]))
        let samples = try rig.run(3)
        #expect(samples.allSatisfy { ($0.pressure.map { (1010...1014).contains($0) }) == true }, "\(samples.map(\.pressure))")
        let dropped = rig.poller.losses.snapshot.outOfRangePressure
        #expect((3...4).contains(dropped) && abs(samples.count + dropped - 30) <= 1, "\(samples.count) + \(dropped)")
    }

    /// The bounds themselves: RecordingLimits' (what a recording may hold), NaN outside, and the
    /// temperature read with the pressure checked too.
    @Test func theBoundsAreTheRecordingLimits() {
        #expect(BarometerRange.accepts(pressure: 250, temperature: 25) && BarometerRange.accepts(pressure: 1300, temperature: nil))
        #expect(!BarometerRange.accepts(pressure: 249.99, temperature: 25) && !BarometerRange.accepts(pressure: 1300.01, temperature: 25))
        #expect(!BarometerRange.accepts(pressure: .nan, temperature: 25) && !BarometerRange.accepts(pressure: 0, temperature: nil))
        #expect(!BarometerRange.accepts(pressure: 1013, temperature: 400) && !BarometerRange.accepts(pressure: 1013, temperature: .nan))
    }

    /// What the tools print (LossReport's line, imu-record's progress) comes from the counter.
    @Test func theCountIsReported() {
        var losses = SampleLosses()
        #expect(losses.summary == "dropped 0")
        losses.outOfRangePressure = 4
        #expect(losses.summary == "dropped 0, 4 pressure readings outside 250–1300 hPa left out")
        #expect(losses.total == 0)
    }
}
