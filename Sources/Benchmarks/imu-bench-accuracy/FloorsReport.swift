import Foundation
import IMUCore
import Pedometer

/// Floors on real stairwell and level recordings (`../shared/data/real-dev`, read when present,
/// never copied): counted against the truth file's `floors_ascended` / `floors_descended`, at the
/// recording's own rate and with every reading (accelerometer, gyroscope, barometer) thinned to
/// 25 Hz, and against floor-height settings ±15 % around the 3 m default (real floors are 2.5 to
/// 4 m, and a user rarely knows theirs).
///
/// What was tuned on: the trip thresholds in `FloorSettings` quote the IPIN 2023 T51r2 stairwell
/// (its floors are about 2.9 m and its trips credit 2.3 to 2.7 m); the level figure-eight and
/// the simulator's stairs, elevators, drift and door slams were not tuned on.
enum FloorsReport {
    struct Case {
        var name: String
        var samples: [MotionSample]
        var capabilities: SensorCapabilities
        var up: Int
        var down: Int
    }

    static func run(directory: String) {
        print("== floors, real recordings (\(directory))")
        guard FileManager.default.fileExists(atPath: directory) else {
            print("floors: skipped, no directory at \(directory)")
            return
        }
        let cases: [Case]
        do { cases = try load(directory: directory) } catch { exitUnreadable(error) }
        if cases.isEmpty { print("floors: no recording with floors_ascended in its truth file"); return }
        let heights = [2.55, 3.0, 3.45]
        print("recording".padding(toLength: 52, withPad: " ", startingAt: 0),
              "truth   native   25 Hz   floor height 2.55 / 3.0 / 3.45 m")
        var exact = 0, runs = 0
        for c in cases {
            var cells: [String] = []
            for samples in [c.samples, thinned(c.samples, rateHz: 25)] {
                let s = count(samples, capabilities: c.capabilities).snapshot
                runs += 1
                if s.floorsAscended == c.up && s.floorsDescended == c.down { exact += 1 }
                cells.append("\(s.floorsAscended)/\(s.floorsDescended)")
            }
            var sweep: [String] = []
            for h in heights {
                var configuration = PedometerConfiguration()
                configuration.floorHeightMeters = h
                let s = count(c.samples, capabilities: c.capabilities, configuration: configuration).snapshot
                sweep.append("\(s.floorsAscended)/\(s.floorsDescended)")
            }
            print(c.name.padding(toLength: 52, withPad: " ", startingAt: 0),
                  "\(c.up)/\(c.down)".padding(toLength: 7, withPad: " ", startingAt: 0),
                  cells[0].padding(toLength: 8, withPad: " ", startingAt: 0),
                  cells[1].padding(toLength: 7, withPad: " ", startingAt: 0),
                  sweep.joined(separator: " / "))
        }
        print("floors exact in \(exact) of \(runs) runs (target: every real and simulated case)")
    }

    /// Every reading kept once per 1/`rateHz` s: what a 25 Hz sensor would have delivered.
    static func thinned(_ samples: [MotionSample], rateHz: Double) -> [MotionSample] {
        var out: [MotionSample] = []
        var next = -Double.infinity
        for s in samples where s.time >= next {
            out.append(s)
            next = s.time + 1 / rateHz - 1e-6
        }
        return out
    }

    static func load(directory: String) throws -> [Case] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".csv") }.sorted()
        var result: [Case] = []
        for file in names {
            let base = String(file.dropLast(4))
            guard let data = FileManager.default.contents(atPath: directory + "/" + base + ".truth.json"),
                  let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let up = object["floors_ascended"] as? Int, let down = object["floors_descended"] as? Int else { continue }
            let reader = try RecordingReader(path: directory + "/" + file)
            guard reader.capabilities.barometer else { continue }
            var samples: [MotionSample] = []
            while let sample = try reader.next() { samples.append(sample) }
            result.append(Case(name: base, samples: samples, capabilities: reader.capabilities, up: up, down: down))
        }
        return result
    }
}
