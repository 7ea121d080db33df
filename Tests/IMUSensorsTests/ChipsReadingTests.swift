import Testing
import IMUSensors
import ChipEmulators

@Suite("Chip drivers read their emulators")
struct ChipsReadingTests {
    @Test("IMUs: direct reads follow the scripted motion, one transaction per sample set", arguments: imuNames)
    func imuDirect(name: String) throws {
        let rig = try ChipRig(name, motion: Motions.walk)
        try rig.driver.configure(rateHz: 100, useFIFO: false)
        #expect(rig.driver.outputRateHz > 80 && rig.driver.outputRateHz < 130)
        for step in 1...20 {
            rig.clock.advance(0.0137 * Double(step % 3 + 1))
            let before = rig.bus.transactionCount
            let readings = try rig.driver.readBatch()
            #expect(rig.bus.transactionCount - before == 1, "one transaction per sample set")
            #expect(readings.count == 1)
            let r = try #require(readings.first)
            // The data registers hold the last sample produced at or before now.
            let period = try 1 / rig.chipRateHz
            let sampleTime = (rig.clock.now / period).rounded(.down) * period
            let truth = Motions.walk(sampleTime)
            let a = try #require(r.acceleration)
            #expect(abs(a.x - truth.acceleration.x) < Tolerance.accelG + 0.02 && abs(a.z - truth.acceleration.z) < Tolerance.accelG + 0.06,
                    "\(name) accel \(a) vs \(truth.acceleration)")
            if rig.driver.model.capabilities.gyroscope {
                let g = try #require(r.rotationRate)
                #expect(abs(g.z - truth.rotationRate.z) < Tolerance.gyroRadPerS + 0.04, "\(name) gyro \(g) vs \(truth.rotationRate)")
                #expect(abs(g.y - truth.rotationRate.y) < Tolerance.gyroRadPerS)
                #expect(abs(try #require(r.temperature) - truth.temperature) < Tolerance.temperatureC)
            } else {
                #expect(r.rotationRate == nil)
            }
            #expect(r.saturatedAxes.isEmpty)
        }
    }

    @Test("IMUs with a FIFO: every sample arrives, in order, in one data transaction per batch", arguments: fifoNames)
    func imuFIFO(name: String) throws {
        let rig = try ChipRig(name, motion: Motions.walk)
        try rig.driver.configure(rateHz: 100, useFIFO: true)
        #expect(rig.driver.usesFIFO)
        let start = rig.clock.now
        let (all, transactions) = try rig.drain(batches: 5, every: 0.1)
        let expected = try rig.samplesProduced
        #expect(expected > 40)
        #expect(all.count == expected, "\(name): \(all.count) of \(expected) samples")
        if name == "adxl345" || name == "lis3dh" {
            // Status read plus one 6-byte burst per entry (a burst is not relied on to roll over).
            #expect(transactions == 5 + all.count)
        } else if name == "lsm9ds1" {
            // Status read plus a gyro and an accel burst per set (popped through the output registers).
            #expect(transactions == 5 + 2 * all.count)
        } else {
            #expect(transactions == 10, "\(name): count + data per batch, got \(transactions)")
        }
        // Sample k was produced at start + (k+1)/ODR.
        let period = try 1 / rig.chipRateHz
        for (k, r) in all.enumerated() {
            let truth = Motions.walk(start + Double(k + 1) * period)
            let a = try #require(r.acceleration)
            #expect(abs(a.z - truth.acceleration.z) < Tolerance.accelG, "\(name) sample \(k): \(a.z) vs \(truth.acceleration.z)")
            if let g = r.rotationRate {
                #expect(abs(g.z - truth.rotationRate.z) < Tolerance.gyroRadPerS, "\(name) sample \(k) gyro")
            }
        }
    }

    @Test("barometers: pressure and temperature follow the script", arguments: barometerNames)
    func barometer(name: String) throws {
        let rig = try ChipRig(name, motion: Motions.walk)
        try rig.driver.configure(rateHz: 10, useFIFO: false)
        #expect(rig.driver.outputRateHz >= 4 && rig.driver.outputRateHz <= 16, "\(name) rate \(rig.driver.outputRateHz)")
        var read = 0
        for _ in 0..<10 {
            rig.clock.advance(0.25)
            let before = rig.bus.transactionCount
            let readings = try rig.driver.readBatch()
            #expect(rig.bus.transactionCount - before == 1)
            guard let r = readings.first else { continue }
            read += 1
            let period = try 1 / rig.chipRateHz
            let truth = Motions.walk((rig.clock.now / period).rounded(.down) * period)
            let p = try #require(r.pressure)
            #expect(abs(p - truth.pressure) < Tolerance.pressureHPa, "\(name) pressure \(p) vs \(truth.pressure)")
            #expect(abs(try #require(r.temperature) - truth.temperature) < Tolerance.temperatureC, "\(name) temperature")
        }
        #expect(read >= 9)
    }

    @Test("barometer FIFOs: every conversion arrives in order, two transactions per batch", arguments: ["bmp388", "bmp390", "lps22hb"])
    func barometerFIFO(name: String) throws {
        let rig = try ChipRig(name, motion: Motions.walk)
        try rig.driver.configure(rateHz: 25, useFIFO: true)
        #expect(rig.driver.usesFIFO)
        let start = rig.clock.now
        let (all, transactions) = try rig.drain(batches: 4, every: 1)
        #expect(transactions == 8)
        let produced = try rig.samplesProduced, rateHz = try rig.chipRateHz
        #expect(all.count == produced && all.count >= 99, "\(name): \(all.count) of \(produced)")
        for (k, r) in all.enumerated() {
            let truth = Motions.walk(start + Double(k + 1) / rateHz)
            #expect(abs(r.pressure! - truth.pressure) < Tolerance.pressureHPa, "\(name) frame \(k)")
            #expect(abs(r.temperature! - truth.temperature) < Tolerance.temperatureC)
        }
    }

    @Test("a saturated axis is flagged, not silently clipped", arguments: imuNames)
    func saturation(name: String) throws {
        let hard: MotionScript = { _ in MotionTruth(acceleration: Vector3(0, 0, 40), rotationRate: Vector3(0, 0, 0.1)) }
        let rig = try ChipRig(name, motion: hard)
        try rig.driver.configure(rateHz: 100, useFIFO: false)
        rig.clock.advance(0.05)
        let r = try #require(try rig.driver.readBatch().first)
        #expect(r.saturatedAxes == ["az"], "\(name): \(r.saturatedAxes)")
    }
}
