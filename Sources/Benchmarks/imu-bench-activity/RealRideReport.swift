import Foundation
import Pedometer

/// Real-dev rides and walks: false steps during rides, time labelled cycling, and the walks that
/// must still count. Split: thigh rides r00 (both legs), r01, r02 and handlebar track1 tuned the
/// thresholds; r03, r04, r05 and track2 are held out.
enum RealRideReport {
    static let tuning = ["cycling_hugadb_p01_r00", "cycling_hugadb_p01_r01", "cycling_hugadb_p01_r02",
                         "cycling_byke_augsburg_track1"]

    static func run() {
        let rides: [RealRecording]
        do {
            rides = try RealDev.load(prefixes: ProcessInfo.processInfo.environment["IMU_ONLY"].map { [$0] } ?? ["cycling_", "bus_", "tram_", "car_", "metro_", "gait_"])
        } catch {
            print("real-dev: cannot read \(RealDev.directory): \(error)")
            return
        }
        guard !rides.isEmpty else {
            print("real-dev: skipped, \(RealDev.directory) is absent (set IMU_REALDEV_DIR)")
            return
        }
        print("== real-dev rides and walks (split: tuning = r00, r01, r02, track1; the rest held out)")
        print(pad("recording", 48) + "  part   truth  steps  cycling%  vehicle%  with GPS: steps cycling%")
        var tuneFalse = 0, heldFalse = 0, tuneCycling = 0.0, heldCycling = 0.0, tuneN = 0, heldN = 0
        var rideFalse = 0, vehicleRides = 0, walkCounted = 0, walkTruth = 0
        for r in rides {
            let imu = ActivityRun(samples: r.imuOnly, capabilities: r.capabilities, speeds: [])
            // With GPS: the recording's gnss_speed column as it replays (Pedometer.process reads it).
            let gps = r.hasSpeed ? ActivityRun(samples: r.samples, capabilities: r.capabilities, speeds: []) : nil
            let isRide = r.name.hasPrefix("cycling_")
            let part = isRide ? (tuning.contains { r.name.hasPrefix($0) } ? "tune" : "held") : "-"
            var line = pad(r.name, 48)
            line += String(format: "  %@  %6d %6d %8.1f  %8.1f", part, r.trueSteps, imu.steps, 100 * imu.share(of: .cycling),
                           100 * imu.share(of: .vehicle))
            if let gps { line += String(format: "  %15d %8.1f", gps.steps, 100 * gps.share(of: .cycling)) }
            print(line)
            if r.name.hasPrefix("gait_") { walkCounted += imu.steps; walkTruth += r.trueSteps }
            if !isRide, r.trueSteps == 0 { rideFalse += imu.steps; vehicleRides += 1 }
            guard isRide else { continue }
            let best = gps ?? imu
            if part == "tune" { tuneFalse += imu.steps; tuneCycling += best.share(of: .cycling); tuneN += 1 }
            else { heldFalse += imu.steps; heldCycling += best.share(of: .cycling); heldN += 1 }
        }
        if tuneN + heldN > 0 {
            print(String(format: "bike rides: false steps held out %d (%d rides), tuning %d (%d rides); all %d %d (target <= 2)",
                         heldFalse, heldN, tuneFalse, tuneN, tuneN + heldN, tuneFalse + heldFalse))
            print(String(format: "bike rides: time labelled cycling, held out %.1f %%, tuning %.1f %%",
                         100 * heldCycling / Double(max(heldN, 1)), 100 * tuneCycling / Double(max(tuneN, 1))))
            print(String(format: "figure: real-dev bike rides, false steps held out = %d (%d rides; tuning %d, %d rides), time labelled cycling held out %.1f %% | target <= 2 steps over all | anchor: the real-dev lower-back walks count %d steps of %d",
                         heldFalse, heldN, tuneFalse, tuneN, 100 * heldCycling / Double(max(heldN, 1)), walkCounted, walkTruth))
        }
        if vehicleRides > 0 {
            print("figure: real-dev bus, tram, car and metro rides, false steps = \(rideFalse) (\(vehicleRides) rides) | target 0 | anchor: the real-dev lower-back walks count \(walkCounted) steps of \(walkTruth)")
        }
    }
}

/// `text` cut or padded with spaces to `width` characters.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
}
