import IMUCLI
import IMUCalibration

/// The human-readable report of a calibration (`--six-position` without `--json`, and `--show`).
enum CalibrationReport {
    static func text(_ c: Calibration, path: String?) -> String {
        func row(_ v: Vector3, _ d: Int = reportDecimals) -> String { "\(signed(v.x, d))  \(signed(v.y, d))  \(signed(v.z, d))" }
        let q = c.quality
        // Key, sensor name and date come from files (a recording's comments, a saved calibration):
        // escaped, a newline too (each is one field on one line).
        func shown(_ text: String) -> String { text.escapedOnOneLine }
        var out = "Calibration for \(shown(c.key))\(c.sourceName.isEmpty ? "" : " (\(shown(c.sourceName)))")\n"
        if !c.created.isEmpty { out += "  made                 \(shown(c.created))\n" }
        out += "  accelerometer bias   \(row(c.accelerometerBias)) g\n"
        out += "  accelerometer scale  \(row(c.accelerometerScale))\n"
        let m = c.misalignment
        out += "  misalignment         \(row(m.rows.0))\n"
        out += "                       \(row(m.rows.1))\n"
        out += "                       \(row(m.rows.2))\n"
        if let g = c.gyroscopeBias {
            // °/s to 3 places: 0.001 °/s is 17 µrad/s, near the 10 µrad/s the rad/s column shows.
            out += "  gyroscope bias       \(row(g)) rad/s  (\(row(g * Units.degreesPerRadian, 3)) °/s)\n"
        } else {
            out += "  gyroscope bias       (no gyroscope)\n"
        }
        if q.samples > 0 {
            out += "  |g| error            \(fixed(q.gravityErrorBefore, reportDecimals)) g before → \(fixed(q.gravityErrorAfter, reportDecimals)) g after (RMS over the six faces)\n"
            out += "  face-up |g|          \(fixed(q.faceUpNormBefore, reportDecimals)) g → \(fixed(q.faceUpNormAfter, reportDecimals)) g\n"
            out += "  accelerometer noise  \(row(q.accelerometerNoise)) g (one reading, at rest)\n"
            if let n = q.gyroscopeNoise { out += "  gyroscope noise      \(row(n)) rad/s\n" }
            out += "  averaged             \(fixed(q.secondsPerFace, 1)) s per face, \(counted(q.samples, "sample"))\n"
        }
        if let path { out += "  file                 \(path)\n" }
        return out
    }
}
