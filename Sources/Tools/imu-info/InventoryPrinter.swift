import IMUCLI
import IMULocation
import IMUSensors

/// Prints inventory items, sources and samples: one greppable line each
/// (`chip  /dev/i2c-1 @0x68  mpu6050  id=0x68  driver=imukit-mpu6050`), or JSON Lines.
struct InventoryPrinter: Sendable {
    let json: Bool

    func print(_ item: InventoryItem) {
        if json {
            var line = JSONLine(type: item.kind.rawValue)
            line.add("location", item.location)
            line.add("name", item.name)
            for (k, v) in item.details { line.add(k, v) }
            if let fix = item.fix { line.add("fix", fix) }
            emit(line.text)
        } else {
            var fields = [item.kind.rawValue, item.location, item.name] + item.details.map { "\($0.0)=\(quoted($0.1))" }
            if let fix = item.fix { fields.append("fix: \(fix)") }
            emit(fields.joined(separator: "  "))
        }
    }

    /// The opened source, and whether a calibration is saved for it (`imu-calibrate`); the
    /// samples `--read` prints are the raw readings either way.
    func print(source info: SourceInfo) {
        var saved: String?, savedError: String?
        do { saved = try SourceSelection.savedCalibrationPath(for: info.calibrationKey) } catch {
            savedError = "\(error)"
        }
        let c = info.capabilities
        let caps = [("accel", c.accelerometer), ("gyro", c.gyroscope), ("baro", c.barometer), ("temp", c.thermometer)]
            .filter(\.1).map(\.0).joined(separator: ",")
        let rate = info.nominalRateHz.map { JSONLine.number($0, decimals: 3) } ?? "unknown"
        if json {
            var line = JSONLine(type: "source")
            line.add("name", info.name)
            line.add("calibration_key", info.calibrationKey)
            line.add("capabilities", caps)
            line.add("rate_hz", info.nominalRateHz, decimals: 3)
            if let saved { line.add("saved_calibration", saved) } else { line.add("saved_calibration", raw: "null") }
            if let savedError { line.add("saved_calibration_error", savedError) }
            emit(line.text)
        } else {
            let calibration = savedError.map { "unreadable: \($0)" } ?? saved ?? "none (imu-calibrate --six-position makes one)"
            emit(["source", info.name, "capabilities=\(caps)", "rate_hz=\(rate)", "calibration_key=\(info.calibrationKey)",
                  "saved_calibration=\(calibration)"].joined(separator: "  "))
        }
    }

    /// Whether ground speed from gpsd is available (docs/gps.md): reachable, with or without a
    /// fix. Never a position: gpsd's position is not even read.
    func print(gps: GPSAvailability, address: String) {
        let available: Bool, fix: Bool, problem: String?
        var implausible: Int?
        /// Fixes ignored before the one used: counted whenever there were any (sweep29: the count
        /// was printed only when no fix followed them).
        var ignoredBeforeFix: String?
        switch gps {
        case let .fix(_, ignored, first):
            (available, fix, problem) = (true, true, nil)
            if ignored > 0, let first {
                implausible = ignored
                ignoredBeforeFix = GPSSpeedFeed.ignoredBeforeFixMessage(count: ignored, first: first)
            }
        case .noFix: (available, fix, problem) = (true, false, nil)
        case .unreachable(let message): (available, fix, problem) = (false, false, message)
        case let .implausible(count, first):
            implausible = count
            (available, fix, problem) = (true, false, GPSSpeedFeed.implausibleProbeMessage(count: count, first: first, wait: GPSProbe.defaultWait))
        }
        if json {
            var line = JSONLine(type: "gps")
            line.add("location", address)
            line.add("name", "gpsd")
            line.add("ground_speed_available", available)
            line.add("fix", fix)
            // The count imu-steps' summary calls gnss_speed_ignored (it was `implausible_speeds`
            // here: two names for one idea; imu-info's JSON is no contract, docs/CONTRACTS.md).
            if let implausible { line.add("gnss_speed_ignored", implausible) }
            if let problem { line.add("problem", problem) }
            if let ignoredBeforeFix { line.add("note", ignoredBeforeFix) }
            emit(line.text)
        } else {
            var fields = ["gps", address, "gpsd", "ground_speed=\(available ? "available" : "unavailable")"]
            if let ignoredBeforeFix, let implausible {
                fields.append("fix=yes (\(ignoredBeforeFix))")
                fields.append("gnss_speed_ignored=\(implausible)")
            } else if let problem, let implausible {
                fields.append("fix=no (\(problem))")
                fields.append("gnss_speed_ignored=\(implausible)")
            } else {
                if available { fields.append("fix=\(fix ? "yes" : "no (no receiver, or no satellites in view)")") }
                if let problem { fields.append("note: \(problem), check the address (--gpsd HOST:PORT), or leave gpsd out (--no-gps); steps and activity work from the IMU alone") }
            }
            emit(fields.joined(separator: "  "))
        }
    }

    func print(sample s: MotionSample) {
        if json {
            var line = JSONLine(type: "sample")
            line.add("t", s.time, decimals: 6)
            if let a = s.acceleration { line.add("accel_g", [a.x, a.y, a.z], decimals: 5) }
            if let g = s.rotationRate { line.add("gyro_rad_s", [g.x, g.y, g.z], decimals: 5) }
            if let p = s.pressure { line.add("pressure_hpa", p, decimals: 3) }
            if let t = s.temperature { line.add("temp_c", t, decimals: 2) }
            emit(line.text)
        } else {
            var fields = ["sample", "t=" + JSONLine.number(s.time, decimals: 6)]
            if let a = s.acceleration { fields += ["ax=\(n(a.x))", "ay=\(n(a.y))", "az=\(n(a.z))"] }
            if let g = s.rotationRate { fields += ["gx=\(n(g.x))", "gy=\(n(g.y))", "gz=\(n(g.z))"] }
            if let p = s.pressure { fields.append("p=" + JSONLine.number(p, decimals: 3)) }
            if let t = s.temperature { fields.append("temp=" + JSONLine.number(t, decimals: 2)) }
            emit(fields.joined(separator: "  "))
        }
    }

    private func n(_ x: Double) -> String { JSONLine.number(x, decimals: 5) }
    private func quoted(_ v: String) -> String { v.contains(" ") ? JSONLine.quote(v) : v }
    /// Plain lines are escaped: names and details come from sysfs, libiio and chips. JSON is
    /// escaped by `JSONLine`.
    private func emit(_ line: String) { Terminal.standardOutput.write((json ? line : line.escapedForTerminal) + "\n") }
}
