import Foundation
import Testing
@testable import IMUSimulation

@Suite struct SourceTests {
    @Test func unpacedSourceYieldsEverySampleAndFinishes() async throws {
        let o = options { $0.seed = 5 }
        let source = SimulatedSource(scenario: scenario("demo"), options: o, speed: .infinity)
        var received: [MotionSample] = []
        var batches = 0
        for try await batch in source.batches() {
            received += batch
            batches += 1
        }
        #expect(received == Simulator.generate(scenario("demo"), options: o).samples)
        #expect(batches > 1)
        #expect(source.info.isSimulated)
        #expect(source.info.name == "simulated demo")
        #expect(source.info.calibrationKey == "sim:demo")
        #expect(source.info.capabilities == SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true))
    }

    @Test func loopContinuesTheTimeline() async throws {
        let short = Scenario(name: "short", segments: [Segment(.still, seconds: 1)])
        let source = SimulatedSource(scenario: short, options: options { $0.sampleRateHz = 50 }, speed: 0, loop: true)
        var received: [MotionSample] = []
        for try await batch in source.batches() {
            received += batch
            if received.count >= 180 { break }
        }
        #expect(received.count >= 180)
        #expect(zip(received.dropFirst(), received).allSatisfy { $0.time > $1.time })
        #expect(received.last!.time > 1003)
    }

    @Test func pacedSourceCanBeCancelled() async throws {
        let source = SimulatedSource(scenario: scenario("walk"), options: .init(), speed: 1)
        let task = Task {
            var count = 0
            for try await batch in source.batches() { count += batch.count }
            return count
        }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let count = try await task.value
        #expect(count < 12_000)    // stopped long before the 120 s scenario's end
    }

    @Test func pacedBatchesHoldOneHandOverAsAFIFOReadDoes() async throws {
        // One hand-over per HandOver.seconds at 100 Hz, the cadence of IIO blocks and chip FIFOs (issues #11, #16).
        let source = SimulatedSource(scenario: scenario("walk"), options: .init(), speed: 1)
        var batches = source.batches().makeAsyncIterator()
        let first = try #require(try await batches.next())
        let second = try #require(try await batches.next())
        let expected = Int((100 * HandOver.seconds).rounded())
        #expect(first.count == expected && second.count == expected)
        // One hand-over apart, within one sample period (the simulator jitters its sample clock).
        #expect(second[0].time > first[first.count - 1].time)
        #expect(abs(second[0].time - first[0].time - HandOver.seconds) < 0.01)
    }

    @Test func backendOpensSpecs() throws {
        let backend = SimulationBackend()
        #expect(backend.scheme == "sim")
        #expect(backend.inventory().isEmpty)
        #expect(try backend.openDefault(options: SourceOptions()) == nil)
        let source = try backend.open(spec: "walk?speed=2&seed=3&rate=200&holding=pocket&baro=off", options: SourceOptions())
        #expect(source.info.name == "simulated walk")
        #expect(source.info.nominalRateHz == 200)
        #expect(source.info.capabilities.barometer == false)
        let spec = try SimulationSpec("sim:run?speed=inf&ideal=on&loop=1")
        #expect(spec.speed == .infinity && spec.loop && spec.options.accelerometer == .perfect)
        #expect(try SimulationSpec("walk", rateHz: 50).options.sampleRateHz == 50)
        #expect(try SimulationSpec("walk?rate=400", rateHz: 50).options.sampleRateHz == 400)
    }

    @Test(arguments: ["jog", "", "walk?speed=fast", "walk?rate=0", "walk?colour=red", "walk?holding=hat", "walk?seed=-1", "walk?baro=1000"])
    func backendRejectsBadSpecs(spec: String) {
        do {
            _ = try SimulationBackend().open(spec: spec, options: SourceOptions())
            Issue.record("accepted \(spec)")
        } catch let error as SimulationError {
            #expect(error.exitStatus == .usage)
            #expect(error.fix != nil)
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test func dayRoundTripsThroughCSV() throws {
        let o = options { $0.includeTemperature = true }
        let (samples, _) = Simulator.generate(scenario("day"), options: o)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imusim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("day.csv").path
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: o.capabilities),
                                         comments: ["sensor: simulated day, seed 1"])
        for s in samples { try writer.write(s) }
        try writer.close()
        let reader = try RecordingReader(path: path)
        #expect(reader.capabilities == o.capabilities)
        var back: [MotionSample] = []
        while let s = try reader.next() { back.append(s) }
        #expect(back.count == samples.count)
        for (a, b) in zip(samples, back) {
            #expect(abs(a.time - b.time) <= 5e-7)
            #expect(norm(a.acceleration! - b.acceleration!) <= 1e-5)
            #expect(norm(a.rotationRate! - b.rotationRate!) <= 1e-5)
            #expect((a.pressure == nil) == (b.pressure == nil))
            if let p = a.pressure, let q = b.pressure { #expect(abs(p - q) <= 5e-5) }
            #expect(abs(a.temperature! - b.temperature!) <= 5e-4)
        }
    }
}

@Suite struct SourceFailureTests {
    @Test func failAfterThrowsARuntimeFailure() async throws {
        let source = try SimulationBackend().open(spec: "walk?speed=inf&fail=2.5", options: SourceOptions())
        var received = 0
        do {
            for try await batch in source.batches() { received += batch.count }
            Issue.record("no failure")
        } catch let error as SimulatedSensorLost {
            #expect(error.exitStatus == .runtimeFailure)
            #expect(error.description.contains("simulated walk"))
        }
        #expect(received > 0 && received <= 250)
    }

    @Test func compositionSpecs() throws {
        let spec = try SimulationSpec("sim:still:5,walk:60/pocket?seed=2")
        #expect(spec.scenario.segments.count == 2)
        #expect(spec.options.seed == 2)
    }
}

@Suite struct SourceValidationTests {
    @Test func invalidOptionsFailTheStreamInsteadOfCrashing() async {
        let source = SimulatedSource(scenario: scenario("walk"), options: options { $0.sampleRateHz = 0 }, speed: 0)
        do {
            for try await _ in source.batches() { Issue.record("produced samples") }
            Issue.record("no error")
        } catch let error as SimulationError {
            #expect(error.description.contains("sample rate"))
        } catch {
            Issue.record("wrong error \(error)")
        }
    }
}
