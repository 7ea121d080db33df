import Testing
@testable import IMUSimulation

@Suite struct TimingTests {
    @Test func barometerOnlyOnSomeSamples() {
        let samples = Simulator.generate(scenario("walk"), options: options { $0.sampleRateHz = 100; $0.barometerRateHz = 25 }).samples
        let withPressure = samples.filter { $0.pressure != nil }.count
        #expect(withPressure == samples.count / 4)
        #expect(samples[0].pressure != nil)
        let none = Simulator.generate(scenario("walk"), options: options { $0.barometerRateHz = nil }).samples
        #expect(none.allSatisfy { $0.pressure == nil })
        #expect(SimulatedSource(scenario: scenario("walk"), options: options { $0.barometerRateHz = nil }).info.capabilities.barometer == false)
    }

    @Test func optionalChannels() {
        let plain = Simulator.generate(scenario("still"), options: options { $0.includeGyroscope = false }).samples
        #expect(plain.allSatisfy { $0.rotationRate == nil && $0.temperature == nil && $0.acceleration != nil })
        let warm = Simulator.generate(scenario("still"), options: options { $0.includeTemperature = true }).samples
        #expect(warm.allSatisfy { ($0.temperature ?? 0) > 24 && ($0.temperature ?? 99) < 28 })
    }

    @Test(arguments: [25.0, 50, 100, 400, 1000])
    func anyRateGivesThatManySamples(rate: Double) {
        let o = idealOptions { $0.sampleRateHz = rate }
        let samples = Simulator.generate(scenario("wave"), options: o).samples
        #expect(samples.count == Int(25 * rate))
        #expect(abs(samples[1].time - samples[0].time - 1 / rate) < 1e-9)
    }

    @Test func jitterKeepsTimeStrictlyIncreasing() {
        let o = options { $0.sampleRateHz = 1000; $0.timestampJitterSeconds = 0.01 }
        let samples = Simulator.generate(scenario("walk"), options: o).samples
        #expect(zip(samples.dropFirst(), samples).allSatisfy { $0.time > $1.time })
        let offsets = samples.enumerated().map { $1.time - (o.startTime + Double($0) / 1000) }
        #expect(offsets.contains { $0 != 0 })
        #expect(offsets.allSatisfy { abs($0) <= 0.4 / 1000 + 1e-9 })
    }

    @Test func gapsDropSamples() {
        let o = idealOptions { $0.gaps = [10...12.5, 30...30.2] }
        let samples = Simulator.generate(scenario("walk"), options: o).samples
        for s in samples {
            let t = s.time - o.startTime
            #expect(!(10...12.5).contains(t) && !(30...30.2).contains(t))
        }
        #expect(samples.contains { abs($0.time - o.startTime - 9.99) < 1e-6 })
        #expect(samples.contains { abs($0.time - o.startTime - 12.51) < 1e-6 })
        #expect(samples.count == 12_000 - 251 - 21)
    }

    @Test func weatherDriftAndDoorSlams() {
        let still = Scenario(name: "s", segments: [Segment(.still, seconds: 3600)])
        let o = options { $0.sampleRateHz = 10; $0.barometerRateHz = 1; $0.weatherDriftHPaPerHour = 0.5; $0.doorSlams = [1800] }
        let samples = Simulator.generate(still, options: o).samples
        let first = meanPressure(samples, in: o.startTime...(o.startTime + 60))
        let last = meanPressure(samples, in: (o.startTime + 3540)...(o.startTime + 3600))
        #expect(abs((last - first) - 0.5 * (3570 - 30) / 3600) < 0.02)
        let slam = samples.first { $0.time >= o.startTime + 1800 && $0.pressure != nil }!.pressure!
        let quiet = meanPressure(samples, in: (o.startTime + 1790)...(o.startTime + 1799))
        #expect(slam - quiet > 0.15)
    }
}

@Suite struct OptionValidationTests {
    @Test func defaultsAndIdealAreValid() throws {
        try SimulationOptions().validate()
        try SimulationOptions.ideal.validate()
    }

    @Test(arguments: [
        { (o: inout SimulationOptions) in o.sampleRateHz = 0 },
        { (o: inout SimulationOptions) in o.sampleRateHz = .nan },
        { (o: inout SimulationOptions) in o.barometerRateHz = 500 },
        { (o: inout SimulationOptions) in o.timestampJitterSeconds = -1 },
        { (o: inout SimulationOptions) in o.accelerometer.misalignment = [[1, 0], [0, 1]] },
        { (o: inout SimulationOptions) in o.gyroscope.scale = Vector3(1, 0, 1) },
        { (o: inout SimulationOptions) in o.accelerometer.resolution = -1 },
        { (o: inout SimulationOptions) in o.startAltitudeMeters = 50_000 },
        { (o: inout SimulationOptions) in o.gaps = [0...Double.infinity] },
    ] as [@Sendable (inout SimulationOptions) -> Void])
    func rejectsBadOptions(change: @Sendable (inout SimulationOptions) -> Void) {
        var o = SimulationOptions()
        change(&o)
        #expect(throws: SimulationError.self) { try o.validate() }
    }
}
